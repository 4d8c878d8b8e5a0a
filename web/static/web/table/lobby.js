// The lobby while seats fill: the game's settings, the players and free seats, the host's bots,
// the invite link, start and leave (docs/web-client.md, "New game / lobby / join").

import { h, toast } from "../dom.js";
import { formatDuration, formatNumber, t } from "../i18n.js";
import { OPTIONS } from "../options.js";
import { DEFAULT_KIND, gameName, kindOf, presetName, ruleName } from "../games/names.js";
import { botLevels, select } from "../views/forms.js";
import { isBot } from "./state.js";

/** "Uno Splash · Standard · Target 500 · 1 day per turn · Stacking". */
function settingsLine(game) {
  const parts = [
    presetName(game.preset),
    game.target_score ? t("game.target", { points: formatNumber(game.target_score) }) : t("game.one_round"),
    game.options?.speed_mode && game.speed_seconds
      ? t("game.speed_limit", { time: formatDuration(game.speed_seconds) })
      : t("game.turn_limit", { time: formatDuration(game.turn_seconds) }),
  ];
  // A game other than All Wild says which it is (All Wild's lobby reads as it always has).
  const gameKind = kindOf(game);
  if (gameKind !== DEFAULT_KIND) parts.unshift(gameName(gameKind));
  const rules = Object.entries(game.options || {}).filter(([, on]) => on).map(([rule]) => ruleName(rule));
  if (rules.length) parts.push(rules.join(", "));
  return parts.join(" · ");
}

/** The invite link with copy and share, or null for a game without one. */
function inviteSection(table, game) {
  const link = game.invite_code ? `${location.origin}/join/${game.invite_code}` : null;
  if (!link) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("lobby.copied"));
    } catch (_) {
      table.screen.querySelector("#invite-link")?.select();
    }
  };
  const name = gameName(kindOf(game));
  const share = () => navigator.share({ title: name, text: t("lobby.share_text", { game: name }), url: link }).catch(() => {});
  return h(
    "section",
    { class: "panel", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t("lobby.invite")),
    h("label", { for: "invite-link" }, t("lobby.invite_hint")),
    h("input", { id: "invite-link", readonly: true, value: link, class: "invite-link", onclick: (e) => e.target.select() }),
    h(
      "div",
      { class: "inline" },
      h("button", { type: "button", onclick: copy }, t("lobby.copy")),
      "share" in navigator ? h("button", { type: "button", onclick: share }, t("lobby.share")) : null,
    ),
  );
}

/** A seat of the lobby: the host may remove a bot. */
function playerRow(table, game, p, host) {
  const removeBot = () => table.actions.lobbyAction(`bots/${p.seat_id}/`, { method: "del", focus: "#bot-level" });
  return h(
    "li",
    { key: `p${p.seat_id}` },
    h("span", { class: "player-name" }, p.name),
    p.user_id !== null && p.user_id === game.host_id ? h("span", { class: "pill" }, t("lobby.host")) : null,
    p.you ? h("span", { class: "pill pill-turn" }, t("lobby.you")) : null,
    isBot(p) ? h("span", { class: "pill" }, t("bot.pill", { level: t(`bot.level_${p.bot_level}`) })) : null,
    host && isBot(p)
      ? h(
          "button",
          { type: "button", class: "remove-bot", disabled: table.state.busy, "aria-label": t("lobby.remove_bot_label", { name: p.name }), onclick: removeBot },
          t("lobby.remove_bot"),
        )
      : null,
  );
}

export function createLobby(table) {
  const { state } = table;
  const lobbyAction = (...args) => table.actions.lobbyAction(...args);
  let botLevel = OPTIONS.default_bot_level;

  function addBotForm() {
    const submit = (event) => {
      event.preventDefault();
      const level = new FormData(event.target).get("level");
      lobbyAction("bots/", { body: { level }, focus: "#bot-level" });
    };
    const pick = (event) => {
      botLevel = event.target.value;
    };
    return h(
      "form",
      { class: "inline add-bot", onsubmit: submit },
      select("level", t("newgame.bot_level"), botLevels(), botLevel, { id: "bot-level", onchange: pick }),
      h("button", { type: "submit", disabled: state.busy }, t("lobby.add_bot")),
    );
  }

  function playersSection(game, host) {
    const freeSeats = [];
    for (let n = game.players.length; n < game.max_players; n += 1) freeSeats.push(n);
    return h(
      "section",
      { class: "panel", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, t("lobby.players", { count: game.players.length, max: game.max_players })),
      h(
        "ul",
        { class: "players" },
        game.players.map((p) => playerRow(table, game, p, host)),
        freeSeats.map((n) => h("li", { key: `free${n}`, class: "free" }, t("lobby.free_seat"))),
      ),
      host && freeSeats.length ? addBotForm() : null,
      h("p", { class: "muted", "aria-live": "polite" }, host ? t("lobby.waiting_host") : t("lobby.waiting")),
    );
  }

  /** The lobby; `playersPanel` is the screen's report-and-block list (layout.js). */
  return function lobbyView({ playersPanel }) {
    const game = state.game;
    const me = game.players.find((p) => p.you);
    const host = me && me.user_id === game.host_id;
    const leave = () => confirm(t("lobby.leave_confirm")) && lobbyAction("leave/", { navigateTo: () => table.app.navigate("/games") });
    return [
      h("h1", null, t("lobby.title")),
      h("p", { class: "muted" }, settingsLine(game)),
      playersSection(game, host),
      // Someone joined by the invite link I would rather not play with: report or block them here.
      playersPanel(),
      inviteSection(table, game),
      h(
        "div",
        { class: "inline actions-end" },
        host
          ? h("button", { type: "button", class: "primary", disabled: state.busy || game.players.length < 2, onclick: () => lobbyAction("start/") }, t("lobby.start"))
          : null,
        h("button", { type: "button", class: "danger", disabled: state.busy, onclick: leave }, t("lobby.leave")),
      ),
    ];
  };
}
