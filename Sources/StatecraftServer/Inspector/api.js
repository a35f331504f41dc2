// Requests to the server's public API: the token (kept in sessionStorage) goes with each as
// `Authorization: Bearer`; an answer that is not 2xx becomes an ApiError carrying the
// problem's detail (RFC 9457), so that the page can show what the server said.

const tokenKey = "statecraft-token";

export function token() {
  return sessionStorage.getItem(tokenKey);
}

export function setToken(value) {
  sessionStorage.setItem(tokenKey, value);
}

export function forgetToken() {
  sessionStorage.removeItem(tokenKey);
}

/** An answer that is not 2xx: `status`, and `message` from the problem's detail. */
export class ApiError extends Error {
  constructor(status, message, problem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/** Called with an ApiError of status 401, so that the page can ask for a token. */
let onUnauthorized = () => {};
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

function headers(extra = {}) {
  const result = { ...extra };
  const value = token();
  if (value) result.Authorization = `Bearer ${value}`;
  return result;
}

/** `fetch` with the token; throws ApiError for a non-2xx answer. */
export async function request(method, path, { body, accept = "application/json", signal, extraHeaders } = {}) {
  const init = { method, headers: headers({ Accept: accept, ...extraHeaders }), signal };
  if (body !== undefined) {
    init.body = body;
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    let problem = null;
    let message = `${response.status} ${response.statusText}`;
    try {
      problem = await response.json();
      if (problem && typeof problem.detail === "string") message = problem.detail;
    } catch {
      // Not JSON: the status line says it.
    }
    const error = new ApiError(response.status, message, problem);
    if (response.status === 401) onUnauthorized(error);
    throw error;
  }
  return response;
}

/**
 * JSON text parsed so that an int a double cannot hold (beyond 2^53) keeps its digits: it
 * becomes `JSON.rawJSON` of its text, which `JSON.stringify` (and so the page) writes as it
 * came. A browser without JSON.parse's source text parses it as before.
 */
export function parseJSON(text) {
  if (typeof JSON.rawJSON !== "function") return JSON.parse(text);
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?[0-9]+$/.test(context.source) ? JSON.rawJSON(context.source) : value,
  );
}

export async function getJSON(path, options) {
  return parseJSON(await (await request("GET", path, options)).text());
}

/** POSTs `body` (a JSON text, built by the caller so that an int keeps every digit). */
export async function postJSON(path, body) {
  return parseJSON(await (await request("POST", path, { body })).text());
}

export async function getText(path, accept) {
  return (await request("GET", path, { accept })).text();
}

/** The path of a machine, of its instance, or of something below the instance. */
export function machinePath(machine) {
  return `/machines/${encodeURIComponent(machine)}`;
}

export function instancePath(machine, key) {
  return `${machinePath(machine)}/instances/${encodeURIComponent(key)}`;
}

export function definitionPath(machine, fingerprint) {
  return `${machinePath(machine)}/definitions/${encodeURIComponent(fingerprint)}`;
}
