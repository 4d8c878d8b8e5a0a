// A new game: with people (POST games/, a lobby with an invite link where the host may also
// seat bots) or against the computer (POST games/vs-computer/, dealt at once).
//
// First the game (one entry per game of GET games/options/, read by catalog.js; no choice to
// make when there is only one): its presets, house rules, player counts and target score are
// what the form then offers. The time limit, bot levels and speed mode's seconds are the
// service's, from options.js. The chosen kind is sent as `game`, except All Wild's, which is
// what a request without one means (so the form works with a server before game kinds too).

import { api } from "../api.js";
import { h, uid } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { loadGames } from "../catalog.js";
import { DEFAULT_KIND, gameName, isSupported, presetName, ruleHint, ruleName } from "../games/index.js";
import { OPTIONS, TIME_LIMIT_KEYS } from "../options.js";
import { botLevels, errorBox, select, showError } from "./forms.js";

/**
 * The lengths offered for `target` ({min, max, default}): "One round" (a target of 0) when the
 * game allows it, then matches to half, once and twice the game's default, as [value, words].
 * A bare number field left players to learn from its hint that 0 meant one round.
 */
function lengths(target) {
  const base = target.default > 0 ? target.default : 500;
  const points = [base / 2, base, base * 2].map((n) => Math.round(n / 10) * 10 || n);
  const matches = [...new Set(points)].filter((n) => n > 0 && n >= target.min && n <= target.max);
  const out = matches.map((n) => [n, t("newgame.match_to", { points: formatNumber(n) })]);
  return target.min <= 0 ? [[0, t("newgame.one_round")], ...out] : out;
}

/** A house rule's description for `kind`: its own words for that game (Splash has no Targeted
 * Draw 2 or Force Swap: `rule.<kind>.<name>_hint`), else All Wild's or the server's (names.js). */
function hintFor(kind, rule) {
  const own = `rule.${kind}.${rule.name}_hint`;
  const text = t(own);
  if (text !== own) return text;
  return kind === DEFAULT_KIND ? ruleHint(rule.name, rule.description) : rule.description || ruleHint(rule.name, "");
}

export function mount(root, params, app) {
  const errors = errorBox();
  const body = h("div", { class: "newgame-body" }, h("p", { class: "boot" }, t("newgame.loading")));
  root.append(h("section", { class: "panel narrow" }, h("h1", null, t("newgame.title")), errors.el, body));
  let gone = false;
  loadGames().then((games) => {
    if (!gone) body.replaceChildren(form(games, errors, app));
  });
  return () => {
    gone = true;
  };
}

/** The form for `games` (at least one; the first is the one chosen at first). */
function form(games, errors, app) {
  // What the form's pieces share: the mode and game chosen, and the parts redrawn when they change.
  const my = {
    games,
    errors,
    app,
    // Against the computer when opened as /games/new?vs=computer (the "Play the computer" link).
    mode: new URLSearchParams(location.search).get("vs") === "computer" ? "computer" : "people",
    chosen: games[0],
    // ---- what follows the chosen game: redrawn when another game is picked ----------------------
    seatsSlot: h("div", { class: "slot" }),
    botsSlot: h("div", { class: "slot" }),
    presetSlot: h("div", { class: "slot" }),
    targetSlot: h("div", { class: "slot" }),
    rulesSlot: h("div", { class: "slot" }),
    gameHint: h("p", { class: "hint", id: "game-hint" }, ""),
  };
  const gamePicker = gamePick(my);
  modeGroups(my);
  my.submit = h("button", { type: "submit", class: "primary wide" }, "");
  const el = h(
    "form",
    { onsubmit: (event) => submitForm(my, event) },
    gamePicker,
    h("fieldset", { class: "field" }, h("legend", null, t("newgame.play_with")), modeChoice(my, "people", t("newgame.with_people")), modeChoice(my, "computer", t("newgame.with_computer"))),
    my.peopleGroup,
    my.computerGroup,
    my.presetSlot,
    select(
      "turn_seconds",
      t("newgame.time_limit"),
      OPTIONS.turn_seconds.map((s) => [s, t(TIME_LIMIT_KEYS[s])]),
      OPTIONS.default_turn_seconds,
    ),
    my.targetSlot,
    my.rulesSlot,
    my.submit,
  );
  drawGame(my);
  showSupport(my);
  showMode(my);
  return el;
}

/** Sends the form: POST games/ (with people) or games/vs-computer/, then opens the game. */
async function submitForm(my, event) {
  event.preventDefault();
  const el = event.target;
  const data = new FormData(el);
  const options = {};
  for (const rule of my.chosen.house_rules) if (data.get(`rule_${rule.name}`)) options[rule.name] = true;
  const common = {
    turn_seconds: Number(data.get("turn_seconds")),
    target_score: Number(data.get("target_score")),
    options,
  };
  // A server before game kinds knows only All Wild, and a request without `game` is All Wild.
  if (my.chosen.kind !== DEFAULT_KIND) common.game = my.chosen.kind;
  if (data.get("preset")) common.preset = data.get("preset");
  if (options.speed_mode) common.speed_seconds = Number(data.get("speed_seconds"));
  const computer = my.mode === "computer";
  const request = computer
    ? { ...common, bots: Number(data.get("bots")), level: data.get("level") }
    : { ...common, max_players: Number(data.get("max_players")), visibility: data.get("visibility") };
  const button = el.querySelector("button[type=submit]");
  button.disabled = true;
  my.errors.clear();
  try {
    const game = await api.post(computer ? "games/vs-computer/" : "games/", request);
    my.app.navigate(`/games/${game.id}`);
  } catch (error) {
    showError(my.errors, error, el);
    button.disabled = false;
  }
}

/** Speed mode's seconds: shown (and sent) only while speed mode is ticked. */
function speedField() {
  const id = uid("speed");
  return h(
    "div",
    { class: "field speed-seconds", hidden: true },
    h("label", { for: id }, t("newgame.speed_seconds")),
    h("input", {
      id,
      name: "speed_seconds",
      type: "number",
      min: OPTIONS.speed_seconds.min,
      max: OPTIONS.speed_seconds.max,
      step: 1,
      value: String(OPTIONS.speed_seconds.default),
      inputmode: "numeric",
      disabled: true,
      "aria-describedby": `${id}-hint`,
    }),
    h("p", { class: "hint", id: `${id}-hint` }, t("newgame.speed_seconds_hint", { min: OPTIONS.speed_seconds.min, max: OPTIONS.speed_seconds.max })),
  );
}

/** One house rule of game `kind`: its checkbox, named, with the description a player can read. */
function houseRule(kind, rule) {
  const id = uid(`rule-${rule.name}`);
  const speed = rule.name === "speed_mode" ? speedField() : null;
  const hint = hintFor(kind, rule);
  return h(
    "div",
    { class: "rule" },
    h(
      "label",
      { class: "choice", for: id },
      h("input", {
        id,
        type: "checkbox",
        name: `rule_${rule.name}`,
        value: "1",
        "aria-describedby": hint ? `${id}-hint` : null,
        onchange: speed
          ? (event) => {
              speed.hidden = !event.target.checked;
              speed.querySelector("input").disabled = !event.target.checked;
            }
          : null,
      }),
      ruleName(rule.name),
    ),
    hint ? h("p", { class: "hint rule-hint", id: `${id}-hint` }, hint) : null,
    speed,
  );
}

/** Fills the slots that follow the chosen game: seats, bots, preset, target and house rules. */
function drawGame(my) {
  const game = my.chosen;
  const seats = [];
  for (let n = game.seats.min; n <= game.seats.max; n += 1) seats.push([n, t("newgame.seats_n", { count: n })]);
  // Fewest seats first: an invite to a friend fills the game, which then starts by itself;
  // four seats (the server's default) left the host waiting on "1 of 4".
  my.seatsSlot.replaceChildren(
    select("max_players", t("newgame.seats"), seats, game.seats.min, { "aria-describedby": "seats-hint" }),
    h("p", { class: "hint", id: "seats-hint" }, t("newgame.seats_hint")),
  );
  // Against the computer: at most one bot fewer than the game's seats.
  const bots = [];
  const most = Math.min(OPTIONS.bots.max, game.seats.max - 1);
  for (let n = OPTIONS.bots.min; n <= most; n += 1) bots.push([n, t("newgame.bots_n", { count: n })]);
  my.botsSlot.replaceChildren(select("bots", t("newgame.bots"), bots, Math.min(OPTIONS.bots.default, most)));
  // replaceChildren() would write a null as the text "null": an empty list adds nothing.
  my.presetSlot.replaceChildren(
    ...(game.presets.length
      ? [select("preset", t("newgame.preset"), game.presets.map((preset) => [preset, presetName(preset)]), game.default_preset)]
      : []),
  );
  my.targetSlot.replaceChildren(
    select("target_score", t("newgame.target"), lengths(game.target), game.target.default, { "aria-describedby": "target-hint" }),
    h("p", { class: "hint", id: "target-hint" }, t("newgame.target_hint")),
  );
  my.rulesSlot.replaceChildren(
    ...(game.house_rules.length
      ? [h("fieldset", { class: "field house-rules" }, h("legend", null, t("newgame.house_rules")), game.house_rules.map((rule) => houseRule(game.kind, rule)))]
      : []),
  );
}

// ---- the game: a choice only when the server offers more than one -------------------------

function showSupport(my) {
  my.gameHint.textContent = isSupported(my.chosen.kind) ? "" : t("newgame.game_unsupported");
}

/** The game's select with its hint, or null when the server offers one game. */
function gamePick(my) {
  const { games } = my;
  if (games.length <= 1) return null;
  return h(
    "div",
    { class: "game-pick" },
    select(
      "game",
      t("newgame.game"),
      games.map((game) => [game.kind, gameName(game.kind, game.name)]),
      my.chosen.kind,
      {
        "aria-describedby": "game-hint",
        onchange: (event) => {
          my.chosen = games.find((game) => game.kind === event.target.value) || games[0];
          drawGame(my);
          showSupport(my);
        },
      },
    ),
    my.gameHint,
  );
}

// ---- with people or against the computer ------------------------------------------------------

/** Builds `my.peopleGroup` and `my.computerGroup`. */
function modeGroups(my) {
  // Both groups stay in the page; the one not chosen is a disabled, hidden fieldset (so its
  // fields are neither sent nor reachable by keyboard).
  my.peopleGroup = h(
    "fieldset",
    { class: "mode-group", "data-mode": "people" },
    h("legend", { class: "visually-hidden" }, t("newgame.with_people")),
    my.seatsSlot,
    h(
      "fieldset",
      { class: "field" },
      h("legend", null, t("newgame.visibility")),
      h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "private", checked: true }), t("newgame.private")),
      h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "public" }), t("newgame.public")),
    ),
  );
  my.computerGroup = h(
    "fieldset",
    { class: "mode-group", "data-mode": "computer" },
    h("legend", { class: "visually-hidden" }, t("newgame.with_computer")),
    my.botsSlot,
    select("level", t("newgame.bot_level"), botLevels(), OPTIONS.default_bot_level, { "aria-describedby": "level-hint" }),
    h("p", { class: "hint", id: "level-hint" }, t("newgame.bot_level_hint")),
  );
}

function showMode(my) {
  for (const [group, name] of [[my.peopleGroup, "people"], [my.computerGroup, "computer"]]) {
    group.hidden = my.mode !== name;
    group.disabled = my.mode !== name;
  }
  my.submit.textContent = my.mode === "computer" ? t("newgame.start_vs_computer") : t("newgame.create");
}

function modeChoice(my, value, label) {
  return h(
    "label",
    { class: "choice" },
    h("input", {
      type: "radio",
      name: "mode",
      value,
      checked: my.mode === value,
      onchange: (event) => {
        my.mode = event.target.value;
        showMode(my);
      },
    }),
    label,
  );
}
