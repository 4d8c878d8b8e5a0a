// A player's public profile (/players/<id>/profile): each game's rating with its history drawn
// as a chart, the totals, the current winning streak and the latest rated games
// (GET players/<id>/profile/, docs/ratings.md).

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { formatDateTime, formatNumber, t } from "../i18n.js";
import { gameName } from "../games/names.js";
import { ratingChart } from "./chart.js";
import { errorBox, showError } from "./forms.js";
import { ratingText } from "./leaderboard.js";

function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

function average(place) {
  return place === null ? "–" : place.toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 });
}

function stat(label, value, id) {
  return h("div", { class: "stat", id }, h("dt", null, label), h("dd", null, value));
}

function gameRating(r) {
  const name = gameName(r.game);
  const ratings = r.history.map((p) => p.rating);
  return h(
    "article",
    { key: r.game, class: "game-rating", "aria-labelledby": `rating-${r.game}` },
    h(
      "h3",
      { id: `rating-${r.game}` },
      h("a", { href: `/leaderboards/${r.game}`, "data-link": "" }, name),
      " ",
      h("span", { class: "rating-number" }, ratingText(r.rating, r.provisional)),
      r.provisional ? h("span", { class: "pill" }, t("ratings.provisional")) : null,
    ),
    r.history.length
      ? ratingChart(r.history, {
          label: t("profile.chart", { game: name }),
          description: t("profile.chart_description", {
            count: r.history.length,
            first: ratings[0],
            last: ratings[ratings.length - 1],
            low: Math.min(...ratings),
            high: Math.max(...ratings),
          }),
        })
      : null,
    h(
      "p",
      { class: "muted" },
      t("profile.game_line", { count: r.rated_games, wins: r.wins, place: average(r.average_place) }),
    ),
  );
}

export function mount(root, [id]) {
  const errors = errorBox();
  const body = h("div", { "aria-busy": "true" });
  const title = h("h1", null, t("profile.title"));
  root.append(h("section", { class: "panel" }, title, errors.el, body));

  (async () => {
    try {
      const p = await api.get(`players/${Number(id)}/profile/`);
      title.textContent = p.name;
      document.title = `${p.name} · Uno All Wild`;
      body.setAttribute("aria-busy", "false");
      patch(
        body,
        h(
          "dl",
          { class: "stats" },
          stat(t("profile.rated_games"), formatNumber(p.rated_games), "stat-games"),
          stat(t("profile.wins"), formatNumber(p.wins), "stat-wins"),
          stat(t("profile.average_place"), average(p.average_place), "stat-place"),
          stat(t("profile.streak"), formatNumber(p.streak), "stat-streak"),
        ),
        h("h2", null, t("profile.ratings")),
        p.ratings.length ? p.ratings.map(gameRating) : h("p", { class: "empty" }, t("profile.no_ratings")),
        h("h2", { id: "recent-title" }, t("profile.recent")),
        p.recent_games.length
          ? h(
              "ul",
              { class: "recent-games", "aria-labelledby": "recent-title" },
              p.recent_games.map((g) =>
                h(
                  "li",
                  { key: g.game_id },
                  h("a", { href: `/games/${g.game_id}/replay`, "data-link": "" }, gameName(g.game)),
                  " · ",
                  t("profile.place", { place: g.place }),
                  " · ",
                  h("span", { class: g.change >= 0 ? "change up" : "change down" }, signed(g.change)),
                  h("span", { class: "muted" }, ` · ${formatDateTime(g.finished_at)}`),
                ),
              ),
            )
          : h("p", { class: "empty" }, t("profile.no_games")),
      );
    } catch (error) {
      body.setAttribute("aria-busy", "false");
      showError(errors, error);
    }
  })();
  return () => {};
}
