// The client's only way to the server: the public API under /api/v1/ (docs/api.md).
//
// Bearer tokens (kept in localStorage) authenticate every request, so no cookie and no CSRF
// token is involved. Actions carry an Idempotency-Key: a retry after a dropped connection sends
// the same key and body, and the server applies the action at most once.

export const BASE = "/api/v1/";
const TOKEN_KEY = "uaw.token";

export class ApiError extends Error {
  constructor(status, code, message, details = null, retryAfter = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

const listeners = new Set();
/** Called with no arguments when the server says the token is no longer good (401). */
export function onSignedOut(fn) {
  listeners.add(fn);
}

export const auth = {
  get token() {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch (_) {
      return null;
    }
  },
  set(token) {
    localStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
  },
};

export function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request. `path` is relative to /api/v1/. Options:
 * - body: sent as JSON; method defaults to POST when there is a body.
 * - key: an Idempotency-Key (actions); network errors are retried with the same key and body
 *   (the server answers a retry with the first answer, or applies it if the first never was).
 * - raw: return the Response itself (ETag, streams) instead of parsed JSON.
 */
export async function request(path, options = {}) {
  const { body, key, raw = false, signal, headers = {} } = options;
  const method = options.method || (body === undefined ? "GET" : "POST");
  const sent = { Accept: "application/json", ...headers };
  const token = auth.token;
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (key) sent["Idempotency-Key"] = key;
  const init = {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: "no-store",
    credentials: "omit",
  };
  let response;
  for (let attempt = 0; ; attempt += 1) {
    try {
      response = await fetch(BASE + path, init);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      // Only a request with an idempotency key (or a read) is safe to send again blindly.
      if ((key || method === "GET") && attempt < 3) {
        await sleep(700 * (attempt + 1));
        continue;
      }
      throw new ApiError(0, "network", error.message);
    }
    break;
  }
  if (raw) return response;
  if (response.status === 204 || response.status === 304) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    if (response.status === 401 && token) {
      auth.clear();
      for (const fn of listeners) fn();
    }
    throw new ApiError(
      response.status,
      error.code || "error",
      error.message || response.statusText,
      error.details || null,
      response.headers.get("Retry-After"),
    );
  }
  return data;
}

export const api = {
  get: (path, options) => request(path, options),
  post: (path, body = {}, options = {}) => request(path, { ...options, body, method: "POST" }),
  patch: (path, body, options = {}) => request(path, { ...options, body, method: "PATCH" }),
  put: (path, body, options = {}) => request(path, { ...options, body, method: "PUT" }),
  del: (path, options = {}) => request(path, { ...options, method: "DELETE" }),
};

/** Take one action in a game (docs/api.md, "Actions"). Returns the new view. */
export function act(game, action) {
  return api.post(
    `games/${game.id}/actions/`,
    { ...action, expected_version: game.version },
    { key: newKey() },
  );
}
