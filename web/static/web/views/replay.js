// A finished game, move by move: its record (GET games/{id}/record/, docs/records.md) stepped
// forward and back, every hand shown (the game is over: nothing is hidden any more), each move's
// events in the words of the game's log (the renderer's `describe`, then views/words.js).
//
// The record holds the table after every move, so this page needs no rules: it only draws.

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { gameName, rendererFor } from "../games/index.js";
import { describeCommon, eventLines } from "./words.js";

/** An event as a moderator sees it (games/engine/events.py): its secret part shown. */
function revealed(event) {
  const { secret, to, ...rest } = event;
  return secret && typeof secret === "object" ? { ...rest, ...secret } : rest;
}

/** The screen's context (table/plugin.js) for a renderer used only to tell events:
 * there is no seat of mine, nothing to send and no table to draw. */
function wordsContext(screen, nameOf) {
  const nothing = () => null;
  return {
    game: null,
    busy: false,
    connection: "live",
    screen,
    render: nothing,
    send: nothing,
    lobbyAction: nothing,
    pickSeat: async () => null,
    player: nothing,
    nameOf,
    isBot: () => false,
    botTag: () => "",
    turnTimer: nothing,
    connectionState: nothing,
    helpButton: nothing,
    logView: nothing,
    newsView: nothing,
    leaveRow: nothing,
  };
}

// A replay's state is one object `r`: the game's id, the screen, the record once read (or why it
// could not be), the step shown, the renderer and its words, `nameOf(seat)` and `go(step)`.

function controls(r) {
  const last = r.record.moves.length - 1;
  const button = (cls, label, symbol, target, disabled) =>
    h("button", { type: "button", class: `replay-step ${cls}`, "aria-label": label, title: label, disabled, onclick: () => r.go(target) }, symbol);
  return h(
    "nav",
    { class: "replay-controls", "aria-label": t("replay.controls") },
    button("replay-first", t("replay.first"), "|◀", 0, r.step === 0),
    button("replay-back", t("replay.back"), "◀", r.step - 1, r.step === 0),
    button("replay-forward", t("replay.forward"), "▶", r.step + 1, r.step === last),
    button("replay-last", t("replay.last"), "▶|", last, r.step === last),
  );
}

function whoMoved(r, move) {
  if (r.step === 0) return t("replay.deal");
  return typeof move.seat === "number" ? t("replay.by", { name: r.nameOf(move.seat) }) : t("replay.by_service");
}

function eventsView(r, move) {
  const describe = (event) => {
    const shown = revealed(event);
    return r.words?.describe(shown) ?? describeCommon(shown, r.nameOf);
  };
  const lines = eventLines(move.events, move.number, describe);
  return h(
    "section",
    { class: "panel replay-events", "aria-labelledby": "replay-events-title" },
    h("h2", { id: "replay-events-title" }, t("replay.what_happened")),
    lines.length ? h("ul", null, lines.map((l) => h("li", { key: l.key }, l.text))) : h("p", { class: "muted" }, t("replay.nothing_said")),
  );
}

function face(r, id) {
  return r.renderer?.cardFace ? r.renderer.cardFace(id) : h("span", { class: "replay-chip" }, id);
}

function pilesView(r, position) {
  const { draw, discard } = position.piles || {};
  return h(
    "p",
    { class: "replay-piles" },
    discard && discard.top ? h("span", { class: "replay-top" }, face(r, discard.top)) : null,
    h("span", null, discard && discard.top ? t("replay.discard_top", { count: discard.size }) : t("replay.discard_empty")),
    draw ? h("span", null, t("replay.draw_size", { count: draw.size })) : null,
  );
}

function handsView(r, position) {
  const { nameOf } = r;
  return h(
    "section",
    { class: "replay-hands", "aria-labelledby": "replay-hands-title" },
    h("h2", { id: "replay-hands-title" }, t("replay.hands")),
    position.hands.map((hand, seat) =>
      h(
        "div",
        { key: `seat${seat}`, class: `replay-seat ${position.to_move === seat ? "to-move" : ""}`, "data-seat": seat },
        h(
          "h3",
          null,
          nameOf(seat),
          h("span", { class: "muted" }, ` · ${t("table.cards", { count: hand.length })} · ${t("replay.points", { points: formatNumber(position.scores[seat] ?? 0) })}`),
          position.to_move === seat ? h("span", { class: "pill pill-turn" }, t("replay.to_move")) : null,
        ),
        h("ul", { class: "replay-hand", "aria-label": t("replay.hand_of", { name: nameOf(seat) }) }, hand.map((id, i) => h("li", { key: `${id}.${i}` }, face(r, id)))),
      ),
    ),
  );
}

function render(r) {
  const { screen, record, failure, gameId } = r;
  if (!screen.isConnected) return;
  if (!record) {
    patch(
      screen,
      h("h1", null, failure ? failure : t("game.loading")),
      failure ? h("p", null, h("a", { href: `/games/${gameId}`, "data-link": "" }, t("replay.back_to_game"))) : null,
    );
    return;
  }
  const move = record.moves[r.step];
  const winner = record.players.find((p) => p.place === 1);
  patch(
    screen,
    h("h1", null, t("replay.title", { game: gameName(record.game.kind) })),
    winner ? h("p", { class: "muted" }, t("results.winner", { name: winner.name })) : null,
    controls(r),
    h("p", { class: "replay-where", role: "status" }, t("replay.step", { n: r.step + 1, total: record.moves.length }), " · ", whoMoved(r, move)),
    eventsView(r, move),
    pilesView(r, move.position),
    handsView(r, move.position),
    h("p", null, h("a", { href: `/games/${gameId}`, "data-link": "", class: "button" }, t("replay.back_to_game"))),
  );
}

export function mount(root, [gameId]) {
  const screen = h("div", { class: "replay-screen" });
  root.append(screen);
  const r = { gameId, screen, record: null, failure: null, step: 0, renderer: null, words: null };
  r.nameOf = (seat) => r.record?.players.find((p) => p.seat === seat)?.name ?? t("table.seat_n", { n: seat + 1 });
  r.go = (next) => {
    if (!r.record) return;
    const bounded = Math.max(0, Math.min(r.record.moves.length - 1, next));
    if (bounded === r.step) return;
    r.step = bounded;
    render(r);
  };

  // ← and → step too, unless a form field has the keyboard.
  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.("input, select, textarea")) return;
    if (event.key === "ArrowLeft") r.go(r.step - 1);
    else if (event.key === "ArrowRight") r.go(r.step + 1);
  }
  document.addEventListener("keydown", onKey);

  (async () => {
    try {
      const loaded = await api.get(`games/${gameId}/record/`);
      r.renderer = await rendererFor(loaded.game.kind);
      r.record = loaded;
      r.words = r.renderer.create(wordsContext(screen, r.nameOf));
    } catch (error) {
      r.failure = error.code === "game_not_finished" ? t("replay.not_finished") : t("game.not_found");
    }
    render(r);
  })();
  render(r);

  return () => document.removeEventListener("keydown", onKey);
}
