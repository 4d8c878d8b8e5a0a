// The client's only way to the server: the public API under /api/v1/ (docs/api.md).
//
// Bearer tokens (kept in localStorage) authenticate every request, so no cookie and no CSRF
// token is involved. Actions carry an Idempotency-Key: a retry after a dropped connection sends
// the same key and body, and the server applies the action at most once.

import { language } from "./i18n.js";

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

/** Forget the state the service worker kept for offline use (sw.js, DATA): it was another's. */
function forgetKept() {
  if (globalThis.caches) caches.delete("uaw-data").catch(() => {});
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
    if (token !== this.token) forgetKept();
    localStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    forgetKept();
    localStorage.removeItem(TOKEN_KEY);
  },
};

/**
 * Offline or not, as the answers say: an answer the service worker served from its cache carries
 * `X-Cached-At` (when the server last confirmed it); any answer from the server clears it.
 * `offline.since` is that time (a Date) while what is on screen comes from the cache, else null.
 */
const offlineListeners = new Set();
export const offline = {
  since: null,
  onChange(fn) {
    offlineListeners.add(fn);
    return () => offlineListeners.delete(fn);
  },
  set(since) {
    const before = this.since ? this.since.getTime() : null;
    const after = since ? since.getTime() : null;
    this.since = since;
    if (before !== after) for (const fn of offlineListeners) fn(since);
  },
};

function noteSource(path, response) {
  // Who I am is read once at start: its age says nothing about the state on screen.
  if (path === "me/") return;
  const cachedAt = response.headers.get("X-Cached-At");
  offline.set(cachedAt ? new Date(cachedAt) : null);
}

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
  // The server's own messages (validation, password rules) in the language the player chose.
  const sent = { Accept: "application/json", "Accept-Language": language(), ...headers };
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
  noteSource(path, response);
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

/**
 * Take one action in a game (docs/api.md, "Actions"). Returns the new view. `key` is the
 * Idempotency-Key: an action queued offline is sent later with the key (and body) it was given.
 */
export async function act(game, action, key = newKey()) {
  const view = await api.post(`games/${game.id}/actions/`, { ...action, expected_version: game.version }, { key });
  keepView(view);
  return view;
}

/**
 * An action's answer is the game's newest view: keep it where the service worker keeps the
 * game's reads (sw.js), so a page opened offline after a move shows the table after it.
 */
function keepView(view) {
  if (!globalThis.caches || !view || !view.id) return;
  const headers = { "Content-Type": "application/json", "X-Cached-At": new Date().toISOString() };
  const url = new URL(`${BASE}games/${view.id}/`, location.origin).href;
  caches
    .open("uaw-data")
    .then((cache) => cache.put(url, new Response(JSON.stringify(view), { headers })))
    .catch(() => {});
}

/**
 * Actions tapped offline, kept on this device until the connection returns (one per game: after
 * it, the table on screen is no longer the game's). Each is {action, expected_version, key, at}.
 */
const QUEUE_KEY = "uaw.queued";
export const queue = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(QUEUE_KEY) || "{}");
    } catch (_) {
      return {};
    }
  },
  get(gameId) {
    return this.all()[gameId] || null;
  },
  put(gameId, entry) {
    localStorage.setItem(QUEUE_KEY, JSON.stringify({ ...this.all(), [gameId]: entry }));
  },
  /** Forget the move kept for `gameId` (only `key`'s, when given: a newer one stays). */
  drop(gameId, key = null) {
    const all = this.all();
    if (key && all[gameId] && all[gameId].key !== key) return;
    delete all[gameId];
    localStorage.setItem(QUEUE_KEY, JSON.stringify(all));
  },
};

const sending = new Map();

/**
 * Send the move kept for `gameId`, once: while it is on its way, every caller (the table, the
 * page coming back online) gets the same answer. It goes with the key and version it was tapped
 * with, so a resend after a lost answer gets the first answer, and a move on a table that has
 * moved on since is refused by the version check. Resolves to {sent: view}, {refused: error},
 * or null when there is nothing to send or the server is still out of reach (the move is kept).
 */
export function sendQueued(gameId) {
  if (sending.has(gameId)) return sending.get(gameId);
  const entry = queue.get(gameId);
  if (!entry || navigator.onLine === false) return Promise.resolve(null);
  const attempt = (async () => {
    try {
      const view = await act({ id: gameId, version: entry.expected_version }, entry.action, entry.key);
      queue.drop(gameId, entry.key);
      return { sent: view };
    } catch (error) {
      if (error.code === "network") return null;
      queue.drop(gameId, entry.key);
      return { refused: error };
    } finally {
      sending.delete(gameId);
    }
  })();
  sending.set(gameId, attempt);
  return attempt;
}
