// What happens on screen after a move (docs/web-client.md, "The table's modules"): the moves in
// words (the game's renderer first, then the events every game shares), the news box and "since
// your last turn" told to me, cards that joined my hand arriving with a motion, the round's end
// in a dialog, and where the keyboard goes after my action.
//
// `table` is the screen's hub (views/game.js): its `state`, `screen`, `roundDialog`, the
// renderer's `view` and `render()`.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { describeCommon, eventLines } from "../views/words.js";
import { roundSummary } from "./results.js";
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

export function createEffects(table) {
  const { state, screen, roundDialog } = table;
  const seenKey = `uaw.rounds.${state.gameId}`;
  // The hand's keys at the last drawing (markArrivals).
  let handKeys = null;

  // ---- the moves in words ---------------------------------------------------------------------

  /** One event as a sentence: the game's renderer first, then the events all games share. */
  const describe = (event) => table.view?.describe(event) ?? describeCommon(event, state.nameOf);

  /** A move's events as sentences, one line per event (views/words.js). */
  const moveLines = (move, describeOne = describe) => eventLines(move.events, move.version, describeOne);

  /** One event told to me: my seat is "you" ("Bob swapped hands with you."), and after a change
   * to my hand in the newest move, how many cards I hold now. */
  function personal(event, move, me) {
    const game = state.game;
    let text;
    if (event.type === "skipped" && event.seat === me) text = t("news.you_skipped");
    else if (event.type === "loses_turn" && event.seat === me) text = t("news.you_lose_turns", { count: event.count ?? 1 });
    else {
      state.tellingTo = me;
      try {
        text = describe(event);
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
    if (HAND_CHANGES.has(event.type) && move.version === game?.version && typeof hand === "number") {
      text = `${text} ${t("news.you_hold", { count: hand })}`;
    }
    return text;
  }

  /** Lines of moves for the table: mine only where something was done to me. */
  function newsLines(moves) {
    const me = state.mySeat();
    const lines = [];
    for (const move of moves) {
      // My own move is news only where it changed my hand without my choosing (a penalty, a swap).
      const own = move.seat === me;
      const told = (e) => !own || e.type === "swap" || e.type === "hands_passed" || (e.type === "draw" && e.reason !== "voluntary");
      const say = (e) => (!told(e) ? null : touchesMe(e, me) ? personal(e, move, me) : describe(e));
      for (const line of moveLines(move, say)) lines.push({ ...line, mine: touchesMe(line.event, me) });
    }
    return lines;
  }

  // ---- the news box and "since your last turn" -------------------------------------------------

  function awayView() {
    const lines = newsLines(state.away);
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
  function newsView() {
    if (state.away) return awayView();
    const lines = newsLines(state.news).slice(-NEWS_LINES);
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

  /** Cards that joined my hand since the last drawing arrive with a motion (style.css). */
  function markArrivals() {
    const before = handKeys;
    const items = [...screen.querySelectorAll(".hand > li")];
    // Picking cards (double down, mercy) shows each card where play shows groups: a new set of
    // keys, not cards that arrived.
    const picking = Boolean(screen.querySelector(".hand.picking"));
    const keys = new Set(items.map((li) => li.dataset.key));
    if (before && before.picking === picking) for (const li of items) if (!before.has(li.dataset.key)) li.classList.add("arrived");
    handKeys = Object.assign(keys, { picking });
  }

  /** A round that ended since this device last showed one: its result in a dialog, once. */
  function maybeShowRound() {
    const game = state.game;
    const tbl = game.table;
    // Shown once the game's renderer is there (it may tell the round in its own words).
    if (!tbl || !table.view || game.status !== "active" || !Array.isArray(tbl.round_results)) return;
    const count = tbl.round_results.length;
    const seen = Number(localStorage.getItem(seenKey) || "0");
    if (count <= seen || roundDialog.open) return;
    const r = tbl.round_results[count - 1];
    localStorage.setItem(seenKey, String(count));
    const view = table.view;
    roundDialog.replaceChildren(
      h("h2", { id: "round-title" }, t("results.round_title", { round: r.round })),
      ...(view.roundSummary ? view.roundSummary(r) : roundSummary(r, state.nameOf)),
      h("button", { type: "button", class: "primary wide", onclick: () => roundDialog.close() }, t("results.next_round")),
    );
    roundDialog.showModal();
    roundDialog.querySelector("button")?.focus();
  }

  /** After my action: the keyboard stays where it was, else goes where the renderer says. */
  function focusAfterAction() {
    if (screen.contains(document.activeElement)) return;
    const selector = table.view?.focusAfterAction;
    const next = (selector && screen.querySelector(selector)) || screen.querySelector("h1");
    next?.focus({ preventScroll: true });
  }

  return { moveLines, newsView, markArrivals, maybeShowRound, focusAfterAction };
}
