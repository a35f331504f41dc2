// A definition's diagram: the server draws it (Graphviz, which escapes every label) with a
// `data-state` on each state's group and a `data-transition` on each edge; the page parses the
// SVG as XML (never as HTML), and lights the active states, their ancestors and the edges an
// entry took. Without Graphviz on the server, the Mermaid text is shown instead.

import { ApiError, definitionPath, getJSON, getText } from "./api.js";
import { el, fill } from "./dom.js";

const definitions = new Map();
const drawings = new Map();

/** The definition (states with parents and kinds, transitions, inputs), fetched once. */
export function definition(machine, fingerprint) {
  const key = `${machine}\n${fingerprint}`;
  if (!definitions.has(key)) {
    const loading = getJSON(definitionPath(machine, fingerprint));
    loading.catch(() => definitions.delete(key));
    definitions.set(key, loading);
  }
  return definitions.get(key);
}

/** `{svg}` (the SVG's text) or `{mermaid}` when the server has no Graphviz; fetched once. */
function drawing(machine, fingerprint) {
  const key = `${machine}\n${fingerprint}`;
  if (!drawings.has(key)) {
    const loading = (async () => {
      try {
        return { svg: await getText(`${definitionPath(machine, fingerprint)}/diagram.svg`, "image/svg+xml") };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 503) throw error;
        return { mermaid: await getText(`${definitionPath(machine, fingerprint)}/diagram.mmd`, "text/plain"), why: error.message };
      }
    })();
    loading.catch(() => drawings.delete(key));
    drawings.set(key, loading);
  }
  return drawings.get(key);
}

/** Draws the diagram of `fingerprint` into `container`; resolves to the SVG element, or null. */
export async function draw(container, machine, fingerprint) {
  const drawn = await drawing(machine, fingerprint);
  if (drawn.mermaid !== undefined) {
    fill(container, el("p", { class: "quiet" }, `No drawing: ${drawn.why} The diagram in Mermaid:`), el("pre", { class: "mermaid" }, drawn.mermaid));
    return null;
  }
  const parsed = new DOMParser().parseFromString(drawn.svg, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.nodeName !== "svg") {
    fill(container, el("p", { class: "error" }, "The server's diagram is not an SVG document."));
    return null;
  }
  const svg = document.importNode(root, true);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Diagram of ${machine}`);
  fill(container, svg);
  return svg;
}

/**
 * Marks, in `svg`, the active atomic states (`active`), their ancestors (`active-ancestor`,
 * from the definition's parents) and the edges of `transitions` (`taken`), and unmarks the rest.
 */
export function light(svg, definition, activeStates, transitions) {
  if (!svg) return;
  for (const mark of ["active", "active-ancestor", "taken"]) {
    for (const node of svg.querySelectorAll(`.${mark}`)) node.classList.remove(mark);
  }
  const parents = new Map(definition.states.map((state) => [state.name, state.parent]));
  for (const name of activeStates) {
    stateGroup(svg, name)?.classList.add("active");
    for (let parent = parents.get(name); parent; parent = parents.get(parent)) {
      stateGroup(svg, parent)?.classList.add("active-ancestor");
    }
  }
  for (const n of transitions ?? []) {
    for (const edge of svg.querySelectorAll(`[data-transition="${CSS.escape(String(n))}"]`)) edge.classList.add("taken");
  }
}

function stateGroup(svg, name) {
  return svg.querySelector(`[data-state="${CSS.escape(name)}"]`);
}

/** The active atomic states of an instance or a history entry: its `configuration` or `state`. */
export function activeStates(subject) {
  if (Array.isArray(subject.configuration)) return subject.configuration;
  return typeof subject.state === "string" ? [subject.state] : [];
}
