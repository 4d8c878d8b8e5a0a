// The renderer for a game kind this client cannot draw (games/index.js): never a blank page.
//
// It says so plainly, and shows what every game's view has in public: the game's name, the
// players, their scores and whose turn it is, the turn clock, the log's frame (the events all
// games share, in words) and "Leave this game". It reads nothing game-specific from `table`
// but the seat whose turn it is and the scores, each only when present.

import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { loadGames } from "../catalog.js";
import { gameName, kindOf } from "./names.js";

export const renderer = {
  kind: null,
  create,
};

/** A seat's score: the table's seats, else its `points`/`scores`, else the player's final score. */
function scoreOf(table, player) {
  const seat = player.seat;
  if (typeof seat === "number") {
    const seats = Array.isArray(table?.seats) ? table.seats : [];
    const found = seats.find((s) => s && s.seat === seat) || seats[seat];
    if (found && typeof found.score === "number") return found.score;
    for (const name of ["scores", "points"]) {
      const value = table?.[name]?.[seat] ?? table?.[name]?.[String(seat)];
      if (typeof value === "number") return value;
    }
  }
  return typeof player.final_score === "number" ? player.final_score : null;
}

/** The seats whose move it is: the table's `current_seat` (or `current_seats`), when given. */
function turnSeats(game) {
  const table = game.table || {};
  if (typeof table.current_seat === "number") return [table.current_seat];
  if (Array.isArray(table.current_seats)) return table.current_seats.filter((s) => typeof s === "number");
  return [];
}

function create(ctx) {
  // The server's name for the game, once its list of games is read.
  loadGames().then(() => ctx.render());

  function table() {
    const game = ctx.game;
    const name = gameName(kindOf(game));
    const turn = new Set(turnSeats(game));
    const me = game.players.find((p) => p.you);
    const mine = Boolean(game.your_turn) || (me && turn.has(me.seat));
    const whose = game.players.filter((p) => turn.has(p.seat)).map((p) => p.name);
    const status = mine ? t("unsupported.your_turn") : whose.length ? t("unsupported.their_turn", { names: whose.join(", ") }) : "";
    const players = [...game.players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
    return [
      h(
        "div",
        { class: "table-head" },
        ctx.turnTimer(),
        ctx.connectionState(),
      ),
      h(
        "section",
        { class: "panel unsupported", "aria-labelledby": "unsupported-title" },
        h("h1", { id: "unsupported-title" }, name),
        h("p", null, t("unsupported.body")),
        h("p", { class: "unsupported-turn", role: "status" }, status),
      ),
      h(
        "table",
        { class: "scores" },
        h("caption", null, t("unsupported.players")),
        h(
          "thead",
          null,
          h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")), h("th", { scope: "col" }, t("unsupported.turn"))),
        ),
        h(
          "tbody",
          null,
          players.map((p) => {
            const score = scoreOf(game.table, p);
            const bot = ctx.botTag(p);
            return h(
              "tr",
              { key: `u${p.seat_id ?? p.seat}`, class: p.you ? "you" : "" },
              h("th", { scope: "row" }, p.name, p.you ? ` (${t("lobby.you")})` : "", p.left ? ` (${t("table.left")})` : "", bot ? ` · ${bot}` : ""),
              h("td", null, score === null ? "–" : formatNumber(score)),
              h("td", null, turn.has(p.seat) ? t("unsupported.to_move") : ""),
            );
          }),
        ),
      ),
      ctx.logView(),
      ctx.leaveRow(),
    ];
  }

  return {
    table,
    describe: () => null,
    actionDone() {},
  };
}
