// The results of a game that is over (the standings, ties and why, the rounds, rematch, replay),
// and a round's result as every game tells it unless its renderer says more (`roundSummary`).

import { h } from "../dom.js";
import { formatList, formatNumber, t } from "../i18n.js";
import { ratingChange } from "./rating_change.js";

/** Each seat's points from round `index` of `results`: its scores less the round before's. */
export function roundGains(results, index) {
  const before = index > 0 ? results[index - 1].scores || [] : [];
  return (results[index].scores || []).map((score, seat) => score - (before[seat] ?? 0));
}

/** What the winner of round `index` scored in it: its hands' points and any bonus of the round. */
export function winnerPoints(results, index) {
  const r = results[index];
  const gain = typeof r.winner === "number" ? roundGains(results, index)[r.winner] : undefined;
  return Math.max(r.points ?? 0, gain ?? 0);
}

/** "Round 2: Bob won 31 points.", or a drawn round (no winner: Gin Rummy's wall) said as one. */
function roundLine(r, nameOf) {
  if (typeof r.winner !== "number") return t("results.round_drawn", { round: r.round });
  return t("results.round_line", { round: r.round, name: nameOf(r.winner), points: formatNumber(r.points) });
}

/** A round's result: who won it and the scores now (a renderer may say more, `roundSummary`). */
export function roundSummary(r, nameOf) {
  return [
    h("p", { class: "result-banner" }, roundLine(r, nameOf)),
    h(
      "table",
      { class: "scores" },
      h("caption", null, t("results.scores_now")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")))),
      h(
        "tbody",
        null,
        (r.scores || []).map((score, seat) => h("tr", null, h("th", { scope: "row" }, nameOf(seat)), h("td", null, formatNumber(score)))),
      ),
    ),
  ];
}

/** Players who share a place: tied on the game's own standing (ratings rank them as one), or
 * who gave up at the same moment. */
function tieGroups(rows) {
  const groups = [];
  for (const p of rows) {
    if (typeof p.place !== "number") continue;
    const last = groups[groups.length - 1];
    if (last && last[0].place === p.place) last.push(p);
    else groups.push([p]);
  }
  return groups.filter((g) => g.length > 1);
}

function standingsTable(rows) {
  const head = h("tr", null, h("th", { scope: "col" }, t("results.place")), h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")));
  const row = (p) =>
    h(
      "tr",
      { key: `r${p.user_id}-${p.seat}`, class: p.you ? "you" : "" },
      h("td", null, p.place ?? "–"),
      h("th", { scope: "row" }, p.name, p.left ? ` (${t("table.left")})` : ""),
      h("td", null, formatNumber(p.final_score ?? 0)),
    );
  return h("table", { class: "scores" }, h("caption", null, t("results.standings")), h("thead", null, head), h("tbody", null, rows.map(row)));
}

function standings(game) {
  const rows = [...game.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
  // Why three players share 2nd place (games/services/play.py, _record_standings).
  return [
    standingsTable(rows),
    tieGroups(rows).map((group) =>
      h(
        "p",
        { class: "standings-tie", key: `tie${group[0].place}` },
        t(group[0].left ? "results.tie_left" : "results.tie", {
          place: String(group[0].place),
          names: formatList(group.map((p) => p.name)),
          points: formatNumber(group[0].final_score ?? 0),
        }),
      ),
    ),
    h("p", { class: "hint standings-why" }, t("results.standings_why")),
  ];
}

/** The rounds of the match, each in the renderer's words when it has its own (`line(r)`). */
function roundList(table, nameOf, line = null) {
  if (!table || !Array.isArray(table.round_results) || !table.round_results.length) return null;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "rounds-title" },
    h("h2", { id: "rounds-title" }, t("results.rounds")),
    h(
      "ol",
      { class: "rounds" },
      table.round_results.map((r, i, all) => h("li", { key: `round${r.round}` }, (line || ((x) => roundLine(x, nameOf)))({ ...r, points: winnerPoints(all, i) }))),
    ),
  );
}

/** The screen of a game that is over, with the screen's log and players panel (layout.js). */
export function resultsView(table, { logView, playersPanel, nextGame }) {
  const { state, app, gameId } = table;
  const game = state.game;
  const me = game.players.find((p) => p.you);
  const winner = game.players.find((p) => p.place === 1);
  const finished = game.status === "finished";
  let title = t(`status.${game.status}`);
  if (finished) title = me && me.place === 1 ? t("results.you_won") : t("results.winner", { name: winner ? winner.name : "?" });
  const rematch = () => table.actions.lobbyAction("rematch/", { navigateTo: (view) => app.navigate(`/games/${view.id}`) });
  return [
    h("h1", null, t("results.title")),
    h("p", { class: "result-banner", role: "status" }, title),
    finished ? ratingChange(game) : null,
    nextGame(),
    standings(game),
    roundList(game.table, state.nameOf, table.view?.roundLine),
    logView(),
    playersPanel(),
    h(
      "div",
      { class: "inline actions-end" },
      finished ? h("button", { type: "button", class: "primary", disabled: state.busy, onclick: rematch }, t("results.rematch")) : null,
      // Every move again, every hand shown (views/replay.js).
      finished ? h("a", { href: `/games/${gameId}/replay`, "data-link": "", class: "button replay-link" }, t("replay.open")) : null,
      h("a", { href: "/games", "data-link": "", class: "button" }, t("nav.back_games")),
    ),
  ];
}
