// A player's screen (/players/<id>): who they are to me, and Report / Block (views/protect.js).
//
// The API has no public profile: what is shown is what I may already read: the games we share
// (GET games/), whether I blocked them (GET blocks/) and my reports about them (GET reports/).
// Their name comes from whichever of these knows them.

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { formatDateTime, t } from "../i18n.js";
import { errorBox, showError } from "./forms.js";
import { blocked, isBlocked, protectButtons } from "./protect.js";

function opponentsLine(game, playerId) {
  const others = game.players.filter((p) => !p.you && p.user_id !== playerId).map((p) => p.name);
  return others.length ? t("player.game_with_others", { names: others.join(", ") }) : t("player.game_two");
}

/** The games we share, each a link to the game. */
function sharedGames(shared, playerId) {
  return [
    h("h2", { id: "shared-title" }, t("player.shared_games")),
    shared.length
      ? h(
          "ul",
          { class: "games", "aria-labelledby": "shared-title" },
          shared.map((g) =>
            h("li", { key: g.id }, h("a", { href: `/games/${g.id}`, "data-link": "" }, opponentsLine(g, playerId)), " · ", t(`status.${g.status}`)),
          ),
        )
      : h("p", { class: "muted" }, t("player.no_shared_games")),
  ];
}

/** My reports about them: the reasons, when, and how each stands. */
function myReports(reports) {
  if (!reports.length) return [];
  return [
    h("h2", null, t("player.my_reports")),
    h(
      "ul",
      { class: "reports" },
      reports.map((r) =>
        h(
          "li",
          { key: `r${r.id}` },
          t("player.report_line", {
            reasons: (r.reasons && r.reasons.length ? r.reasons : [r.reason]).map((x) => t(`protect.reason_${x}`)).join(", "),
            date: formatDateTime(r.created_at),
            status: t(`player.report_${r.status}`),
          }),
        ),
      ),
    ),
  ];
}

export function mount(root, [id], app) {
  const playerId = Number(id);
  const errors = errorBox();
  const body = h("div", { class: "player-body", "aria-busy": "true" });
  let games = [];
  let reports = [];
  let name = null;

  const draw = () => {
    const me = app.me && app.me.id === playerId;
    const player = { user_id: playerId, name: name || t("player.unknown", { id: playerId }) };
    const title = root.querySelector("h1");
    if (title.textContent !== player.name) {
      title.textContent = player.name;
      document.title = `${player.name} · Uno All Wild`;
    }
    const shared = games.filter((g) => g.players.some((p) => p.user_id === playerId));
    body.setAttribute("aria-busy", "false");
    patch(
      body,
      me ? h("p", { class: "muted" }, t("player.you")) : null,
      !me && isBlocked(playerId) ? h("p", { class: "status-line", role: "status" }, t("player.blocked", { name: player.name })) : null,
      !me ? protectButtons(player, { profile: false, onChange: draw, onReported: reloadReports }) : null,
      ...sharedGames(shared, playerId),
      ...myReports(reports),
    );
  };

  async function reloadReports() {
    try {
      reports = (await api.get("reports/")).filter((r) => r.player_id === playerId);
      draw();
    } catch (_) {
      // the list stays as it was
    }
  }

  root.append(h("section", { class: "panel" }, h("h1", null, t("player.title")), errors.el, body));

  (async () => {
    try {
      const [gameList, mine] = await Promise.all([api.get("games/"), api.get("reports/"), blocked()]);
      games = gameList;
      reports = mine.filter((r) => r.player_id === playerId);
      const seat = games.flatMap((g) => g.players).find((p) => p.user_id === playerId);
      name = seat?.name || reports[0]?.player_name || null;
      if (!name) {
        const rows = await api.get("blocks/");
        name = rows.find((row) => row.player_id === playerId)?.player_name || null;
      }
      errors.clear();
      draw();
    } catch (error) {
      showError(errors, error);
    }
  })();
  return () => {};
}
