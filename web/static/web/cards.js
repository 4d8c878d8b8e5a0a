// How cards look: every card is wild, so colour and symbol only tell the types apart.

import { t } from "./i18n.js";

export const SYMBOLS = {
  wild: "W",
  draw2: "+2",
  draw4: "+4",
  reverse: "⇄",
  skip: "⊘",
  skip_two: "⊘²",
  targeted_draw2: "→+2",
  force_swap: "⇆",
  shuffle_hands: "↻",
};

export function cardName(type) {
  return t(`card.${type}`);
}

/** Cards that need a target when played (if the legal actions name one). */
export const TARGETED = new Set(["targeted_draw2", "force_swap"]);
