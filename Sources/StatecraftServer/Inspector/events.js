// An events feed (Server-Sent Events) read with fetch() streaming, as EventSource cannot send
// the token. Each event's data is one history entry; the feed reconnects by itself with
// `Last-Event-ID`, so that no entry is missed, until it is stopped.

import { parseJSON, request } from "./api.js";

/**
 * Follows the feed at `path`, calling `onEntry(entry)` for each entry, from the ones committed
 * after `lastEventId` (or after the request, without one). Returns a function that stops it.
 */
export function follow(path, { lastEventId = null, onEntry, onState = () => {} }) {
  const controller = new AbortController();
  let lastId = lastEventId;
  let stopped = false;

  async function readOnce() {
    const extraHeaders = lastId === null ? {} : { "Last-Event-ID": String(lastId) };
    const response = await request("GET", path, { accept: "text/event-stream", signal: controller.signal, extraHeaders });
    onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        dispatch(block);
      }
    }
  }

  function dispatch(block) {
    let data = "";
    let id = null;
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data += (data ? "\n" : "") + value;
      else if (field === "id") id = value;
    }
    if (!data) return;
    if (id !== null) lastId = id;
    onEntry(parseJSON(data));
  }

  (async () => {
    let delay = 250;
    while (!stopped) {
      try {
        await readOnce();
        delay = 250;
      } catch (error) {
        if (stopped) return;
        if (error.status === 401 || error.status === 404) {
          onState("ended", error);
          return;
        }
      }
      if (stopped) return;
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5000);
    }
  })();

  return () => {
    stopped = true;
    controller.abort();
  };
}
