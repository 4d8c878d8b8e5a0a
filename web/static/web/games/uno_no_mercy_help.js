// Uno Show 'Em No Mercy's help (help.js draws it): what each card does, the rules in short and
// the first-game walkthrough, summarised from docs/rules-uno-no-mercy.md. The words are in
// i18n/*.json under `help.uno_no_mercy.*`.

import { rulesOf } from "./help_words.js";
import { t } from "../i18n.js";
import { rankKey } from "./uno_splash_help.js";

// The 7 and the 0 do something; the other numbers are plain.
const KEYS = ["number", "7", "0", "skip", "reverse", "skip_all", "discard_all", "draw2", "draw4", "wrd4", "wd6", "wd10", "roulette"];
const RULES = ["goal", "match", "turn", "stack", "mercy", "uno", "score"];
const WALK = ["hand", "draw", "stack", "mercy", "help"];

const prefix = "help.uno_no_mercy";

function nameOf(key) {
  if (key === "number") return t("help.number_cards_plain");
  if (/^\d$/.test(key)) return t("help.number_card", { n: key });
  return t(`nomercy.rank_${key}`);
}

export const help = {
  cards: () => KEYS.map((key) => ({ key, name: nameOf(key), text: t(`${prefix}.card_${key === "7" ? "seven" : key === "0" ? "zero" : key}`) })),
  cardOf(id) {
    const parts = String(id).split("-");
    const rank = parts.length === 3 ? parts[1] : parts[0];
    return rank === "7" || rank === "0" ? rank : rankKey(id);
  },
  rules: (game) => rulesOf(prefix, RULES, game),
  walkthrough: () => WALK.map((step) => t(`${prefix}.walk_${step}`)),
};
