// A rated game's end (issue 35, item 7): the player's rating change ("Rating +14") on the results,
// from the seat's `rating_change` in the game view (written by the ratings app at the match's
// end), with a link to the leaderboard of the game's kind. Nothing for an unrated game, a
// spectator, or a change not written yet.

import { h } from "../dom.js";
import { formatSigned, t } from "../i18n.js";

/** The line for the results screen, or null. */
export function ratingChange(game) {
  const me = game.players.find((p) => p.you);
  if (!game.rated || !me || typeof me.rating_change !== "number") return null;
  const change = me.rating_change;
  const mood = change > 0 ? "up" : change < 0 ? "down" : "";
  return h(
    "p",
    { class: "rating-line", role: "status" },
    t("results.rating_change_words"),
    " ",
    h("span", { class: `change ${mood}` }, formatSigned(change)),
  );
}
