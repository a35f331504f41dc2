// An input's typed argument field (int, double, bool, string) and its check before sending:
// a value the server would refuse is refused here, with a message naming the input and the
// type, and nothing is sent.

import { el } from "./dom.js";

const intPattern = /^[+-]?\d+$/;
const doublePattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** The field for an argument of `type` (null: no field), labelled for the input `name`. */
export function argumentField(name, type, id) {
  if (type === null || type === undefined) return null;
  const label = el("label", { for: id }, `${name} (${type})`);
  let field;
  if (type === "bool") {
    field = el("select", { id }, el("option", { value: "true" }, "true"), el("option", { value: "false" }, "false"));
  } else {
    field = el("input", {
      id,
      type: "text",
      inputmode: type === "int" ? "numeric" : type === "double" ? "decimal" : null,
      autocomplete: "off",
      spellcheck: "false",
    });
  }
  return { label, field };
}

/**
 * The argument's JSON text for `type`, from the field's text: `{json}`, or `{error}` saying
 * what is wrong. An int keeps its digits (JSON numbers beyond 2^53 lose them in JavaScript).
 */
export function argumentJSON(name, type, text) {
  switch (type) {
    case "int": {
      const trimmed = text.trim();
      if (!intPattern.test(trimmed)) return { error: `'${name}' takes an int (like 42 or -7), not '${text}'` };
      const value = BigInt(trimmed);
      if (value < int64.min || value > int64.max) return { error: `'${name}' takes an int between ${int64.min} and ${int64.max}` };
      return { json: value.toString() };
    }
    case "double": {
      const trimmed = text.trim();
      const value = Number(trimmed);
      if (!doublePattern.test(trimmed) || !Number.isFinite(value)) {
        return { error: `'${name}' takes a number (like 2.5 or -1e3), not '${text}'` };
      }
      return { json: JSON.stringify(value) };
    }
    case "bool":
      return text === "true" || text === "false" ? { json: text } : { error: `'${name}' takes true or false` };
    case "string":
      return { json: JSON.stringify(text) };
    default:
      return { error: `'${name}' takes an argument of a type this page does not know: ${type}` };
  }
}
