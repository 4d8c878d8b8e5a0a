// A new game: with people (POST games/, a lobby with an invite link where the host may also
// seat bots) or against the computer (POST games/vs-computer/, dealt at once). Preset, house
// rules, time limit and target score are common to both; the choices offered come from
// options.js, the one list of what the server accepts.

import { api } from "../api.js";
import { h, uid } from "../dom.js";
import { t } from "../i18n.js";
import { OPTIONS, TIME_LIMIT_KEYS } from "../options.js";
import { botLevels, errorBox, select, showError } from "./forms.js";

export function mount(root, params, app) {
  const errors = errorBox();
  // Against the computer when opened as /games/new?vs=computer (the "Play the computer" link).
  let mode = new URLSearchParams(location.search).get("vs") === "computer" ? "computer" : "people";

  const onSubmit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const data = new FormData(form);
    const options = {};
    for (const rule of OPTIONS.house_rules) if (data.get(`rule_${rule}`)) options[rule] = true;
    const common = {
      preset: data.get("preset"),
      turn_seconds: Number(data.get("turn_seconds")),
      target_score: Number(data.get("target_score")),
      options,
    };
    if (options.speed_mode) common.speed_seconds = Number(data.get("speed_seconds"));
    const computer = mode === "computer";
    const body = computer
      ? { ...common, bots: Number(data.get("bots")), level: data.get("level") }
      : { ...common, max_players: Number(data.get("max_players")), visibility: data.get("visibility") };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    errors.clear();
    try {
      const game = await api.post(computer ? "games/vs-computer/" : "games/", body);
      app.navigate(`/games/${game.id}`);
    } catch (error) {
      showError(errors, error, form);
      button.disabled = false;
    }
  };

  const seats = [];
  for (let n = OPTIONS.seats.min; n <= OPTIONS.seats.max; n += 1) seats.push([n, t("newgame.seats_n", { count: n })]);
  const bots = [];
  for (let n = OPTIONS.bots.min; n <= OPTIONS.bots.max; n += 1) bots.push([n, t("newgame.bots_n", { count: n })]);
  const targetId = uid("target");

  // Speed mode's seconds: shown (and sent) only while speed mode is ticked.
  const speedId = uid("speed");
  const speedField = h(
    "div",
    { class: "field speed-seconds", hidden: true },
    h("label", { for: speedId }, t("newgame.speed_seconds")),
    h("input", {
      id: speedId,
      name: "speed_seconds",
      type: "number",
      min: OPTIONS.speed_seconds.min,
      max: OPTIONS.speed_seconds.max,
      step: 1,
      value: String(OPTIONS.speed_seconds.default),
      inputmode: "numeric",
      disabled: true,
      "aria-describedby": `${speedId}-hint`,
    }),
    h("p", { class: "hint", id: `${speedId}-hint` }, t("newgame.speed_seconds_hint", { min: OPTIONS.speed_seconds.min, max: OPTIONS.speed_seconds.max })),
  );

  /** One house rule: its checkbox, named, with the description a player can read. */
  function houseRule(rule) {
    const id = uid(`rule-${rule}`);
    const speed = rule === "speed_mode";
    return h(
      "div",
      { class: "rule" },
      h(
        "label",
        { class: "choice", for: id },
        h("input", {
          id,
          type: "checkbox",
          name: `rule_${rule}`,
          value: "1",
          "aria-describedby": `${id}-hint`,
          onchange: speed
            ? (event) => {
                speedField.hidden = !event.target.checked;
                speedField.querySelector("input").disabled = !event.target.checked;
              }
            : null,
        }),
        t(`rule.${rule}`),
      ),
      h("p", { class: "hint rule-hint", id: `${id}-hint` }, t(`rule.${rule}_hint`)),
      speed ? speedField : null,
    );
  }

  // Both groups stay in the page; the one not chosen is a disabled, hidden fieldset (so its
  // fields are neither sent nor reachable by keyboard).
  const peopleGroup = h(
    "fieldset",
    { class: "mode-group", "data-mode": "people" },
    h("legend", { class: "visually-hidden" }, t("newgame.with_people")),
    select("max_players", t("newgame.seats"), seats, OPTIONS.seats.default, { "aria-describedby": "seats-hint" }),
    h("p", { class: "hint", id: "seats-hint" }, t("newgame.seats_hint")),
    h(
      "fieldset",
      { class: "field" },
      h("legend", null, t("newgame.visibility")),
      h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "private", checked: true }), t("newgame.private")),
      h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "public" }), t("newgame.public")),
    ),
  );
  const computerGroup = h(
    "fieldset",
    { class: "mode-group", "data-mode": "computer" },
    h("legend", { class: "visually-hidden" }, t("newgame.with_computer")),
    select("bots", t("newgame.bots"), bots, OPTIONS.bots.default),
    select("level", t("newgame.bot_level"), botLevels(), OPTIONS.default_bot_level, { "aria-describedby": "level-hint" }),
    h("p", { class: "hint", id: "level-hint" }, t("newgame.bot_level_hint")),
  );
  const submit = h("button", { type: "submit", class: "primary wide" }, "");

  function showMode() {
    for (const [group, name] of [[peopleGroup, "people"], [computerGroup, "computer"]]) {
      group.hidden = mode !== name;
      group.disabled = mode !== name;
    }
    submit.textContent = mode === "computer" ? t("newgame.start_vs_computer") : t("newgame.create");
  }

  const modeChoice = (value, label) =>
    h(
      "label",
      { class: "choice" },
      h("input", {
        type: "radio",
        name: "mode",
        value,
        checked: mode === value,
        onchange: (event) => {
          mode = event.target.value;
          showMode();
        },
      }),
      label,
    );

  root.append(
    h(
      "section",
      { class: "panel narrow" },
      h("h1", null, t("newgame.title")),
      errors.el,
      h(
        "form",
        { onsubmit: onSubmit },
        h("fieldset", { class: "field" }, h("legend", null, t("newgame.play_with")), modeChoice("people", t("newgame.with_people")), modeChoice("computer", t("newgame.with_computer"))),
        peopleGroup,
        computerGroup,
        select(
          "preset",
          t("newgame.preset"),
          OPTIONS.presets.map((preset) => [preset, t(`preset.${preset}`)]),
          OPTIONS.presets[0],
        ),
        select(
          "turn_seconds",
          t("newgame.time_limit"),
          OPTIONS.turn_seconds.map((s) => [s, t(TIME_LIMIT_KEYS[s])]),
          OPTIONS.default_turn_seconds,
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: targetId }, t("newgame.target")),
          h("input", {
            id: targetId,
            name: "target_score",
            type: "number",
            min: OPTIONS.target_score.min,
            max: OPTIONS.target_score.max,
            step: 10,
            value: String(OPTIONS.target_score.default),
            inputmode: "numeric",
            "aria-describedby": `${targetId}-hint`,
          }),
          h("p", { class: "hint", id: `${targetId}-hint` }, t("newgame.target_hint")),
        ),
        h(
          "fieldset",
          { class: "field house-rules" },
          h("legend", null, t("newgame.house_rules")),
          OPTIONS.house_rules.map(houseRule),
        ),
        submit,
      ),
    ),
  );
  showMode();
}
