// The inspector: routes the page's address (`#/`, `#/machines/M`, `#/machines/M/instances/K`)
// to its views, and asks for the token when the server answers 401.

import { forgetToken, setToken, token, whenUnauthorized } from "./api.js";
import { fill } from "./dom.js";
import { showInstance } from "./instance.js";
import { machineLink, showMachine, showMachines } from "./machines.js";

const view = document.getElementById("view");
const trail = document.getElementById("trail");
const failure = document.getElementById("failure");
const tokenPanel = document.getElementById("token");
const tokenForm = document.getElementById("token-form");
const tokenInput = document.getElementById("token-input");
const tokenError = document.getElementById("token-error");

let leave = null;
let showing = 0;

async function route() {
  const shown = ++showing;
  // A view whose reads end after the page went elsewhere draws nothing.
  const isCurrent = () => shown === showing;
  if (leave) leave();
  leave = null;
  failure.hidden = true;
  try {
    const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] === "machines" && parts.length === 2) {
      fill(trail, machineLink(parts[1]));
      await showMachine(view, parts[1], isCurrent);
    } else if (parts[0] === "machines" && parts[2] === "instances" && parts.length === 4) {
      fill(trail, machineLink(parts[1]), " / ", parts[3]);
      const leaving = await showInstance(view, parts[1], parts[3], isCurrent);
      if (isCurrent()) leave = leaving;
      else leaving();
    } else {
      fill(trail);
      await showMachines(view, isCurrent);
    }
  } catch (error) {
    if (!isCurrent() || error.status === 401) return;
    fill(view);
    if (error instanceof URIError) fill(trail);
    failure.textContent = error instanceof URIError ? `${location.hash} is no address of this page: ${error.message}.` : error.message;
    failure.hidden = false;
  }
}

whenUnauthorized((error) => {
  if (token()) tokenError.textContent = `The server refused the token: ${error.message}`;
  forgetToken();
  tokenPanel.hidden = false;
  tokenInput.focus();
});

tokenForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const value = tokenInput.value.trim();
  if (!value) return;
  // A header carries only these; the server compares bytes, so no other text could match.
  if (!/^[\x20-\x7e]+$/.test(value)) {
    tokenError.textContent = "The page can send a token of printable ASCII characters only; this one has others (a pasted curly quote?).";
    return;
  }
  setToken(value);
  tokenInput.value = "";
  tokenPanel.hidden = true;
  route();
});

window.addEventListener("hashchange", route);
route();
