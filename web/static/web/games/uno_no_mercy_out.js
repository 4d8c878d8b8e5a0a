// Knocked out of a one-round No Mercy game (issue 35, item 8): the player need not watch the
// others play it out. Their place is decided the moment they are knocked out (the engine's
// `places`: everyone still in the round and everyone knocked out later finish above them; only a
// player who leaves can fall below), so "Skip to the result" shows it at once, with the way to a
// next game, while the game goes on for the others. Nothing is sent: the seat stays (leaving
// would put it last), and the final standings come on the results screen when the game ends.
// Against the computer alone, "Play again" is there at once (the service lets a player out for
// good ask for the rematch: the same bots and options, dealt); with other people, "New game".
// In a match of rounds a knocked-out player is dealt in again, so there is no skip.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** Whether `table` (a No Mercy view) has my seat knocked out of the only round of the match. */
export function outForGood(game, table) {
  return !game.target_score && (table.knocked_out || []).includes(table.you);
}

/** My place if nobody else leaves: one below every seat still in the round and every seat
 * knocked out after mine (a place that can only rise). */
export function placeWhenOut(table) {
  const out = table.knocked_out || [];
  const inRound = table.seats.filter((s) => s.active).length;
  return 1 + inRound + (out.length - 1 - out.indexOf(table.you));
}

/** Where a skip is remembered: this device, this game. */
function skipKey(gameId) {
  return `uaw.nomercy.skipped.${gameId}`;
}

export function createSkip(ctx) {
  const gameId = () => ctx.game?.id;

  function skipped() {
    return localStorage.getItem(skipKey(gameId())) === "1";
  }

  function setSkipped(on) {
    if (on) localStorage.setItem(skipKey(gameId()), "1");
    else localStorage.removeItem(skipKey(gameId()));
    ctx.render();
    // The new screen's title takes the focus, as a page change would.
    document.querySelector(on ? "#out-title" : "h1")?.focus?.({ preventScroll: false });
  }

  /** The button beside the prompt, for a player out for good who still watches. */
  function button() {
    return h("button", { type: "button", class: "primary wide skip-to-result", onclick: () => setSkipped(true) }, t("nomercy.skip_to_result"));
  }

  /** The result as far as it is decided: my place, the others playing on, and what next. */
  function view(game, table) {
    const humans = game.players.filter((p) => !p.you && !ctx.isBot(p));
    const rematch = () => ctx.lobbyAction("rematch/", { navigateTo: (next) => ctx.navigate(`/games/${next.id}`) });
    const again = humans.length
      ? h("a", { href: "/games/new", "data-link": "", class: "button primary" }, t("games.new"))
      : h("button", { type: "button", class: "primary play-again", disabled: ctx.busy, onclick: rematch }, t("results.rematch"));
    return [
      h(
        "section",
        { class: "panel out-result", "aria-labelledby": "out-title" },
        h("h1", { id: "out-title", tabindex: -1 }, t("nomercy.out_title")),
        h("p", { class: "result-banner", role: "status" }, t("nomercy.out_place", { place: String(placeWhenOut(table)), count: String(table.seats.length) })),
        // "Play again" is here already against the computer: the hint does not promise it later.
        h("p", { class: "hint" }, t(humans.length ? "nomercy.out_goes_on" : "nomercy.out_goes_on_again")),
        ctx.nextGame(),
        h(
          "div",
          { class: "inline actions-end" },
          again,
          h("button", { type: "button", onclick: () => setSkipped(false) }, t("nomercy.out_watch")),
          h("a", { href: "/games", "data-link": "", class: "button" }, t("nav.back_games")),
        ),
      ),
    ];
  }

  return { skipped, button, view };
}
