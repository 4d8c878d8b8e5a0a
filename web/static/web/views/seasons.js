// A game's monthly season board (/seasons/<kind>/<YYYY-MM>): the players who won the most rated
// games of it that month (UTC), ties broken by the rating at the month's end; this month's by
// default, and last months' stay readable (GET ratings/seasons/<kind>/<YYYY-MM>/,
// docs/ratings.md, "Seasons").

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { loadGames } from "../catalog.js";
import { formatNumber, language, t } from "../i18n.js";
import { DEFAULT_KIND, gameName } from "../games/names.js";
import { errorBox, showError } from "./forms.js";
import { boardRow } from "./leaderboard.js";

// The months the page offers a link to, this one included: the API reads any back to 2000-01.
const MONTHS_LISTED = 6;

function thisMonth() {
  const now = new Date();
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

function parseMonth(text) {
  const match = /^(\d{4})-(\d{2})$/.exec(text || "");
  return match ? { year: Number(match[1]), month: Number(match[2]) } : null;
}

function monthKey({ year, month }) {
  return `${year}-${String(month).padStart(2, "0")}`;
}

function addMonths({ year, month }, count) {
  const index = year * 12 + (month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** "December 2026", "december 2026". */
function monthName({ year, month }) {
  const locale = language() === "da" ? "da-DK" : "en-GB";
  const date = new Date(Date.UTC(year, month - 1, 1));
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

function seasonPath(kind, month) {
  return `/seasons/${kind}/${monthKey(month)}`;
}

function months(kind, shown) {
  const now = thisMonth();
  const links = [];
  for (let back = 0; back < MONTHS_LISTED; back += 1) links.push(addMonths(now, -back));
  return links.map((m) =>
    h(
      "a",
      { key: monthKey(m), href: seasonPath(kind, m), "data-link": "", "aria-current": monthKey(m) === monthKey(shown) ? "page" : false },
      monthName(m),
    ),
  );
}

function entries(board, me) {
  if (!board.entries.length) return h("p", { class: "empty" }, t("season.empty"));
  return h(
    "ol",
    { class: "board season", "aria-label": t("season.top") },
    board.entries.map((e) => boardRow(e, me, formatNumber(e.rating), t("season.wins", { count: e.wins }))),
  );
}

export function mount(root, [kind, month], app) {
  kind = kind || DEFAULT_KIND;
  const shown = parseMonth(month) || thisMonth();
  const title = t("season.title", { game: gameName(kind), month: monthName(shown) });
  const errors = errorBox();
  const tabs = h("nav", { class: "board-tabs", "aria-label": t("board.games") });
  const monthNav = h("nav", { class: "board-tabs season-months", "aria-label": t("season.months") }, months(kind, shown));
  const body = h("div", { "aria-live": "polite", "aria-busy": "true" });
  root.append(
    h(
      "section",
      { class: "panel" },
      h("h1", null, title),
      tabs,
      monthNav,
      errors.el,
      body,
      h("p", { class: "hint" }, t("season.rules"), " ", h("a", { href: `/leaderboards/${kind}`, "data-link": "", id: "season-board-link" }, t("season.to_board"))),
    ),
  );
  document.title = `${title} · Uno All Wild`;

  (async () => {
    try {
      const [games, board] = await Promise.all([loadGames(), api.get(`ratings/seasons/${kind}/${monthKey(shown)}/`)]);
      patch(
        tabs,
        games.map((g) =>
          h("a", { key: g.kind, href: seasonPath(g.kind, shown), "data-link": "", "aria-current": g.kind === kind ? "page" : false }, gameName(g.kind, g.name)),
        ),
      );
      body.setAttribute("aria-busy", "false");
      patch(body, entries(board, app.me && app.me.id));
    } catch (error) {
      body.setAttribute("aria-busy", "false");
      showError(errors, error);
    }
  })();
  return () => {};
}
