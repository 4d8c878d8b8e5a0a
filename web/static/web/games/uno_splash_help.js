// Uno Splash's help (help.js draws it): what each card does, the rules in short and the
// first-game walkthrough, summarised from docs/rules-uno-splash.md. The words are in
// i18n/*.json under `help.uno_splash.*`.

import { rulesOf } from "./help_words.js";
import { t } from "../i18n.js";

// A number card is any of 0-9; the others by their rank (the id's middle part, or the whole id
// of a wild: "wild-2", "wd4-1").
const KEYS = ["number", "skip", "reverse", "draw2", "wild", "wd4"];
const RULES = ["goal", "match", "turn", "uno", "challenge", "score"];
const WALK = ["hand", "match", "draw", "uno", "help"];
const NAMES = { number: "help.number_cards", skip: "splash.rank_skip", reverse: "splash.rank_reverse", draw2: "splash.rank_draw2", wild: "splash.rank_wild", wd4: "splash.rank_wd4" };

const prefix = "help.uno_splash";

export function rankKey(id) {
  const parts = String(id).split("-");
  const rank = parts.length === 3 ? parts[1] : parts[0];
  return /^\d$/.test(rank) ? "number" : rank;
}

export const help = {
  cards: () => KEYS.map((key) => ({ key, name: t(NAMES[key]), text: t(`${prefix}.card_${key}`) })),
  cardOf: rankKey,
  rules: (game) => rulesOf(prefix, RULES, game),
  walkthrough: () => WALK.map((step) => t(`${prefix}.walk_${step}`)),
};
