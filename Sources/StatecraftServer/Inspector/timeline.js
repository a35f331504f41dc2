// An instance's history as a timeline: the newest 50 entries first, older ones on demand, new
// ones as the events feed brings them. Each entry is a button carrying `data-seq`; choosing
// one calls `onSelect(entry)`.

import { getJSON, instancePath } from "./api.js";
import { el, fill, json, result, time, timer } from "./dom.js";

const pageSize = 50;

export class Timeline {
  constructor(machine, key, onSelect) {
    this.machine = machine;
    this.key = key;
    this.onSelect = onSelect;
    this.entries = new Map();
    this.selected = null;
    this.list = el("ol", { class: "timeline", "aria-label": "History, oldest first" });
    this.older = el("button", { type: "button", class: "older", onclick: () => this.loadOlder() }, "Load older entries");
    this.element = el("div", {}, this.older, this.list);
  }

  get oldest() {
    return this.entries.size ? Math.min(...this.entries.keys()) : null;
  }

  get newest() {
    return this.entries.size ? Math.max(...this.entries.keys()) : 0;
  }

  /** Loads the 50 entries up to `version` (the instance's last seq). */
  async loadNewest(version) {
    await this.load(Math.max(0, version - pageSize), Math.min(pageSize, version));
  }

  async loadOlder() {
    const oldest = this.oldest;
    if (oldest === null || oldest <= 1) return;
    const after = Math.max(0, oldest - 1 - pageSize);
    await this.load(after, oldest - 1 - after);
    this.list.querySelector(`[data-seq="${oldest - 1}"]`)?.focus();
  }

  async load(after, limit) {
    if (limit <= 0) return this.render();
    const page = await getJSON(`${instancePath(this.machine, this.key)}/history?after=${after}&limit=${limit}`);
    for (const entry of page.entries) this.entries.set(entry.seq, entry);
    this.render();
  }

  /** Adds an entry from the feed (ignoring one it already has); fills a gap first. */
  async add(entry) {
    if (this.entries.has(entry.seq)) return;
    const newest = this.newest;
    if (newest && entry.seq > newest + 1) await this.load(newest, entry.seq - newest - 1);
    this.entries.set(entry.seq, entry);
    this.list.append(this.item(entry));
  }

  select(seq) {
    this.selected = seq;
    for (const button of this.list.querySelectorAll("[data-seq]")) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.seq) === seq));
    }
  }

  render() {
    const oldest = this.oldest;
    this.older.hidden = oldest === null || oldest <= 1;
    fill(this.list, [...this.entries.keys()].sort((a, b) => a - b).map((seq) => this.item(this.entries.get(seq))));
  }

  item(entry) {
    const lines = entry.results.map((each) => el("span", { class: each.ok ? "line ok" : "line rejected" }, result(each)));
    const button = el(
      "button",
      {
        type: "button",
        class: "entry",
        "data-seq": entry.seq,
        "aria-pressed": String(entry.seq === this.selected),
        onclick: () => this.onSelect(entry),
      },
      el("span", { class: "seq" }, `#${entry.seq}`),
      el("span", { class: "when" }, time(entry.at)),
      el("span", { class: "what" }, describe(entry)),
      entry.status === "final" ? el("span", { class: "final-mark" }, "final") : null,
      lines.length ? lines : el("span", { class: "line quiet" }, "no results"),
    );
    return el("li", {}, button);
  }
}

/** What caused an entry: the start, an input (with its argument) or a timer. */
function describe(entry) {
  if (entry.start) return "created";
  if (entry.timer) return `timer: ${timer(entry.timer)}`;
  return `input ${entry.input}${entry.arg === null || entry.arg === undefined ? "" : " " + json(entry.arg)}`;
}
