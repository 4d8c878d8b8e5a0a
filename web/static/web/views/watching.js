// Public games being played now (/watch), per game: a spectator picks one to watch
// (docs/social.md, "Spectators"). From GET games/playing/?game=<kind>; each row opens
// /games/<id>/watch. Players blocked either way, and my own games, are not listed.

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { loadGames } from "../catalog.js";
import { formatList, t } from "../i18n.js";
import { gameName } from "../games/names.js";
import { errorBox, select, showError } from "./forms.js";

const REFRESH_MS = 20000;

export function mount(root, params, app) {
  const errors = errorBox();
  const body = h("div", { "aria-live": "polite", "aria-busy": "true" });
  const state = { games: [], rows: [], kind: "" };
  let timer = null;

  const row = (game) =>
    h(
      "li",
      { key: game.id, class: "friend watch-row" },
      h(
        "div",
        null,
        h("strong", null, formatList(game.players)),
        h("div", { class: "muted" }, [gameName(game.game), game.rated ? t("pairing.rated") : t("pairing.casual"), t("watch.watching", { count: game.spectators })].join(" · ")),
      ),
      h("a", { href: `/games/${game.id}/watch`, "data-link": "", class: "button" }, t("watch.open")),
    );

  const draw = () => {
    const kinds = [["", t("watch.every_game")], ...state.games.map((g) => [g.kind, gameName(g.kind, g.name)])];
    patch(
      body,
      select("game", t("pairing.game"), kinds, state.kind, {
        id: "watch-game",
        onchange: (e) => {
          state.kind = e.target.value;
          load();
        },
      }),
      state.rows.length ? h("ul", { class: "friends watch-list" }, state.rows.map(row)) : h("p", { class: "muted" }, t("watch.none")),
    );
    body.setAttribute("aria-busy", "false");
  };

  async function load() {
    try {
      state.rows = await api.get(state.kind ? `games/playing/?game=${encodeURIComponent(state.kind)}` : "games/playing/");
      errors.clear();
      draw();
    } catch (error) {
      showError(errors, error);
    }
  }

  patch(root, h("section", { class: "panel" }, h("h1", null, t("watch.title")), h("p", { class: "hint" }, t("watch.intro")), errors.el, body));
  loadGames()
    .then((games) => {
      state.games = games;
    })
    .catch(() => {})
    .finally(load);
  timer = setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
  return () => clearInterval(timer);
}
