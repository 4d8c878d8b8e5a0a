// "Next game where it's your turn" (issue 35, item 6; Lichess correspondence has one): after my
// move, and when I open a game where I have nothing to do, the games list (`games/?my_turn=true`,
// the least time left first) is read once and a button leads to the first other game waiting for
// me. Read again only when the turn leaves me, never on every drawing.

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function createNextGame(table) {
  const { state, gameId } = table;
  let next = null;
  let wasMine = null;
  let asked = 0;

  async function look() {
    const mark = (asked += 1);
    try {
      const games = await api.get("games/?status=active&my_turn=true");
      if (mark !== asked) return;
      next = games.find((g) => String(g.id) !== String(gameId)) || null;
    } catch (_) {
      next = null; // offline or refused: no button
    }
    if (table.screen.isConnected) table.render();
  }

  /** After every drawing of a running or finished game: read the list when the turn left me. */
  function update() {
    const game = state.game;
    if (!game || game.status === "lobby") return;
    const mine = Boolean(game.your_turn);
    if (!mine && wasMine !== false) look();
    if (mine) next = null;
    wasMine = mine;
  }

  /** The button, or null while no other game waits for me. */
  function button() {
    if (!next || state.game?.your_turn) return null;
    // Short on the table (it sits beside the prompt), said whole to a screen reader.
    const label = t("table.next_game");
    return h("a", { href: `/games/${next.id}`, "data-link": "", class: "button next-game", key: `next-${next.id}`, "aria-label": label }, t("table.next_game_short"));
  }

  return { update, button };
}
