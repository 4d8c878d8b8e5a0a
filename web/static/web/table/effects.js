// What happens on screen after a move (docs/web-client.md, "The table's modules"): the moves in
// words (the game's renderer first, then the events every game shares), the news box and "since
// your last turn" told to me, cards that joined my hand arriving with a motion, the round's end
// in a dialog (round_end.js), and where the keyboard goes after my action.
//
// `table` is the screen's hub (views/game.js): its `state`, `screen`, `roundDialog`, the
// renderer's `view` and `render()`.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { describeCommon, eventLines } from "../views/words.js";
import { createRoundEnd } from "./round_end.js";
import { YOU } from "./state.js";

const NEWS_LINES = 3;
const AWAY_LINES = 6;
// Events after which "You now hold N cards" is worth saying.
const HAND_CHANGES = new Set(["swap", "hands_passed", "draw"]);

/** An event of someone else's move (or a draw forced on me) that changes my hand or my turn. */
function touchesMe(event, me) {
  if (me === null) return false;
  if (event.type === "hands_passed") return true;
  return event.seat === me || event.target === me;
}

/** A short hash of the news box's words: any change of them draws all its lines anew. */
function wordsHash(lines) {
  let said = 0;
  for (const ch of lines.map((l) => l.text).join("\n")) said = (said * 31 + ch.charCodeAt(0)) | 0;
  return (said >>> 0).toString(36);
}

/** The screen's effects, bound to `table` (what views/game.js keeps as `table.effects`). The hub's
 * `state` and `screen` are fixed when the screen is mounted, so each function reads them from it. */
export function createEffects(table) {
  const roundEnd = createRoundEnd(table);
  // The hand's keys at the last drawing (markArrivals).
  const arrivals = { handKeys: null };
  return {
    moveLines: (move, describeOne) => moveLines(table, move, describeOne),
    sayAction: (action) => sayAction(table, action),
    newsView: () => newsView(table),
    fitNews: () => fitNews(table),
    markArrivals: () => markArrivals(table, arrivals),
    maybeShowRound: roundEnd.maybeShow,
    focusAfterAction: () => focusAfterAction(table),
  };
}

// ---- the moves in words ---------------------------------------------------------------------

/** One event as a sentence: the game's renderer first, then the events all games share. */
const describe = (table, event) => table.view?.describe(event) ?? describeCommon(event, table.state.nameOf);

/** A move's events as sentences, one line per event (views/words.js). */
const moveLines = (table, move, describeOne = (event) => describe(table, event)) =>
  eventLines(move.events, move.version, describeOne);

/** One event told to me: my seat is "you" ("Bob swapped hands with you."), and after a change
 * to my hand in the newest move, how many cards I hold now. */
function personal(table, event, move, me) {
  const { state } = table;
  const game = state.game;
  let text;
  if (event.type === "skipped" && event.seat === me) text = t("news.you_skipped");
  else if (event.type === "loses_turn" && event.seat === me) text = t("news.you_lose_turns", { count: event.count ?? 1 });
  else {
    state.tellingTo = me;
    try {
      text = describe(table, event);
    } finally {
      state.tellingTo = null;
    }
    // "You" as the one who acts, "you" (Danish "dig") as the one it is done to.
    if (text) {
      text = text.startsWith(YOU) ? t("news.you") + text.slice(YOU.length) : text;
      text = text.split(YOU).join(t("news.you_object"));
    }
  }
  if (!text) return null;
  const hand = game?.table?.seats?.[me]?.hand_size ?? game?.table?.hand?.length;
  // A player out of the round (No Mercy's 25 cards) holds nothing because they are out: the
  // count would read as if they had emptied their hand.
  const out = (game?.table?.knocked_out || []).includes(me);
  if (HAND_CHANGES.has(event.type) && move.version === game?.version && typeof hand === "number" && !out) {
    text = `${text} ${t("news.you_hold", { count: hand })}`;
  }
  return text;
}

/** A move kept offline in words ("you played Red 7."), from the event it would make, or null
 * when the game has no sentence for it (table/actions.js, the queued move's notice). */
function sayAction(table, action) {
  const { state } = table;
  const me = state.mySeat();
  if (!action || me === null) return null;
  let text = null;
  try {
    text = personal(table, { count: 1, reason: "voluntary", ...action, seat: me }, { version: -1 }, me);
  } catch (_) {
    return null; // an action whose event needs more than the action says (a card drawn)
  }
  return text ? text.charAt(0).toLocaleLowerCase() + text.slice(1) : null;
}

/** Lines of moves for the table: mine only where something was done to me. */
function newsLines(table, moves) {
  const { state } = table;
  const me = state.mySeat();
  const lines = [];
  for (const move of moves) {
    // My own move is news only where it changed my hand without my choosing (a penalty, a swap).
    const own = move.seat === me;
    const quiet = table.view?.quietInNews;
    const told = (e) =>
      !quiet?.has(e.type) && (!own || e.type === "swap" || e.type === "hands_passed" || (e.type === "draw" && e.reason !== "voluntary"));
    const say = (e) => (!told(e) ? null : touchesMe(e, me) ? personal(table, e, move, me) : describe(table, e));
    for (const line of moveLines(table, move, say)) lines.push({ ...line, mine: touchesMe(line.event, me) });
  }
  return lines;
}

// ---- the news box and "since your last turn" -------------------------------------------------

function awayView(table) {
  const { state, screen } = table;
  const lines = newsLines(table, state.away);
  const shown = lines.slice(-AWAY_LINES);
  const ok = () => {
    state.away = null;
    table.render();
    screen.querySelector(".news")?.focus({ preventScroll: true });
  };
  return h(
    "section",
    { class: "away", key: "away", "aria-labelledby": "away-title" },
    h("h2", { id: "away-title" }, t("news.away_title")),
    h("ul", null, shown.map((l) => h("li", { key: l.key, class: l.mine ? "mine" : "" }, l.text))),
    lines.length > shown.length ? h("p", { class: "muted" }, t("news.away_more", { count: lines.length - shown.length })) : null,
    h("button", { type: "button", class: "away-ok", onclick: ok }, t("news.away_ok")),
  );
}

/** The news on the table (a fixed box: the newest lines last, what touches me marked), or the
 * summary of what happened since my last move until it is put away. */
function newsView(table) {
  const { state } = table;
  if (state.away) return awayView(table);
  const lines = newsLines(table, state.news).slice(-NEWS_LINES);
  const newest = lines.length ? `${lines[lines.length - 1].key}.${wordsHash(lines)}` : "";
  const newestMove = newest.split("-")[0];
  return h(
    "div",
    { class: "news", key: "news", role: "status", tabindex: -1, "aria-label": t("news.label") },
    // Keyed by what the box says too: every update draws new lines, so the older ones moving up
    // inside the fixed box are not layout shifts; only the newest move's lines slide in.
    lines.length
      ? lines.map((l) => h("p", { key: `${l.key}@${newest}`, class: `${l.mine ? "mine" : ""} ${l.key.split("-")[0] === newestMove ? "fresh" : ""}` }, l.text))
      : h("p", { key: "none" }, t("news.none")),
  );
}

// ---- after a drawing ------------------------------------------------------------------------

/** Cards that joined my hand since the last drawing arrive with a motion (css/hands.css, `card-in`). */
function markArrivals({ screen }, arrivals) {
  const before = arrivals.handKeys;
  const items = [...screen.querySelectorAll(".hand > li")];
  // Picking cards (double down, mercy) shows each card where play shows groups: a new set of
  // keys, not cards that arrived.
  const picking = Boolean(screen.querySelector(".hand.picking"));
  const keys = new Set(items.map((li) => li.dataset.key));
  if (before && before.picking === picking) for (const li of items) if (!before.has(li.dataset.key)) li.classList.add("arrived");
  arrivals.handKeys = Object.assign(keys, { picking });
}

/** The news box shows whole sentences only (issue 35, item 4): a sentence that wraps would be cut
 * at the top of the fixed box, so the oldest lines go (hidden) while the box overflows. The next
 * drawing puts them back (the attribute is not in it) and fits again. */
function fitNews({ screen }) {
  const box = screen.querySelector(".news");
  if (!box) return;
  for (const line of [...box.querySelectorAll("p")].slice(0, -1)) {
    if (box.scrollHeight <= box.clientHeight + 1) break;
    line.hidden = true;
  }
}

/** After my action: the keyboard stays where it was, else goes where the renderer says, else to
 * the hand's title (its new count; Tab goes on to the cards), never back to the page's top. */
function focusAfterAction(table) {
  const { screen } = table;
  if (screen.contains(document.activeElement)) return;
  const selector = table.view?.focusAfterAction;
  const next = (selector && screen.querySelector(selector)) || screen.querySelector("#hand-title") || screen.querySelector("h1");
  next?.focus({ preventScroll: true });
}

