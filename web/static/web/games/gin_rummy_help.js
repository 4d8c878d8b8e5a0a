// Gin Rummy's help (help.js draws it): what each card counts, the rules in short and the
// first-game walkthrough, summarised from docs/gin_rummy.md and the rulings it follows. The
// words are in i18n/*.json under `help.gin_rummy.*`.

import { rulesOf } from "./help_words.js";
import { t } from "../i18n.js";

// A card's id is its rank then its suit ("As", "Th", "Kd"): an ace, a number card or a court card.
const KEYS = ["ace", "pip", "court"];
const RULES = ["goal", "melds", "turn", "upcard", "knock", "gin", "score", "wall"];
const WALK = ["hand", "offer", "turn", "knock", "help"];

const prefix = "help.gin_rummy";

export const help = {
  cards: () => KEYS.map((key) => ({ key, name: t(`${prefix}.name_${key}`), text: t(`${prefix}.card_${key}`) })),
  cardOf(id) {
    const rank = String(id).slice(0, 1);
    if (rank === "A") return "ace";
    return "JQK".includes(rank) ? "court" : "pip";
  },
  rules: (game) => rulesOf(prefix, RULES, game),
  walkthrough: () => WALK.map((step) => t(`${prefix}.walk_${step}`)),
};
