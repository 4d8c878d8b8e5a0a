// Gin Rummy's cards as drawn (games/gin_rummy.js): a card's name, the rank and suit sign printed on
// it, its colour's class, and a card shown rather than played. Shared by the table and the round's
// end (gin_round.js).

import { h } from "../dom.js";
import { t } from "../i18n.js";

const SUIT_SIGN = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED = new Set(["h", "d"]);

const rankOf = (id) => String(id).slice(0, 1);
const suitOf = (id) => String(id).slice(1, 2);

/** A card's words: "King of diamonds" ("Ruder konge"). */
export function cardName(id) {
  return t("gin.card", { rank: t(`gin.rank_${rankOf(id)}`), suit: t(`gin.suit_${suitOf(id)}`) });
}

/** What is printed on a card: its rank and its suit's sign ("K♦", "10♠"). */
export function cardSymbol(id) {
  const rank = rankOf(id) === "T" ? "10" : rankOf(id);
  return `${rank}${SUIT_SIGN[suitOf(id)] || "?"}`;
}

export const cardClass = (id) => `card gin-card ${RED.has(suitOf(id)) ? "gin-red" : "gin-black"}`;

/** A card shown, not played: a picture with its name for assistive technology. */
export function faceCard(id, extra = "", label = null) {
  return h(
    "span",
    { key: id, class: `${cardClass(id)} ${extra}`, "data-symbol": cardSymbol(id), role: "img", "aria-label": label || cardName(id) },
    h("span", { class: "card-name", "aria-hidden": "true" }, cardName(id)),
  );
}
