// One instance: its diagram with the active configuration lit and the last entry's transitions
// marked, its context, its pending timers counting down, a button for each input (disabled,
// with the reason, when the configuration cannot take it), the virtual clock's buttons, the
// answer to the last request, and its history, whose entries show the instance as it was after
// them. The events feed keeps it current.

import { getJSON, instancePath, postJSON } from "./api.js";
import { argumentField, argumentJSON } from "./arguments.js";
import { activeStates, definition, draw, light } from "./diagram.js";
import { duration, el, fill, json, resultList, states, timer } from "./dom.js";
import { follow } from "./events.js";
import { machineLink } from "./machines.js";
import { Timeline } from "./timeline.js";

const clockMoves = [
  { hook: "1s", label: "+1 s", body: { advance: "1s" } },
  { hook: "1m", label: "+1 min", body: { advance: "1m" } },
  { hook: "next-timer", label: "Next timer", body: { to: "next-timer" } },
];

/** Shows `key` of `machine` in `view`, unless `isCurrent()` has turned false by the time the
 * instance is read (the page went elsewhere); resolves to a function that leaves the view. */
export async function showInstance(view, machine, key, isCurrent) {
  const path = instancePath(machine, key);
  let instance = await getJSON(path);
  let viewing = null;
  let enabledInputs = [];
  const diagram = el("div", { class: "diagram" });
  const timeline = new Timeline(machine, key, (entry) => select(entry));
  // The definition, the drawing, the newest entries and the inputs, all at once.
  const [defined, svg] = await Promise.all([
    definition(machine, instance.fingerprint),
    draw(diagram, machine, instance.fingerprint),
    timeline.loadNewest(instance.version),
    updateInputs(),
  ]);
  if (!isCurrent()) return () => {};

  const summary = el("dl", { class: "summary" });
  const contextBody = el("tbody");
  const timers = el("ul", { class: "timers" });
  const inputs = el("div", { class: "inputs" });
  const clock = el("div", { class: "clock", hidden: true });
  const answer = el("div", { class: "answer", role: "status", "aria-live": "polite" });
  const past = el("div", { class: "past", hidden: true });
  const feedState = el("span", { class: "feed quiet" }, "connecting…");

  // One row per input the machine takes, made once; its button and reason change with the state.
  const rows = new Map();
  for (const input of defined.inputs) {
    const id = `arg-${input.name}`;
    const field = argumentField(input.name, input.arg, id);
    const reason = el("span", { class: "reason", id: `reason-${input.name}` });
    const button = el("button", { type: "button", "data-input": input.name, "aria-describedby": `reason-${input.name}`, onclick: () => send(input) }, input.name);
    rows.set(input.name, { button, reason, field: field?.field });
    inputs.append(el("div", { class: "input" }, button, field ? [field.label, field.field] : null, reason));
  }
  const clockButtons = clockMoves.map((move) => el("button", { type: "button", "data-clock": move.hook, onclick: () => moveClock(move) }, move.label));
  clock.append(el("span", { class: "clock-label" }, "Virtual clock: "), el("span", { class: "now" }), ...clockButtons);

  fill(
    view,
    el("h1", {}, key),
    el("p", { class: "quiet" }, "Instance of ", machineLink(machine), " · ", feedState),
    past,
    el(
      "div",
      { class: "columns" },
      el("section", { "aria-label": "Diagram" }, diagram),
      el(
        "section",
        { class: "side" },
        summary,
        el("h2", {}, "Inputs"),
        inputs,
        clock,
        answer,
        el("h2", {}, "Context"),
        el("table", { class: "context" }, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "variable"), el("th", { scope: "col" }, "value"))), contextBody),
        el("h2", {}, "Pending timers"),
        timers,
      ),
    ),
    el("section", { "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "History"), timeline.element),
  );

  render();

  // Refreshes are coalesced: while one is in flight, later ones make one more after it.
  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const fetched = await getJSON(path);
          if (fetched.version >= instance.version) instance = fetched;
          await updateInputs();
          render();
        } catch (error) {
          showError(error);
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  }

  async function updateInputs() {
    enabledInputs = await getJSON(`${path}/inputs`);
  }

  const stopFeed = follow(`${path}/events`, {
    lastEventId: instance.version,
    onEntry: async (entry) => {
      await timeline.add(entry);
      // The entry carries the instance as it is after it: shown at once; the timers and the
      // inputs' reasons follow with the refresh.
      if (entry.seq > instance.version && (entry.state ?? entry.configuration)) instance = afterEntry(instance, entry);
      render();
      refresh();
    },
    onState: (state, error) => {
      feedState.textContent = state === "live" ? "live" : state === "reconnecting" ? "reconnecting…" : `feed ended: ${error?.message ?? ""}`;
    },
  });
  const ticking = setInterval(renderTimers, 500);

  /** The instance as `entry` left it: its states, context, status and version. */
  function afterEntry(before, entry) {
    const after = { ...before, context: entry.context, status: entry.status, version: entry.seq };
    if (entry.configuration) {
      after.configuration = entry.configuration;
      after.history_states = entry.history_states;
    } else {
      after.state = entry.state;
    }
    return after;
  }

  function select(entry) {
    viewing = entry;
    timeline.select(entry.seq);
    render();
  }

  function followLive() {
    viewing = null;
    timeline.select(null);
    render();
  }

  function render() {
    const shown = viewing ?? instance;
    const transitions = viewing ? viewing.transitions : timeline.entries.get(instance.version)?.transitions;
    light(svg, defined, activeStates(shown), transitions ?? []);
    fill(
      summary,
      el("dt", {}, defined.kind === "flat" ? "State" : "Configuration"),
      el("dd", { class: "state" }, states(shown.configuration ?? shown.state) || "not recorded"),
      el("dt", {}, "Status"),
      el("dd", {}, shown.status ?? "not recorded"),
      el("dt", {}, viewing ? "Entry" : "Version"),
      el("dd", {}, viewing ? `#${viewing.seq}` : instance.version),
    );
    if (viewing) {
      fill(
        past,
        el("p", {}, `Showing the instance as it was after entry #${viewing.seq} (read-only).`),
        el("button", { type: "button", class: "live", onclick: followLive }, "Follow live"),
      );
    }
    past.hidden = !viewing;
    const context = shown.context;
    fill(
      contextBody,
      context ? Object.entries(context).map(([name, value]) => el("tr", {}, el("th", { scope: "row" }, name), el("td", {}, json(value)))) : el("tr", {}, el("td", { colspan: 2 }, "not recorded for this entry")),
    );
    renderInputs();
    renderTimers();
  }

  function renderInputs() {
    const byName = new Map(enabledInputs.map((input) => [input.name, input]));
    for (const [name, row] of rows) {
      const known = byName.get(name);
      let why = null;
      if (viewing) why = `viewing entry #${viewing.seq}: follow live to send`;
      else if (known && !known.enabled) why = known.reason;
      row.button.disabled = why !== null;
      if (row.field) row.field.disabled = why !== null;
      row.reason.textContent = why ?? "";
    }
    const virtual = instance.clock === "virtual";
    clock.hidden = !virtual;
    for (const button of clockButtons) button.disabled = viewing !== null;
    if (virtual) clock.querySelector(".now").textContent = `${duration(instance.now)} `;
  }

  function renderTimers() {
    if (viewing) {
      fill(timers, el("li", { class: "quiet" }, "Not recorded in history: follow live to see the pending timers."));
      return;
    }
    if (instance.timers.length === 0) {
      fill(timers, el("li", { class: "quiet" }, "none"));
      return;
    }
    fill(
      timers,
      instance.timers.map((pending) => {
        const left = instance.clock === "virtual" ? pending.due - instance.now : Date.parse(pending.due) - Date.now();
        const when = left > 0 ? `in ${duration(left)}` : "due now";
        return el("li", {}, el("span", { class: "left" }, when), " ", timer(pending));
      }),
    );
  }

  async function send(input) {
    const row = rows.get(input.name);
    let body = `{"input":${JSON.stringify(input.name)}`;
    if (input.arg) {
      const checked = argumentJSON(input.name, input.arg, row.field.value);
      if (checked.error) {
        fill(answer, el("p", { class: "error", role: "alert" }, checked.error));
        row.field.focus();
        return;
      }
      body += `,"arg":${checked.json}`;
    }
    await post(`${path}/inputs`, body + "}", input.name);
  }

  async function moveClock(move) {
    await post(`${path}/clock`, JSON.stringify(move.body), move.label);
  }

  async function post(target, body, what) {
    try {
      const answered = await postJSON(target, body);
      if (answered.instance.version >= instance.version) instance = answered.instance;
      fill(answer, el("h3", {}, `Answer to ${what}`), resultList(answered.results));
      await updateInputs();
      render();
    } catch (error) {
      showError(error);
    }
  }

  function showError(error) {
    fill(answer, el("p", { class: "error", role: "alert" }, error.message));
  }

  return () => {
    stopFeed();
    clearInterval(ticking);
  };
}
