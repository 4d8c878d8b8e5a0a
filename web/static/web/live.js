// Keeping a game on screen current (docs/api.md, "Stay current").
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

export class GameLive {
  /**
   * onView(game): a newer view of the game. onMoves(moves): moves after the cursor, in order.
   * onState(state): "live", "reconnecting" or "offline", for the connection indicator.
   */
  constructor(gameId, { onView, onMoves = () => {}, onState = () => {}, cursor = 0 }) {
    this.gameId = gameId;
    this.onView = onView;
    this.onMoves = onMoves;
    this.onState = onState;
    this.cursor = cursor;
    this.version = -1;
    this.etag = null;
    this.mode = "stream";
    this.stopped = false;
    this.loopAbort = null;
    this.failures = 0;
    this.lastByte = Date.now();
    this.wake = () => this.restart();
    this.offline = () => {
      this.pause();
      this.onState("offline");
    };
    this.visibility = () => {
      if (document.visibilityState === "visible") this.restart();
      else this.pause();
    };
    document.addEventListener("visibilitychange", this.visibility);
    window.addEventListener("online", this.wake);
    window.addEventListener("offline", this.offline);
    window.addEventListener("pageshow", this.wake);
    document.addEventListener("resume", this.wake); // a frozen (sleeping) page thawed
    this.watchdog = setInterval(() => {
      if (this.loopAbort && Date.now() - this.lastByte > QUIET_LIMIT_MS) this.restart();
    }, 5000);
  }

  /** The view on screen is this one (after an action answered with it). */
  seen(game) {
    if (game.version > this.version) this.version = game.version;
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
    clearInterval(this.watchdog);
    document.removeEventListener("visibilitychange", this.visibility);
    window.removeEventListener("online", this.wake);
    window.removeEventListener("offline", this.offline);
    window.removeEventListener("pageshow", this.wake);
    document.removeEventListener("resume", this.wake);
  }

  /** Fetch the view if it changed (If-None-Match: unchanged costs a 304 and nothing else). */
  async refresh(signal) {
    const headers = this.etag ? { "If-None-Match": this.etag } : {};
    const response = await request(`games/${this.gameId}/`, { raw: true, signal, headers });
    this.lastByte = Date.now();
    if (response.status === 304) return null;
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      const error = new Error((data && data.error && data.error.message) || response.statusText);
      error.status = response.status;
      throw error;
    }
    this.etag = response.headers.get("ETag");
    const game = await response.json();
    if (game.version >= this.version) {
      this.version = game.version;
      this.onView(game);
    }
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
    const response = await fetch(`${BASE}games/${this.gameId}/stream/?after=${this.cursor}`, {
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
        this.mode = "longpoll";
        return;
      }
      const error = new Error(`stream: ${response.status}`);
      error.status = response.status >= 500 ? 0 : response.status;
      throw error;
    }
    this.onState("live");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      this.lastByte = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        await this.handleEvent(block, signal);
      }
    }
  }

  async handleEvent(block, signal) {
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
    if (!data.length) return;
    const payload = JSON.parse(data.join("\n"));
    if (event === "version") {
      if (payload.moves && payload.moves.length) this.takeMoves(payload.moves);
      if (payload.version > this.version) await this.refresh(signal);
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
