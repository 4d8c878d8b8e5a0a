// The hand (docs/web-client.md, "The table's modules"): its stable order and the sorts a player
// taps, identical cards shown once as a group with its count, the first playable card of a
// group, and the hand's heading. The Uno renderers draw their hands with it (games/uno_*.js); a
// game whose hand is laid out by the server (Gin Rummy's melds) draws its own.

import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";

/** The hand in a stable order: cards that arrive go at the end, so the cards shown never move.
 * `orderer.sortBy(mode)` (a key of HAND_SORTS) sorts it once, on the person's tap; duplicates
 * end up side by side. */
export function handOrderer() {
  let order = [];
  let sortBy = null;
  const orderer = (hand) => {
    const ids = hand.map((c) => c.id);
    const kept = order.filter((id) => ids.includes(id));
    order = [...kept, ...ids.filter((id) => !kept.includes(id))];
    const byId = new Map(hand.map((c) => [c.id, c]));
    if (sortBy) {
      const compare = HAND_SORTS[sortBy];
      order.sort((a, b) => compare(byId.get(a), byId.get(b)) || String(a).localeCompare(String(b), "en", { numeric: true }));
      sortBy = null;
    }
    return order.map((id) => byId.get(id));
  };
  orderer.sortBy = (mode) => {
    sortBy = mode;
  };
  return orderer;
}

const COLOURS = ["red", "yellow", "green", "blue"];

/** A card's colour (null for a wild) and rank, from the card or its id ("red-7-1", "wild-3"). */
function faceOf(card) {
  const parts = String(card.id).split("-");
  const colour = card.colour !== undefined ? card.colour : parts.length === 3 ? parts[0] : null;
  const rank = String(card.rank ?? card.type ?? (parts.length === 3 ? parts[1] : parts[0]));
  return { colour, rank };
}
const colourIndex = (face) => (face.colour ? COLOURS.indexOf(face.colour) : COLOURS.length);
// Numbers in order first, then the action cards by name.
const rankCompare = (a, b) => {
  const na = /^\d+$/.test(a.rank) ? Number(a.rank) : 100;
  const nb = /^\d+$/.test(b.rank) ? Number(b.rank) : 100;
  return na - nb || a.rank.localeCompare(b.rank);
};

/** Identical cards shown once (issue 21, §1): the hand's cards as groups `{key, cards}`, each
 * where its first card stands, so a card that arrives joins its group (or goes at the end) and
 * nothing on screen moves. `faceOf(card)` names what makes cards identical; the card `apart` (the
 * one just drawn, which only "Play it" may play) stays a group of its own. A group is keyed by
 * its newest card's id: a tap plays its first listed card, so the key (and the element, with
 * its focus) stays, and a card that joins it makes it "arrive" (table/effects.js, markArrivals). */
export function groupHand(hand, faceOf, apart = null) {
  const groups = [];
  const byFace = new Map();
  for (const card of hand) {
    const face = apart && card.id === apart.id ? null : faceOf(card);
    const group = face === null ? null : byFace.get(face);
    if (group) {
      group.cards.push(card);
      group.key = card.id;
      continue;
    }
    const made = { key: card.id, cards: [card] };
    groups.push(made);
    if (face !== null) byFace.set(face, made);
  }
  return groups;
}

/** A group's card: what it says to a screen reader ("Play Red 7 (3 alike)"), and the count that
 * CSS prints on it ("×3", from `data-count`: its words are the label's, not a second name). */
export function groupLabel(label, count) {
  return count > 1 ? t("hand.group_label", { card: label, count }) : label;
}
export function groupCount(count) {
  return count > 1 ? `×${count}` : null;
}

/** The first card of a group whose play is listed (the one a tap on the group plays), or null. */
export function playableOf(cards, legal) {
  return cards.find((card) => legal.some((a) => a.type === "play" && a.card === card.id)) || null;
}

// A hand of more groups than this (two rows of strips at 390 px) is laid out in rows by colour.
export const COLOUR_ROWS_FROM = 15;

/** A coloured game's large hand in rows by colour (issue 35, item 1): a No Mercy hand of 24
 * different cards would take four rows of full cards, below the fold of a phone. Rows of one
 * colour each, labelled with its count, in red, yellow, green, blue, then the wilds; inside a
 * row the hand's own order. `colourOf(card)` is null for a wild. Null while the hand is small:
 * it stays one list, where nothing moves when a card arrives. */
export function colourRows(groups, colourOf) {
  if (groups.length < COLOUR_ROWS_FROM) return null;
  const rows = new Map([...COLOURS, null].map((c) => [c, { colour: c, groups: [], count: 0 }]));
  for (const group of groups) {
    const row = rows.get(colourOf(group.cards[0]) ?? null) ?? rows.get(null);
    row.groups.push(group);
    row.count += group.cards.length;
  }
  return [...rows.values()].filter((row) => row.groups.length);
}

/** The ways a hand can be sorted: by type (every game), by colour or by number (coloured ones). */
export const HAND_SORTS = {
  type: (a, b) => faceOf(a).rank.localeCompare(faceOf(b).rank),
  colour: (a, b) => colourIndex(faceOf(a)) - colourIndex(faceOf(b)) || rankCompare(faceOf(a), faceOf(b)),
  number: (a, b) => rankCompare(faceOf(a), faceOf(b)) || colourIndex(faceOf(a)) - colourIndex(faceOf(b)),
};

/** The hand's heading: how many cards, my score, and the sort buttons (`modes`, none when the
 * hand is face down). `onSort(mode)` sorts the hand once; cards that arrive later go at the end. */
export function handHead({ title, score, modes = [], onSort }) {
  // Its title takes the keyboard after a card is played (table/effects.js, focusAfterAction).
  return h(
    "div",
    { class: "hand-head" },
    h("h2", { id: "hand-title", class: "hand-title", tabindex: -1 }, title),
    typeof score === "number" ? h("span", { class: "my-score" }, t("hand.my_score", { points: formatNumber(score) })) : null,
    modes.length
      ? h(
          "div",
          { class: "hand-sort", role: "group", "aria-label": t("hand.sort") },
          modes.map((mode) => h("button", { type: "button", class: "sort-button", onclick: () => onSort(mode) }, t(`hand.sort_${mode}`))),
        )
      : null,
  );
}

