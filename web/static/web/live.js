// Keeping a game on screen current (docs/api.md, "Stay current"), and the account's events while
// the inbox is open (AccountLive, below).
//
// While a game is open the client reads the Server-Sent Events stream `games/{id}/stream/` with
// fetch() (EventSource cannot send an Authorization header). Each `version` event newer than
// the view on screen makes it fetch the view again (`games/{id}/` with If-None-Match), so moves by
// others appear within about a second. Its moves feed the game log.
//
// If the stream is not there, it long-polls `games/{id}/events/?after=N&wait=25`, and if that
// answers at once it polls the view every two seconds. Whatever it uses, it starts over when the
// page becomes visible again, the network comes back, or nothing (not even a keep-alive) arrived
// for 40 seconds: after a phone slept, the view is fetched fresh and the stream resumes from the
// last move it saw.

import { BASE, auth, request } from "./api.js";

const QUIET_LIMIT_MS = 40000;
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** One Server-Sent Event's block of lines: {event, payload}, or null when it carries no data. */
function parseEvent(block) {
  let event = "message";
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { event, payload: JSON.parse(data.join("\n")) } : null;
}

/**
 * The events of a Server-Sent Events response read with fetch(): `onEvent(event, payload)` for
 * each, in order, each awaited before the next; `onBytes()` for every chunk, keep-alives too.
 * Returns when the server ends the stream.
 */
async function readEvents(response, onBytes, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const parsed = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      if (parsed) await onEvent(parsed.event, parsed.payload);
    }
  }
}

/**
 * A loop of requests kept running while the page is visible: `start`, `pause` (aborts the request
 * in flight), `restart` (a page shown again, the network back), `stop` for good. A subclass gives
 * `loop(signal)` and, with `listen`, the page events that pause or restart it.
 */
class LiveLoop {
  constructor() {
    this.stopped = false;
    this.loopAbort = null;
    this.failures = 0;
    this.listeners = [];
  }

  /** [[target, event, handler], …]: added now, removed by `stop`. */
  listen(listeners) {
    this.listeners = listeners;
    for (const [target, name, fn] of listeners) target.addEventListener(name, fn);
  }

  start() {
    if (this.stopped || this.loopAbort) return;
    const controller = new AbortController();
    this.loopAbort = controller;
    this.loop(controller.signal).finally(() => {
      if (this.loopAbort === controller) this.loopAbort = null;
    });
  }

  pause() {
    if (this.loopAbort) this.loopAbort.abort();
    this.loopAbort = null;
  }

  restart() {
    if (this.stopped || document.visibilityState === "hidden") return;
    this.pause();
    this.failures = 0;
    this.start();
  }

  stop() {
    this.stopped = true;
    this.pause();
    for (const [target, name, fn] of this.listeners) target.removeEventListener(name, fn);
  }
}

/**
 * The account's events while a screen shows them (the inbox): the account event stream
 * `games/live/stream/` (docs/api.md, "Account event stream"), each event (a notification row,
 * or a stream-only kind) given to `onEvent(event)`. It resumes from the last id it saw after a
 * drop, the server's hourly end, the phone sleeping or the network coming back; with no `after`
 * it starts with what happens from now on. Stops for good when the server refuses the token.
 */
export class AccountLive extends LiveLoop {
  constructor({ after = null, onEvent }) {
    super();
    this.after = after;
    this.onEvent = onEvent;
    const visibility = () => (document.visibilityState === "visible" ? this.restart() : this.pause());
    this.listen([
      [document, "visibilitychange", visibility],
      [window, "online", () => this.restart()],
    ]);
  }

  async loop(signal) {
    while (!signal.aborted && !this.stopped) {
      const opened = Date.now();
      try {
        await this.read(signal);
        // A stream that ends at once (a proxy closing it) must not become a busy loop.
        if (Date.now() - opened < 1000) await sleep(2000, signal);
      } catch (error) {
        if (signal.aborted) return;
        if (error.status === 401 || error.status === 403) return this.stop();
        this.failures += 1;
        await sleep(Math.min(30000, 1000 * 2 ** Math.min(this.failures, 5)), signal);
      }
    }
  }

  async read(signal) {
    const after = this.after === null ? "" : `&after=${this.after}`;
    const response = await fetch(`${BASE}games/live/stream/?format=sse${after}`, {
      headers: { Accept: "text/event-stream", Authorization: `Bearer ${auth.token}` },
      cache: "no-store",
      credentials: "omit",
      signal,
    });
    if (!response.ok) {
      const error = new Error(`account stream: ${response.status}`);
      error.status = response.status;
      throw error;
    }
    this.failures = 0;
    await readEvents(response, () => {}, (event, payload) => {
      if (event === "end") {
        if (payload.reason === "authentication_failed") this.stop();
        return;
      }
      if (typeof payload.id === "number") this.after = Math.max(this.after ?? 0, payload.id);
      this.onEvent(payload);
    });
  }
}

export class GameLive extends LiveLoop {
  /**
   * onView(game): a newer view of the game. onMoves(moves): moves after the cursor, in order.
   * onState(state): "live", "reconnecting" or "offline", for the connection indicator.
   * chat(): the chat's cursor (null: no chat on the stream); onChat(data): a `chat` event's data.
   */
  constructor(gameId, { onView, onMoves = () => {}, onState = () => {}, cursor = 0, watching = false, chat = () => null, onChat = () => {} }) {
    super();
    this.gameId = gameId;
    this.chat = chat;
    this.onChat = onChat;
    // A spectator (views/watch.js) reads the spectator's view and stream, and polls without one.
    this.paths = watching ? { view: "watch/", stream: "watch/stream/", events: null } : { view: "", stream: "stream/", events: "events/" };
    this.onView = onView;
    this.onMoves = onMoves;
    this.onState = onState;
    this.cursor = cursor;
    this.version = -1;
    this.etag = null;
    this.mode = "stream";
    this.lastByte = Date.now();
    const wake = () => this.restart();
    const offline = () => {
      this.pause();
      this.onState("offline");
    };
    const visibility = () => {
      if (document.visibilityState === "visible") this.restart();
      else this.pause();
    };
    this.listen([
      [document, "visibilitychange", visibility],
      [window, "online", wake],
      [window, "offline", offline],
      [window, "pageshow", wake],
      [document, "resume", wake], // a frozen (sleeping) page thawed
    ]);
    this.watchdog = setInterval(() => {
      if (this.loopAbort && Date.now() - this.lastByte > QUIET_LIMIT_MS) this.restart();
    }, 5000);
  }

  /** The view on screen is this one (after an action answered with it). */
  seen(game) {
    if (game.version > this.version) this.version = game.version;
  }

  stop() {
    super.stop();
    clearInterval(this.watchdog);
  }

  /** Fetch the view if it changed (If-None-Match: unchanged costs a 304 and nothing else). */
  async refresh(signal) {
    const headers = this.etag ? { "If-None-Match": this.etag } : {};
    const response = await request(`games/${this.gameId}/${this.paths.view}`, { raw: true, signal, headers });
    this.lastByte = Date.now();
    if (response.status === 304) return null;
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      const error = new Error((data && data.error && data.error.message) || response.statusText);
      error.status = response.status;
      error.code = data && data.error && data.error.code;
      throw error;
    }
    const game = await response.json();
    if (game.version >= this.version) {
      this.version = game.version;
      this.onView(game);
    }
    // Kept only once the view is shown: a restart (the chat's first page, the network back) can
    // abort the body's read, and an ETag kept from an unread body would make every later fetch a
    // 304 with the view never shown.
    this.etag = response.headers.get("ETag");
    if (response.headers.has("X-Cached-At")) {
      // The service worker's kept copy (offline): shown, but the connection is still down.
      this.etag = null;
      const error = new Error("offline");
      error.status = 0;
      throw error;
    }
    return game;
  }

  async loop(signal) {
    while (!signal.aborted && !this.stopped) {
      try {
        const game = await this.refresh(signal);
        this.onState("live");
        if (game && ["finished", "aborted", "expired"].includes(game.status)) {
          await this.catchUp(signal);
          return;
        }
        if (this.mode === "stream") await this.stream(signal);
        else if (this.mode === "longpoll") await this.longPoll(signal);
        else await sleep(2000, signal);
        this.failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        if (error.status === 404 || error.status === 401) {
          this.onState("offline");
          return;
        }
        this.failures += 1;
        this.onState(navigator.onLine === false ? "offline" : "reconnecting");
        await sleep(Math.min(15000, 1000 * 2 ** Math.min(this.failures - 1, 4)), signal);
      }
    }
  }

  async catchUp(signal) {
    if (!this.paths.events) return;
    const response = await request(`games/${this.gameId}/events/?after=${this.cursor}&limit=200`, {
      signal,
    });
    if (response.moves.length) this.takeMoves(response.moves);
  }

  takeMoves(moves) {
    const fresh = moves.filter((m) => m.version > this.cursor);
    if (!fresh.length) return;
    this.cursor = fresh[fresh.length - 1].version;
    this.onMoves(fresh);
  }

  async stream(signal) {
    const chat = this.chat();
    const chatAfter = chat === null ? "" : `&chat_after=${chat}`;
    const response = await fetch(`${BASE}games/${this.gameId}/${this.paths.stream}?after=${this.cursor}${chatAfter}`, {
      headers: { Accept: "text/event-stream", Authorization: `Bearer ${auth.token}` },
      cache: "no-store",
      credentials: "omit",
      signal,
    });
    if (response.status === 204) return;
    const type = response.headers.get("Content-Type") || "";
    if (!response.ok || !type.startsWith("text/event-stream")) {
      if (response.status === 404 || response.status === 405 || response.ok) {
        // No stream on this server (the game itself answered just now): long-poll instead.
        this.mode = this.paths.events ? "longpoll" : "poll";
        return;
      }
      const error = new Error(`stream: ${response.status}`);
      error.status = response.status >= 500 ? 0 : response.status;
      throw error;
    }
    this.onState("live");
    await readEvents(response, () => (this.lastByte = Date.now()), (event, payload) => this.handleEvent(event, payload, signal));
  }

  async handleEvent(event, payload, signal) {
    if (event === "version") {
      if (payload.moves && payload.moves.length) this.takeMoves(payload.moves);
      if (payload.version > this.version) await this.refresh(signal);
    } else if (event === "chat") {
      this.onChat(payload);
    } else if (event === "end") {
      await this.refresh(signal);
    }
  }

  async longPoll(signal) {
    const started = Date.now();
    const page = await request(`games/${this.gameId}/events/?after=${this.cursor}&wait=25`, {
      signal,
    });
    this.lastByte = Date.now();
    if (page.moves.length) {
      this.takeMoves(page.moves);
    } else if (Date.now() - started < 1000) {
      // The server answered at once: it does not wait. Poll the view instead.
      this.mode = "poll";
    }
  }
}
