// The table's data and its updates (docs/web-client.md, "The table's modules"): the game view on
// screen, its log, the news of the last moves, "since you were away", the connection, the move
// kept offline, and who is who at the table. Nothing here draws: a change calls `changed()` (the
// screen's render) where it happens after an await, and the callers render otherwise.

import { api, queue } from "../api.js";
import { t } from "../i18n.js";

const LOG_LIMIT = 60;
// The moves the table's news line keeps, and how long the table waits for "since you were away".
export const NEWS_MOVES = 3;
const AWAY_WAIT_MS = 2000;
// How far back the log is read when a game opens (its page size, and the moves before the view).
const LOG_BACK = 40;
const LOG_PAGE = 50;
// My name's stand-in while a sentence is told to me (a character no name or string contains).
export const YOU = "\u2063you\u2063";

// A bot's own seat (no person); a person's seat a bot plays for now is `taken_over`.
export const isBot = (p) => Boolean(p && p.bot_level && !p.taken_over);

/** "Bot · hard" on a bot's seat, "Bot plays" on a person's seat a bot took over. */
export function botTag(p) {
  if (!p || !p.bot_level) return "";
  return p.taken_over ? t("table.taken_over") : t("bot.pill", { level: t(`bot.level_${p.bot_level}`) });
}

/** Moves `kept` and `fresh` as one log in version order, at most LOG_LIMIT of the newest. */
const joined = (kept, fresh) => [...kept, ...fresh].slice(-LOG_LIMIT);

/**
 * One open game's data. `changed()` is called after an update that arrives on its own (a log
 * page, the end of the wait for "since you were away").
 */
export function createState(gameId, { changed }) {
  const state = {
    gameId,
    game: null,
    // The game could not be loaded (not found, or offline with no copy on this device).
    failure: null,
    busy: false,
    log: [],
    logLoaded: false,
    // What happened lately, said on the table (effects.js, newsView): the last moves that arrived.
    news: [],
    // "Since you were away": the others' moves since my last one, read once when the game opens;
    // the table waits for it (at most AWAY_WAIT_MS) so the summary is in the first drawing, not a
    // box that appears and pushes the table down. `awayState`: unchecked, loading, done.
    away: null,
    awayState: "unchecked",
    connection: "live",
    // A move tapped offline, waiting for the connection (api.js, `queue`).
    queued: queue.get(gameId),
    flushing: false,
    // While a sentence is told to me (effects.js, personal), my seat is "you".
    tellingTo: null,

    mySeat() {
      const table = state.game?.table;
      if (table && typeof table.you === "number") return table.you;
      return typeof state.game?.your_seat === "number" ? state.game.your_seat : null;
    },

    player: (seat) => state.game.players.find((p) => p.seat === seat),

    nameOf(seat) {
      if (seat === state.tellingTo && seat !== null) return YOU;
      return state.player(seat)?.name ?? t("table.seat_n", { n: seat + 1 });
    },

    /** Moves that arrived live: new ones join the log, and the news once the table is open. */
    addMoves(moves) {
      const known = new Set(state.log.map((m) => m.version));
      const fresh = moves.filter((m) => !known.has(m.version));
      state.log = joined(state.log, fresh);
      if (state.awayState === "done" && fresh.length) state.news = [...state.news, ...fresh].slice(-NEWS_MOVES);
    },

    /** The recent log, once (a finished game, or the log opened before "away" read it). */
    loadLog: (version, live) => loadLog(state, changed, version, live),

    /** Once, when the game is first shown running: the moves since my last one, from the log. */
    checkAway: (version, live) => checkAway(state, changed, version, live),
  };
  return state;
}

const readLog = (gameId, version) => api.get(`games/${gameId}/events/?after=${Math.max(0, version - LOG_BACK)}&limit=${LOG_PAGE}`);

async function loadLog(state, changed, version, live) {
  if (state.logLoaded) return;
  state.logLoaded = true;
  try {
    const page = await readLog(state.gameId, version);
    state.log = joined(page.moves, state.log.filter((m) => m.version > page.next_after));
    if (page.next_after > live.cursor) live.cursor = page.next_after;
    changed();
  } catch (_) {
    state.logLoaded = false;
  }
}

/** The table waits for the summary at most AWAY_WAIT_MS, then is drawn without it. */
async function checkAway(state, changed, version, live) {
  state.awayState = "loading";
  const timer = setTimeout(() => {
    if (state.awayState === "loading") {
      state.awayState = "done";
      changed();
    }
  }, AWAY_WAIT_MS);
  try {
    const page = await readLog(state.gameId, version);
    if (state.awayState === "loading") state.away = sinceMyLast(page.moves, state.mySeat());
    const known = new Set(page.moves.map((m) => m.version));
    state.log = joined(page.moves, state.log.filter((m) => !known.has(m.version) && m.version > page.next_after));
    state.logLoaded = true;
    if (page.next_after > live.cursor) live.cursor = page.next_after;
  } catch (_) {
    // No log (offline, a slow server): the table is drawn without the summary.
  }
  clearTimeout(timer);
  // The news box starts with the last moves, so the table never opens on an empty box.
  if (state.awayState === "loading") state.news = state.log.slice(-NEWS_MOVES);
  state.awayState = "done";
  changed();
}

/** The moves after my last one, when someone else moved since (else null). */
function sinceMyLast(moves, me) {
  let last = -1;
  moves.forEach((m, i) => {
    if (m.seat === me) last = i;
  });
  const others = moves.slice(last + 1).filter((m) => m.seat !== me && typeof m.seat === "number");
  return others.length ? moves.slice(last + 1) : null;
}
