// Uno All Wild's help (help.js draws it): what each card does, the rules in short and the
// first-game walkthrough, summarised from docs/rules.md. The words are in i18n/*.json under
// `help.uno_all_wild.*`.

import { rulesOf } from "./help_words.js";
import { t } from "../i18n.js";

// Every card type, in the order the rules list them; a preset deals only some of them.
const TYPES = ["wild", "draw2", "draw4", "reverse", "skip", "skip_two", "targeted_draw2", "force_swap", "shuffle_hands"];
const NOT_IN = { standard: new Set(["skip_two"]), mattel_2021: new Set(["shuffle_hands"]) };
const RULES = ["goal", "turn", "uno", "out", "score"];
const WALK = ["hand", "play", "draw", "uno", "help"];

const prefix = "help.uno_all_wild";

export const help = {
  cards(game) {
    const left = NOT_IN[game?.preset] || NOT_IN.standard;
    return TYPES.filter((type) => !left.has(type)).map((type) => ({ key: type, name: t(`card.${type}`), text: t(`${prefix}.card_${type}`) }));
  },
  cardOf: (id) => String(id).replace(/-\d+$/, ""),
  // Mattel's sheet allows a draw only in one case (docs/rules.md, "The two presets").
  rules: (game) => rulesOf(prefix, game?.preset === "mattel_2021" ? [...RULES.slice(0, 2), "draw_mattel", ...RULES.slice(2)] : RULES, game),
  walkthrough: () => WALK.map((step) => t(`${prefix}.walk_${step}`)),
};
