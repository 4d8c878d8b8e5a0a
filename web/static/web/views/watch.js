// Spectator mode (/games/<id>/watch): a game watched without a seat (docs/social.md,
// "Spectators"). It shows what the server sends a spectator and nothing else: the players with
// their hand sizes and scores, the top of the discard pile, whose turn, the moves as they come
// (GET games/{id}/watch/ and its stream, through GameLive with `watching`), how many watch,
// and, with a delay, that the game is shown that many moves behind. No hand, no actions. Under
// it, the spectators' chat (table/chat.js, `channel: "spectators"`), carried by the same stream;
// never the players' chat.

import { h, patch } from "../dom.js";
import { t } from "../i18n.js";
import { gameName } from "../games/names.js";
import { GameLive } from "../live.js";
import { createChat } from "../table/chat.js";
import { describeError } from "./forms.js";

function cardText(card) {
  if (!card) return t("watch.no_card");
  const words = [card.colour, card.rank || card.type, card.suit].filter(Boolean).join(" ") || card.id;
  return words.replace(/[_-]/g, " ");
}

function seatRows(game) {
  const rows = game.table?.seats || [];
  return rows.map((row) => {
    const player = game.players.find((p) => p.seat === row.seat);
    const turn = game.table.current_seat === row.seat && game.status === "active";
    return h(
      "li",
      { key: `s${row.seat}`, class: turn ? "watch-seat watch-turn" : "watch-seat", "aria-current": turn ? "true" : false },
      h("span", { class: "player-name" }, player ? player.name : String(row.seat)),
      h("span", { class: "muted" }, [t("watch.cards", { count: row.hand_size }), t("watch.score", { score: row.score })].join(" · ")),
    );
  });
}

export function mount(root, [gameId], app) {
  const screen = h("section", { class: "panel watch-screen" });
  const state = { game: null, moves: 0, error: null };
  root.append(screen);

  const render = () => {
    const game = state.game;
    if (!game) {
      patch(screen, h("h1", null, t("watch.title_game")), state.error ? h("p", { role: "alert" }, state.error) : h("p", { class: "boot" }, t("game.loading")), h("p", null, h("a", { href: "/watch", "data-link": "" }, t("watch.back"))));
      return;
    }
    const table = game.table;
    patch(
      screen,
      h("h1", null, t("watch.title_game")),
      h("p", { class: "muted" }, [gameName(game.game), t("watch.watching", { count: game.spectators })].join(" · ")),
      game.spectator_delay && game.status === "active" ? h("p", { class: "hint watch-delay" }, t("watch.delayed", { count: game.spectator_delay })) : null,
      game.status === "finished" ? h("p", { class: "hint" }, t("watch.finished")) : null,
      table ? h("ul", { class: "watch-seats", "aria-label": t("watch.players") }, seatRows(game)) : h("p", { class: "muted" }, t("watch.no_table")),
      table ? h("p", { class: "watch-discard" }, t("watch.discard", { card: cardText(table.discard_top) })) : null,
      h("p", { class: "muted", role: "status" }, t("watch.moves", { count: state.moves })),
      h("p", null, h("a", { href: "/watch", "data-link": "" }, t("watch.back"))),
    );
  };

  // The chat's hub: what table/chat.js reads of a table.
  const hub = { gameId, screen, chat: null, live: null };
  const live = new GameLive(gameId, {
    watching: true,
    chat: () => (hub.chat ? hub.chat.after() : null),
    onChat: (data) => hub.chat && hub.chat.take(data),
    onView: (next) => {
      state.game = next;
      render();
    },
    onMoves: (moves) => {
      state.moves += moves.length;
      render();
    },
  });
  // The first read says why watching is refused (friends only, a player's own game).
  live
    .refresh()
    .then(() => {
      // The moves seen from here on (the view already shows those before).
      if (state.game) live.cursor = state.game.version;
      live.start();
      if (screen.isConnected) hub.chat = createChat(hub, { channel: "spectators" });
    })
    .catch((error) => {
      if (error.code === "seated_not_spectator") app.navigate(`/games/${gameId}`, { replace: true });
      state.error = describeError(error).join(" ") || t("game.not_found");
      render();
    });
  hub.live = live;
  render();
  return () => {
    live.stop();
    if (hub.chat) hub.chat.stop();
  };
}
