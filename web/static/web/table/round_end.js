// The end of a round as an event (issue 35, item 3): a dialog, once per round on this device,
// with the winner, the other hands shown with what they cost, the standings with what this
// round changed, then the next round or, when the match is over, the result behind it.
//
// What a round changed is the difference of the scores after it and after the round before, so
// No Mercy's knockout bonuses count where they were earned ("Alan won 500 points" beside 500,
// never "won 0 points": the hands of players knocked out are empty). The last round of a match
// is shown too, when this screen saw the game running (a game opened long after it ended opens
// on its results, not on a dialog).
//
// `table` is the screen's hub (views/game.js): its `state`, `roundDialog` and the renderer's
// `view` (which may tell a round in its own words: `roundSummary(r, gains)`).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { roundGains, roundSummary, winnerPoints } from "./results.js";

export function createRoundEnd(table) {
  const { state, roundDialog } = table;
  const seenKey = `uaw.rounds.${state.gameId}`;
  let sawRunning = false;

  function content(results, over) {
    const index = results.length - 1;
    const r = { ...results[index], points: winnerPoints(results, index) };
    const gains = roundGains(results, index);
    const view = table.view;
    const summary = view?.roundSummary ? view.roundSummary(r, gains) : roundSummary(r, state.nameOf);
    // Emptied once closed: the results behind it have their own banner and scores.
    const close = () => {
      roundDialog.close();
      roundDialog.replaceChildren();
    };
    return [
      h("h2", { id: "round-title", tabindex: -1 }, over ? t("results.match_over_title", { round: r.round }) : t("results.round_title", { round: r.round })),
      ...summary,
      h("div", { class: "round-buttons" }, h("button", { type: "button", class: "primary wide", onclick: close }, over ? t("results.see_result") : t("results.next_round"))),
    ];
  }

  /** After every drawing: a round that ended since this device last showed one, in a dialog. */
  function maybeShow() {
    const game = state.game;
    const tbl = game?.table;
    if (!tbl || !table.view || !Array.isArray(tbl.round_results)) return;
    if (game.status === "active") sawRunning = true;
    else if (game.status !== "finished" || !sawRunning) return;
    const count = tbl.round_results.length;
    const seen = Number(localStorage.getItem(seenKey) || "0");
    if (!count || count <= seen || roundDialog.open) return;
    localStorage.setItem(seenKey, String(count));
    roundDialog.replaceChildren(...content(tbl.round_results, game.status === "finished"));
    roundDialog.showModal();
    // Opened at its title, not scrolled down to its button: the title says what happened.
    roundDialog.scrollTop = 0;
    roundDialog.querySelector("#round-title")?.focus({ preventScroll: true });
  }

  return { maybeShow };
}
