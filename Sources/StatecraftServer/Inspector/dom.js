// Building elements. Every name, description, value and message reaches the page as text
// (text nodes, textContent, attribute values): nothing from the server or the user is ever
// parsed as HTML.

/**
 * An element: `attributes` are set as attributes (`class`, `data-*`, `aria-*`, ...; `false`
 * or `null` leaves one out, `true` sets it empty), except `on*` functions, which listen;
 * `children` are nodes or strings (text), nested arrays flattened, null skipped.
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces `element`'s children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A value as JSON text (strings quoted), for context values and arguments. */
export function json(value) {
  return JSON.stringify(value);
}

/** A state, or a statechart's configuration, as text. */
export function states(value) {
  if (Array.isArray(value)) return value.join(", ");
  return value === null || value === undefined ? "" : String(value);
}

/** A duration in milliseconds as "1 h 2 min 3 s" (whole seconds, rounded up). */
export function duration(milliseconds) {
  let seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const parts = [];
  for (const [unit, size] of [["d", 86400], ["h", 3600], ["min", 60]]) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)} ${unit}`);
      seconds %= size;
    }
  }
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds} s`);
  return parts.join(" ");
}

/** A time (RFC 3339) as the browser's local time of day with milliseconds. */
export function time(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return String(text);
  return date.toLocaleTimeString(undefined, { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
}

/** One input's result (as `smrun --format json` prints it) as a line of text. */
export function result(result) {
  let what;
  if (result.start) what = "start";
  else if (result.eventless) what = "eventless";
  else if (result.after !== undefined) what = `after ${result.after}`;
  else what = `${result.input}${"arg" in result ? " " + json(result.arg) : ""}`;
  if (!result.ok) return `${what}: rejected (${result.error}): ${result.message}`;
  const moves = result.from === undefined ? `to ${states(result.to)}` : `${states(result.from)} → ${states(result.to)}`;
  const effects = result.effects && result.effects.length ? `; effects ${result.effects.join(", ")}` : "";
  const sent = result.sent_by ? ` (sent by ${result.sent_by})` : "";
  const ignored = result.ignored ? " (ignored)" : "";
  return `${what}${sent}: ${moves}${ignored}${effects}`;
}

/** A list of results, each as a list item; a rejection is marked as such. */
export function resultList(results) {
  if (!results || results.length === 0) return el("p", { class: "quiet" }, "No results (nothing happened).");
  return el("ul", { class: "results" }, results.map((each) => el("li", { class: each.ok ? "ok" : "rejected" }, result(each))));
}

/** What a timer fires (as a snapshot lists it): an `after` of a state, or a delayed send. */
export function timer(timer) {
  if (timer.after !== undefined) return `after ${timer.after} in ${timer.state}${timer.nth ? ` (#${timer.nth})` : ""}`;
  const arg = "arg" in timer ? ` ${json(timer.arg)}` : "";
  const id = timer.timer ? ` (timer ${timer.timer})` : "";
  return `send ${timer.input}${arg} from ${timer.sent_by}${id}`;
}
