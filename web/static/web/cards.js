// How cards look: every card is wild, so colour and symbol only tell the types apart.

import { h } from "./dom.js";
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

/** The face of a card (no behaviour): symbol and name. */
export function cardFace(card, { size = "" } = {}) {
  return [
    h("span", { class: "card-symbol", "aria-hidden": "true" }, SYMBOLS[card.type] || "?"),
    h("span", { class: "card-name", "aria-hidden": "true" }, cardName(card.type)),
    size ? null : null,
  ];
}

export function cardClass(card) {
  return `card card-${card.type}`;
}

/** Cards that need a target when played (if the legal actions name one). */
export const TARGETED = new Set(["targeted_draw2", "force_swap"]);
