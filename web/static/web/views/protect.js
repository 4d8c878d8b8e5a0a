// Players protect themselves (issue 21, §5): report a player to the moderators and block one,
// from the table's player list (views/game.js) and from a player's screen (views/player.js).
//
// Both go through the public API: `POST reports/` (`player_id`, `reason` out of REASONS,
// optional `details` and `game_id`: a merged report answers 200) and `POST blocks/` /
// `DELETE blocks/{player_id}/` (a blocked player cannot join my private games, and is not told).

import { api } from "../api.js";
import { h, toast, uid } from "../dom.js";
import { t } from "../i18n.js";
import { describeError, errorBox } from "./forms.js";

/** The reasons the API accepts (openapi.yaml, ReportReasonEnum), in its order. */
export const REASONS = ["offensive_name", "cheating", "stalling", "other"];

let blockedIds = null;

/** The ids of the players I blocked (`GET blocks/`), read once per page load. */
export async function blocked() {
  if (!blockedIds) {
    const rows = await api.get("blocks/");
    blockedIds = new Set(rows.map((row) => row.player_id));
  }
  return blockedIds;
}

export function isBlocked(playerId) {
  return Boolean(blockedIds && blockedIds.has(playerId));
}

/** Block or unblock `player` ({user_id, name}); resolves to whether they are blocked now. */
export async function toggleBlock(player) {
  const ids = await blocked();
  if (ids.has(player.user_id)) {
    await api.del(`blocks/${player.user_id}/`);
    ids.delete(player.user_id);
    toast(t("protect.unblocked", { name: player.name }));
    return false;
  }
  if (!confirm(t("protect.block_confirm", { name: player.name }))) return false;
  await api.post("blocks/", { player_id: player.user_id });
  ids.add(player.user_id);
  toast(t("protect.blocked", { name: player.name }));
  return true;
}

/**
 * The report form for `player` ({user_id, name}) in a modal sheet; `gameId` (optional) is the
 * game the report is about. Resolves to true when a report was sent, false when cancelled.
 */
export function reportPlayer(player, { gameId = null } = {}) {
  return new Promise((resolve) => {
    let sent = false;
    const errors = errorBox();
    const detailsId = uid("report-details");
    const dialog = h("dialog", { class: "sheet report-sheet", "aria-labelledby": "report-title" });
    const onsubmit = async (event) => {
      event.preventDefault();
      const form = new FormData(event.target);
      const reason = form.get("reason");
      if (!reason) {
        errors.show(t("protect.pick_reason"));
        dialog.querySelector("input[name=reason]")?.focus();
        return;
      }
      const body = { player_id: player.user_id, reason, details: String(form.get("details") || "").trim() };
      if (gameId) body.game_id = gameId;
      const button = event.target.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        const report = await api.post("reports/", body);
        sent = true;
        dialog.close();
        toast(report && report.times > 1 ? t("protect.report_merged", { name: player.name }) : t("protect.report_sent"));
      } catch (error) {
        errors.show(...describeError(error));
      } finally {
        button.disabled = false;
      }
    };
    dialog.append(
      h("h2", { id: "report-title" }, t("protect.report_title", { name: player.name })),
      h(
        "form",
        { class: "report-form", onsubmit },
        h(
          "fieldset",
          null,
          h("legend", null, t("protect.reason")),
          REASONS.map((reason) =>
            h("label", { class: "check" }, h("input", { type: "radio", name: "reason", value: reason }), t(`protect.reason_${reason}`)),
          ),
        ),
        h("label", { for: detailsId }, t("protect.details")),
        h("textarea", { id: detailsId, name: "details", rows: 3, maxlength: 2000 }),
        gameId ? h("p", { class: "hint" }, t("protect.game_attached")) : null,
        h("p", { class: "hint" }, t("protect.report_hint")),
        errors.el,
        h(
          "div",
          { class: "inline actions-end" },
          h("button", { type: "button", onclick: () => dialog.close() }, t("common.cancel")),
          h("button", { type: "submit", class: "primary" }, t("protect.send_report")),
        ),
      ),
    );
    dialog.onclose = () => {
      dialog.remove();
      resolve(sent);
    };
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("input[name=reason]")?.focus();
  });
}

/**
 * A row of buttons for one other player: their screen, Report, Block / Unblock. `onChange`
 * runs after a block changed (to redraw the Block button's label), `onReported` after a report.
 */
export function protectButtons(player, { gameId = null, onChange = () => {}, onReported = () => {}, profile = true } = {}) {
  const blockedNow = isBlocked(player.user_id);
  const block = async () => {
    try {
      await toggleBlock(player);
    } catch (error) {
      toast(describeError(error).join(" "), { error: true });
    }
    onChange();
  };
  return h(
    "span",
    { class: "protect" },
    profile ? h("a", { href: `/players/${player.user_id}`, "data-link": "", class: "button small", "aria-label": t("protect.profile_label", { name: player.name }) }, t("protect.profile")) : null,
    h(
      "button",
      { type: "button", class: "small report", "aria-label": t("protect.report_label", { name: player.name }), onclick: () => reportPlayer(player, { gameId }).then((sent) => sent && onReported()) },
      t("protect.report"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "small danger block",
        "aria-label": t(blockedNow ? "protect.unblock_label" : "protect.block_label", { name: player.name }),
        onclick: block,
      },
      t(blockedNow ? "protect.unblock" : "protect.block"),
    ),
  );
}
