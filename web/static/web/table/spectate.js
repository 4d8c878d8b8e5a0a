// How many watch this game, shown at the table (docs/social.md, "Spectators"): a small line
// under the players' table, from GET games/{id}/spectators/ (live.presence on the server),
// read when the table is first drawn and every 20 seconds while it stays on screen. Nothing is
// shown while nobody watches, or when nobody may (a private game).
//
// `table` is the screen's hub (views/game.js); layout.js puts `watchers()` on the running table.

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

const REFRESH_MS = 20000;

export function createSpectate(table) {
  let count = 0;
  let timer = null;

  async function read() {
    if (!table.screen.isConnected) {
      clearInterval(timer);
      timer = null;
      return;
    }
    if (document.visibilityState !== "visible") return;
    try {
      const answer = await api.get(`games/${table.gameId}/spectators/`);
      const next = answer.spectating === "private" ? 0 : answer.spectators;
      if (next !== count) {
        count = next;
        table.render();
      }
    } catch (_) {
      // the count is a nicety: the table goes on without it
    }
  }

  /** The spectators line for the running table (null while nobody watches). */
  function watchers() {
    if (!timer) {
      timer = setInterval(read, REFRESH_MS);
      read();
    }
    if (!count) return null;
    return h("p", { key: "spectators", class: "spectators muted", role: "status" }, t("watch.watching", { count }));
  }

  return { watchers };
}
