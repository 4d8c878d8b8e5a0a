// A new game (POST games/): preset, house rules, seats, time limit, target score, visibility.

import { api } from "../api.js";
import { h, uid } from "../dom.js";
import { t } from "../i18n.js";
import { errorBox, showError } from "./forms.js";

// The house rules the server accepts today (docs/rules.md, "House rules"); the others answer
// invalid_setup, so they are shown but cannot be picked yet.
const HOUSE_RULES = ["force_swap_protection", "speed_mode", "stacking", "blind_play", "double_down", "mercy"];
const AVAILABLE = new Set(["force_swap_protection", "speed_mode"]);
const TIME_LIMITS = [
  [60, "time.limit_1m"],
  [300, "time.limit_5m"],
  [3600, "time.limit_1h"],
  [86400, "time.limit_1d"],
  [259200, "time.limit_3d"],
];

function select(name, label, options, value) {
  const id = uid(name);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("select", { id, name }, options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text))),
  );
}

export function mount(root, params, app) {
  const errors = errorBox();

  const onSubmit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const data = new FormData(form);
    const options = {};
    for (const rule of HOUSE_RULES) if (data.get(`rule_${rule}`)) options[rule] = true;
    const body = {
      preset: data.get("preset"),
      max_players: Number(data.get("max_players")),
      turn_seconds: Number(data.get("turn_seconds")),
      target_score: Number(data.get("target_score")),
      visibility: data.get("visibility"),
      options,
    };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    errors.clear();
    try {
      const game = await api.post("games/", body);
      app.navigate(`/games/${game.id}`);
    } catch (error) {
      showError(errors, error, form);
      button.disabled = false;
    }
  };

  const seats = [];
  for (let n = 2; n <= 10; n += 1) seats.push([n, t("newgame.seats_n", { count: n })]);
  const targetId = uid("target");

  root.append(
    h(
      "section",
      { class: "panel narrow" },
      h("h1", null, t("newgame.title")),
      errors.el,
      h(
        "form",
        { onsubmit: onSubmit },
        select("preset", t("newgame.preset"), [
          ["standard", t("preset.standard")],
          ["mattel_2021", t("preset.mattel_2021")],
        ], "standard"),
        select("max_players", t("newgame.seats"), seats, 4),
        select("turn_seconds", t("newgame.time_limit"), TIME_LIMITS.map(([s, key]) => [s, t(key)]), 86400),
        h(
          "div",
          { class: "field" },
          h("label", { for: targetId }, t("newgame.target")),
          h("input", { id: targetId, name: "target_score", type: "number", min: 0, max: 100000, step: 10, value: "500", inputmode: "numeric", "aria-describedby": `${targetId}-hint` }),
          h("p", { class: "hint", id: `${targetId}-hint` }, t("newgame.target_hint")),
        ),
        h(
          "fieldset",
          { class: "field" },
          h("legend", null, t("newgame.visibility")),
          h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "private", checked: true }), t("newgame.private")),
          h("label", { class: "choice" }, h("input", { type: "radio", name: "visibility", value: "public" }), t("newgame.public")),
        ),
        h(
          "fieldset",
          { class: "field" },
          h("legend", null, t("newgame.house_rules")),
          HOUSE_RULES.map((rule) =>
            h(
              "label",
              { class: `choice ${AVAILABLE.has(rule) ? "" : "unavailable"}` },
              h("input", { type: "checkbox", name: `rule_${rule}`, value: "1", disabled: !AVAILABLE.has(rule) }),
              h("span", null, t(`rule.${rule}`), AVAILABLE.has(rule) ? null : h("span", { class: "muted" }, ` (${t("newgame.not_yet")})`)),
            ),
          ),
        ),
        h("button", { type: "submit", class: "primary wide" }, t("newgame.create")),
      ),
    ),
  );
}
