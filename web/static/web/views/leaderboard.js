// A game's leaderboard (/leaderboards/<kind>): the top 100 by shown rating and my own place,
// also outside the top 100 (GET ratings/leaderboards/<kind>/, docs/ratings.md).

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { loadGames } from "../catalog.js";
import { formatNumber, t } from "../i18n.js";
import { DEFAULT_KIND, gameName } from "../games/names.js";
import { errorBox, showError } from "./forms.js";

export function ratingText(rating, provisional) {
  return provisional ? t("ratings.provisional_rating", { rating: formatNumber(rating) }) : formatNumber(rating);
}

/** One row of a board (this page's, a season's): place, name (to the profile), rating, a line. */
export function boardRow(entry, me, rating, line) {
  return h(
    "li",
    { key: entry.user_id, class: entry.user_id === me ? "board-row me" : "board-row" },
    h("span", { class: "board-place" }, entry.place),
    h("a", { class: "board-name", href: `/players/${entry.user_id}/profile`, "data-link": "" }, entry.name),
    h("span", { class: "board-rating" }, rating),
    h("span", { class: "board-games muted" }, line),
  );
}

function mine(you) {
  if (you.place) return t("board.your_place", { place: you.place, rating: ratingText(you.rating, you.provisional) });
  return t("board.not_listed", { rating: ratingText(you.rating, you.provisional), count: you.rated_games });
}

export function mount(root, [kind], app) {
  kind = kind || DEFAULT_KIND;
  const errors = errorBox();
  const tabs = h("nav", { class: "board-tabs", "aria-label": t("board.games") });
  const body = h("div", { "aria-live": "polite", "aria-busy": "true" });
  root.append(
    h("section", { class: "panel" }, h("h1", null, t("board.title", { game: gameName(kind) })), tabs, errors.el, body),
  );
  document.title = `${t("board.title", { game: gameName(kind) })} · Uno All Wild`;

  (async () => {
    try {
      const [games, board] = await Promise.all([loadGames(), api.get(`ratings/leaderboards/${kind}/`)]);
      patch(
        tabs,
        games.map((g) =>
          h(
            "a",
            { key: g.kind, href: `/leaderboards/${g.kind}`, "data-link": "", "aria-current": g.kind === kind ? "page" : false },
            gameName(g.kind, g.name),
          ),
        ),
      );
      body.setAttribute("aria-busy", "false");
      const me = app.me && app.me.id;
      patch(
        body,
        h("p", { class: "status-line", id: "board-you" }, mine(board.you)),
        board.entries.length
          ? h(
              "ol",
              { class: "board", "aria-label": t("board.top") },
              board.entries.map((e) =>
                boardRow(e, me, ratingText(e.rating, e.provisional), t("board.games_count", { count: e.rated_games })),
              ),
            )
          : h("p", { class: "empty" }, t("board.empty")),
        h("p", { class: "hint" }, t("board.rules"), " ", h("a", { href: `/seasons/${kind}`, "data-link": "", id: "board-season-link" }, t("board.to_season"))),
      );
    } catch (error) {
      body.setAttribute("aria-busy", "false");
      showError(errors, error);
    }
  })();
  return () => {};
}
