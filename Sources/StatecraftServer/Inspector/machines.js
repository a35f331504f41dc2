// The served machines, and one machine: its diagram, its instances (filtered by state and
// status, a page at a time) and a form that creates an instance.

import { getJSON, machinePath, postJSON } from "./api.js";
import { definition, draw } from "./diagram.js";
import { el, fill, states } from "./dom.js";

const keyPattern = /^[A-Za-z0-9_~:@-][A-Za-z0-9._~:@-]{0,199}$/;
const pageSize = 20;

export function machineLink(name) {
  return el("a", { href: `#/machines/${encodeURIComponent(name)}` }, name);
}

export function instanceLink(machine, key) {
  return el("a", { href: `#/machines/${encodeURIComponent(machine)}/instances/${encodeURIComponent(key)}` }, key);
}

/** The list of machines; nothing once `isCurrent()` is false (the page went elsewhere). */
export async function showMachines(view, isCurrent) {
  const { machines } = await getJSON("/machines");
  if (!isCurrent()) return;
  fill(
    view,
    el("h1", {}, "Machines"),
    el(
      "ul",
      { class: "machines" },
      machines.map((machine) =>
        el("li", {}, machineLink(machine.name), " ", el("span", { class: "quiet" }, `${machine.kind}, inputs: ${machine.inputs.map((input) => input.name).join(", ") || "none"}`)),
      ),
    ),
  );
}

/** One machine: its diagram, its instances and the create form; nothing once `isCurrent()`
 * is false. */
export async function showMachine(view, name, isCurrent) {
  const { machines } = await getJSON("/machines");
  if (!isCurrent()) return;
  const machine = machines.find((each) => each.name === name);
  if (!machine) {
    fill(view, el("h1", {}, name), el("p", { class: "error", role: "alert" }, `This server serves no machine '${name}'.`));
    return;
  }
  const defined = await definition(name, machine.fingerprint);
  if (!isCurrent()) return;
  const diagram = el("div", { class: "diagram" });
  const stateFilter = el("select", { id: "filter-state" }, el("option", { value: "" }, "any"), defined.states.filter((state) => state.kind !== "history").map((state) => el("option", { value: state.name }, state.name)));
  const statusFilter = el("select", { id: "filter-status" }, ["", "running", "final"].map((status) => el("option", { value: status }, status || "any")));
  const list = el("div", { class: "instances" });
  const more = el("button", { type: "button", hidden: true }, "Next page");
  const first = el("button", { type: "button", hidden: true }, "First page");
  const listError = el("p", { class: "error", role: "alert" });
  let next = null;

  async function loadPage(cursor) {
    const query = new URLSearchParams({ limit: String(pageSize) });
    if (stateFilter.value) query.set("state", stateFilter.value);
    if (statusFilter.value) query.set("status", statusFilter.value);
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await getJSON(`${machinePath(name)}/instances?${query}`);
      listError.textContent = "";
      next = page.next;
      more.hidden = next === null;
      first.hidden = !cursor;
      fill(
        list,
        page.instances.length === 0
          ? el("p", { class: "quiet" }, "No instance matches.")
          : el(
              "table",
              {},
              el("thead", {}, el("tr", {}, ["key", "state", "status", "version", "updated"].map((title) => el("th", { scope: "col" }, title)))),
              el("tbody", {}, page.instances.map((instance) => el("tr", {}, el("td", {}, instanceLink(name, instance.key)), el("td", {}, states(instance.configuration ?? instance.state)), el("td", {}, instance.status), el("td", {}, instance.version), el("td", {}, instance.updated)))),
            ),
      );
    } catch (error) {
      listError.textContent = error.message;
    }
  }
  stateFilter.addEventListener("change", () => loadPage(null));
  statusFilter.addEventListener("change", () => loadPage(null));
  more.addEventListener("click", () => loadPage(next));
  first.addEventListener("click", () => loadPage(null));

  const keyField = el("input", { id: "new-key", type: "text", autocomplete: "off", spellcheck: "false", "aria-describedby": "new-key-help" });
  const contextField = el("textarea", { id: "new-context", rows: 3, spellcheck: "false", "aria-describedby": "new-context-help" });
  const createError = el("p", { class: "error", role: "alert" });
  const form = el(
    "form",
    { class: "create" },
    el("h2", {}, "Create an instance"),
    el("label", { for: "new-key" }, "Key"),
    keyField,
    el("p", { id: "new-key-help", class: "help" }, "1 to 200 of A-Z a-z 0-9 . _ ~ : @ -, not starting with a dot; empty for a new UUID."),
    el("label", { for: "new-context" }, "Context (JSON object)"),
    contextField,
    el("p", { id: "new-context-help", class: "help" }, 'Declared variables and their values, e.g. {"total": 5}; empty for the initial context.'),
    el("button", { type: "submit" }, "Create"),
    createError,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // The body is built as text, the context as typed: parsed and written again, an int
    // beyond 2^53 would lose digits and 1.0 would become 1.
    const members = [];
    const key = keyField.value.trim();
    if (key) {
      if (!keyPattern.test(key)) {
        createError.textContent = `The key '${key}' is not 1 to 200 of A-Z a-z 0-9 . _ ~ : @ - not starting with a dot.`;
        return;
      }
      members.push(`"key":${JSON.stringify(key)}`);
    }
    const contextText = contextField.value.trim();
    if (contextText) {
      let context;
      try {
        context = JSON.parse(contextText);
      } catch (error) {
        createError.textContent = `The context is not JSON: ${error.message}`;
        return;
      }
      if (context === null || typeof context !== "object" || Array.isArray(context)) {
        createError.textContent = "The context must be a JSON object, like {\"total\": 5}.";
        return;
      }
      members.push(`"context":${contextText}`);
    }
    try {
      const instance = await postJSON(`${machinePath(name)}/instances`, `{${members.join(",")}}`);
      location.hash = `#/machines/${encodeURIComponent(name)}/instances/${encodeURIComponent(instance.key)}`;
    } catch (error) {
      createError.textContent = error.message;
    }
  });

  fill(
    view,
    el("h1", {}, name),
    el("p", { class: "quiet" }, `${machine.kind} machine, definition ${machine.fingerprint}`),
    el("div", { class: "columns" }, el("section", { "aria-label": "Diagram" }, diagram), el("section", {}, form)),
    el(
      "section",
      { "aria-labelledby": "instances-title" },
      el("h2", { id: "instances-title" }, "Instances"),
      el("div", { class: "filters" }, el("label", { for: "filter-state" }, "In state"), stateFilter, el("label", { for: "filter-status" }, "Status"), statusFilter),
      listError,
      list,
      el("div", { class: "pager" }, first, more),
    ),
  );
  await Promise.all([draw(diagram, name, machine.fingerprint), loadPage(null)]);
}
