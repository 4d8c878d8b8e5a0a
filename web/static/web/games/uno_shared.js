// What the tables of the Uno games (uno_all_wild.js, uno_splash.js, uno_no_mercy.js) draw the
// same way: the coloured cards of Splash and No Mercy, the seats around me, the head of the
// table, the UNO button, the other seats, the draw pile, the prompt (Gin Rummy's too), the
// family's events in words, the end of a round and a coloured hand's cards. Each game's
// renderer keeps what is its own (its cards, its prompts, its choices) and passes the rest in;
// the hand is the table's (table/hand.js).

import { h } from "../dom.js";
import { formatNumber, formatSigned, t } from "../i18n.js";
import { colourRows, groupCount, groupLabel, playableOf } from "../table/hand.js";

// ---- the coloured cards of Uno Splash and No Mercy (ids "red-7-b", "wd4-1", "roulette-2") --------

/** Each colour's letter, printed on its cards so that colour never stands alone. */
export const LETTER = { red: "R", yellow: "Y", green: "G", blue: "B" };

/** A coloured card's rank and colour (null for a wild), from its id. */
export const rankOf = (id) => {
  const parts = String(id).split("-");
  return parts.length === 3 ? parts[1] : parts[0];
};
export const colourOf = (id) => {
  const parts = String(id).split("-");
  return parts.length === 3 ? parts[0] : null;
};

/** A coloured game's cards, given its symbol table, the i18n prefix of its ranks' names
 * ("splash", "nomercy") and its extra card classes: the card's name, what is printed on it (its
 * colour's letter and its number or symbol), its classes and its face (what identical cards
 * share: "red-7", "wd4"). */
export function colouredCards({ symbols, names, classes = "", wildClass }) {
  const rank = (card) => card.rank || rankOf(card.id);
  const colour = (card) => (card.colour === undefined ? colourOf(card.id) : card.colour);
  return {
    cardName(card) {
      const r = rank(card);
      const c = colour(card);
      const words = /^\d$/.test(r) ? r : t(`${names}.rank_${r}`);
      return c ? t("splash.card", { colour: t(`colour.${c}`), rank: words }) : words;
    },
    cardSymbol(card) {
      const symbol = symbols[rank(card)] || rank(card);
      return card.colour ? `${LETTER[card.colour]}${symbol}` : symbol;
    },
    cardClass(card) {
      return `card splash-card ${classes} ${card.colour ? `splash-${card.colour}` : `splash-wild ${wildClass}-${rank(card)}`}`;
    },
    faceOf(card) {
      const c = colour(card);
      return c ? `${c}-${rank(card)}` : rank(card);
    },
  };
}

/** A coloured game's faces, drawn as in the hand (`cards` is its colouredCards): `helpFace(key,
 * held)`, the help sheet's card of `key` (a sample from `samples`, or the card held), and
 * `cardFace(id)`, a card by its id drawn small with its name (the replay page's hands,
 * views/replay.js). */
export function colouredFaces({ cardName, cardClass, cardSymbol }, samples) {
  const byId = (id) => ({ id, colour: colourOf(id), rank: rankOf(id) });
  return {
    helpFace(key, held = null) {
      const card = byId(held || samples[key]);
      return h("span", { class: cardClass(card), "data-symbol": cardSymbol(card), "aria-hidden": "true" });
    },
    cardFace(id) {
      const card = byId(id);
      return h("span", { class: cardClass(card), "data-symbol": cardSymbol(card), role: "img", "aria-label": cardName(card) });
    },
  };
}

// ---- the colours of Uno Splash and No Mercy: choosing one, the one in force ------------------

export const COLOURS = ["red", "yellow", "green", "blue"];
export const colourName = (colour) => t(`colour.${colour}`);

/** The four colours as buttons: for a wild being played, or the opening Wild's colour. */
export function colourPicker(onPick, onCancel) {
  return h(
    "div",
    { class: "colour-picker", role: "group", "aria-label": t("splash.pick_colour") },
    COLOURS.map((colour) =>
      h(
        "button",
        { type: "button", class: `colour-choice splash-${colour}`, "data-letter": LETTER[colour], onclick: () => onPick(colour) },
        h("span", { class: "colour-letter", "aria-hidden": "true" }, LETTER[colour]),
        h("span", { class: "colour-word" }, colourName(colour)),
      ),
    ),
    onCancel ? h("button", { type: "button", class: "cancel-pick", onclick: onCancel }, t("common.cancel")) : null,
  );
}

// ---- what this player chose before a play is sent ---------------------------------------------
// Each Uno renderer keeps it in one object of its own, `my` (its ctx, `unoArmed`: UNO said with
// the next play, `colourFor`: a wild's play waiting for its colour), made by its create(ctx).

/** The UNO button pressed: armed for the next play, or not any more. */
export function toggleUno(my) {
  my.unoArmed = !my.unoArmed;
  my.ctx.render();
}

/** A wild played (`base`: the action to send, with the colour picked): the colour picker opens. */
export function askColour(my, base) {
  my.colourFor = base;
  my.ctx.render();
  my.ctx.screen.querySelector(".colour-picker button")?.focus({ preventScroll: true });
}

/** The actions row while a colour is to be picked: for the wild waiting for one (with Cancel), or
 * the colour a listed choose_colour names (the opening Wild's, a Roulette's); else null. */
export function colourActions(my, legal) {
  const { send, render } = my.ctx;
  if (my.colourFor) {
    const base = my.colourFor;
    return h("div", { class: "actions" }, colourPicker((colour) => send({ ...base, colour }), () => {
      my.colourFor = null;
      render();
    }));
  }
  if (legal.some((a) => a.type === "choose_colour")) {
    return h("div", { class: "actions" }, colourPicker((colour) => send({ type: "choose_colour", colour }), null));
  }
  return null;
}

/** The colour in force beside the discard pile: its letter and its name ("?" before one is named). */
export function colourInForce(colour) {
  return h(
    "div",
    { class: `colour-in-force ${colour ? `splash-${colour}` : ""}`, role: "status" },
    h("span", { class: "colour-letter", "aria-hidden": "true" }, colour ? LETTER[colour] : "?"),
    h("span", { class: "colour-word" }, colour ? t("splash.in_force", { colour: colourName(colour) }) : t("splash.no_colour")),
  );
}

/** The discard pile's top card, large, or the empty pile (`cards` is the game's colouredCards). */
export function discardTop({ cardName, cardClass, cardSymbol }, top) {
  return top
    ? h(
        "div",
        { key: top.id, class: `${cardClass(top)} big`, "data-symbol": cardSymbol(top), role: "img", "aria-label": t("table.discard_label", { card: cardName(top) }) },
        h("span", { class: "card-name", "aria-hidden": "true" }, cardName(top)),
      )
    : h("div", { class: "card big empty", role: "img", "aria-label": t("table.no_discard") });
}

/** The next active seat after the current one, in the direction of play. */
export function nextSeat(table) {
  const n = table.seats.length;
  const step = table.direction === "clockwise" ? 1 : -1;
  for (let i = 1; i <= n; i += 1) {
    const seat = (((table.current_seat + step * i) % n) + n) % n;
    if (table.seats[seat].active) return seat;
  }
  return null;
}

/** The other seats, starting with the one after mine. */
export function aroundMe(table) {
  const n = table.seats.length;
  const order = [];
  for (let i = 1; i < n; i += 1) order.push(table.seats[(table.you + i) % n]);
  return order;
}

/** The round, the direction, the turn clock and the connection; speed mode's bar under it. */
export function tableHead(ctx, table, options) {
  return [
    h(
      "div",
      { class: "table-head" },
      h("h1", { class: "visually-hidden" }, t("table.title")),
      h("span", { class: "round" }, t("table.round", { round: table.round })),
      h(
        "span",
        { class: "direction", title: t(`table.${table.direction}`) },
        h("span", { "aria-hidden": "true", class: `dir-icon ${table.direction}` }, table.direction === "clockwise" ? "↻" : "↺"),
        h("span", { class: "visually-hidden" }, t(`table.${table.direction}`)),
      ),
      ctx.turnTimer(),
      ctx.connectionState(),
      ctx.helpButton?.(),
    ),
    options.speed_mode ? h("div", { class: "speed-bar", "aria-hidden": "true" }, h("span", null)) : null,
    // What just happened, in words (table/effects.js): what touches me first in line and marked.
    ctx.newsView ? ctx.newsView() : null,
  ];
}

/** "UNO" said now (listed), or armed to ride on the next play (`armed`, toggled by `onToggle`). */
export function unoButton(send, { canUno, canArm, armed, onToggle }) {
  if (canUno) {
    return h("button", { type: "button", class: "uno-button ready", onclick: () => send({ type: "uno" }) }, t("table.uno"));
  }
  return h(
    "button",
    {
      type: "button",
      class: `uno-button ${armed ? "armed" : ""}`,
      "aria-pressed": canArm ? String(armed) : false,
      "aria-describedby": "uno-hint",
      disabled: !canArm,
      onclick: onToggle,
    },
    t("table.uno"),
  );
}

/** The hint under the UNO button; `armHint` is what arming it does now. */
export function unoHint({ canUno, canArm, armed, said, armHint = "table.uno_arm" }) {
  if (canUno) return t("table.uno_now");
  if (canArm) return armed ? t("table.uno_armed") : t(armHint);
  return said ? t("table.uno_said") : "";
}

/** The other seats: name, cards, score, bot, UNO said, and a catch button when one is listed.
 * `owes(seat)` is the game's flag for a seat that owes an answer (a stack, a challenge), or null;
 * `knockedOut` ({seats, word}) marks the seats out of the round (No Mercy), and `showNext` the
 * seat that plays next. */
export function opponents(ctx, table, legal, owes, { knockedOut = null, showNext = true } = {}) {
  const { send, nameOf, player, botTag } = ctx;
  const next = showNext ? nextSeat(table) : null;
  const catchable = new Set(legal.filter((a) => a.type === "catch").map((a) => a.target));
  const seat = (s) => {
    const p = player(s.seat);
    const current = s.seat === table.current_seat;
    const isNext = s.seat === next && !current;
    const out = Boolean(knockedOut?.seats.has(s.seat));
    const owed = s.active ? owes(s.seat) : null;
    const flags = [];
    if (out) flags.push(knockedOut.word);
    else if (!s.active) flags.push(t("table.left"));
    else if (owed) flags.push(owed);
    else if (current) flags.push(t("table.their_turn"));
    else if (isNext) flags.push(t("table.next"));
    const catchLabel = t("table.catch_label", { name: nameOf(s.seat) });
    return h(
      "li",
      { key: `s${s.seat}`, class: `seat ${current ? "current" : ""} ${isNext ? "next" : ""} ${out ? "knocked-out" : s.active ? "" : "gone"}` },
      h("span", { class: "seat-name" }, p ? p.name : nameOf(s.seat)),
      h("span", { class: "seat-cards" }, t("table.cards", { count: s.hand_size })),
      h("span", { class: "seat-flags" }, flags.join(" · ")),
      h(
        "span",
        { class: "seat-score" },
        h("span", { class: "points" }, t("table.points", { points: formatNumber(s.score) })),
        h("span", { class: "seat-bot" }, botTag(p)),
      ),
      s.uno ? h("span", { class: "uno-badge" }, t("table.uno_badge")) : null,
      catchable.has(s.seat)
        ? h("button", { type: "button", class: "catch-button", "aria-label": catchLabel, onclick: () => send({ type: "catch", target: s.seat }) }, t("table.catch"))
        : null,
    );
  };
  return h("ul", { class: "opponents", "aria-label": t("table.opponents") }, aroundMe(table).map(seat));
}

/** The draw pile: a button while a draw is listed (`drawLabel`: what drawing does), its size
 * either way. */
export function drawPile(send, table, canDraw, drawLabel = "table.draw_label") {
  return h(
    "button",
    {
      type: "button",
      class: "draw-pile",
      disabled: !canDraw,
      "data-count": table.draw_size,
      "aria-label": canDraw ? t(drawLabel, { count: table.draw_size }) : t("table.pile_label", { count: table.draw_size }),
      onclick: () => send({ type: "draw" }),
    },
    h("span", { class: "pile-label", key: canDraw ? "draw" : "pile" }, canDraw ? t("table.draw") : t("table.draw_pile")),
  );
}

/** The prompt, or (a bot plays for me) the button that takes my seat back. */
export function promptArea(ctx, { myTurn, text }) {
  const takenOver = Boolean(ctx.game.players.find((p) => p.you)?.taken_over);
  if (takenOver) {
    return h(
      "div",
      { class: "prompt taken-over", role: "status" },
      h("p", { id: "prompt-text", key: "taken-over" }, t("table.bot_plays_for_you")),
      h("button", { type: "button", class: "reclaim", disabled: ctx.busy, onclick: () => ctx.lobbyAction("reclaim/", { focus: ".hand button" }) }, t("table.reclaim")),
    );
  }
  // A new message is a new element (keyed by its text): nothing on screen moves.
  return h(
    "div",
    { class: `prompt ${myTurn ? "mine" : ""}`, "aria-live": "polite" },
    h("p", { id: "prompt-text", key: text }, text),
    myTurn ? null : ctx.nextGame?.(),
  );
}

/** The events every Uno game has, in words (`n`: a seat's name, `card`: a card id's name); null
 * for an event that is the game's own. */
export function describeFamily(event, n, card) {
  switch (event.type) {
    case "round_started":
      return t("log.round_started", { round: event.round, dealer: n(event.dealer), card: card(event.card) });
    case "opening_effect":
      return t("log.opening_effect", { card: card(event.card), name: n(event.seat) });
    case "reshuffled":
      return t("log.reshuffled");
    case "loses_turn":
      return t("log.loses_turn", { name: n(event.seat), count: event.count });
    case "skipped":
      return t("log.skipped", { name: n(event.seat) });
    case "direction":
      return t("log.direction", { direction: t(`table.${event.direction}`) });
    case "uno":
      return t("log.uno", { name: n(event.seat) });
    case "caught":
      return t("log.caught", { name: n(event.seat), target: n(event.target) });
    case "pass":
      return t("log.pass", { name: n(event.seat) });
    case "mercy":
      return t("log.mercy", { name: n(event.seat), cards: (event.cards || []).map(card).join(", ") });
    default:
      return null;
  }
}

/** The cards drawn, when the event shows them to this player: " (Red 7, Wild)". */
export function drawnCards(event, card) {
  return Array.isArray(event.cards) && event.cards.length ? ` (${event.cards.map(card).join(", ")})` : "";
}

/** What a losing hand of round `r` counted: the engine's `hand_points`, or (a round recorded
 * before it had them) the winner's points when that hand alone paid them; else undefined. */
function handWorth(r, seat, payer) {
  const each = r.hand_points;
  if (each && typeof each[String(seat)] === "number") return each[String(seat)];
  return seat === payer && r.points ? r.points : undefined;
}

/** Whether round `r` was won by the last player left in it (No Mercy: the others knocked out
 * or gone) rather than by going out: only then does the winner's own hand show cards. */
export function wonAsLastStanding(r) {
  const own = (r.hands || {})[String(r.winner)];
  return Array.isArray(own) && own.length > 0;
}

/** "Round 1: Alan won 31 points.", or, won as the last one left, said so (never "won 0 points"). */
export function roundBanner(r, nameOf) {
  const words = { round: r.round, name: nameOf(r.winner), points: formatNumber(r.points) };
  if (!wonAsLastStanding(r)) return t("results.round_line", words);
  return t(r.points ? "results.round_last_points" : "results.round_last", words);
}

/** The end of a round (issue 35, item 3): who won with how many points (`r.points`, with the
 * round's bonuses: table/round_end.js), the other hands shown (`face(id)`: the renderer's small
 * card) with what each counted, and the scores with what the round changed (`gains`, per seat). */
export function roundSummary(r, nameOf, { gains = [], face = null } = {}) {
  const hands = Object.entries(r.hands || {}).map(([seat, cards]) => [Number(seat), cards]);
  const losers = hands.filter(([seat, cards]) => seat !== r.winner && cards.length);
  const payer = losers.length === 1 ? losers[0][0] : null;
  const worth = (seat) => {
    const points = handWorth(r, seat, payer);
    return typeof points === "number" ? h("span", { class: "round-hand-points" }, t("results.hand_worth", { points: formatNumber(points) })) : null;
  };
  const change = (seat) => (typeof gains[seat] === "number" ? formatSigned(gains[seat]) : "");
  return [
    h("p", { class: "result-banner" }, roundBanner(r, nameOf)),
    losers.length
      ? h(
          "ul",
          { class: "round-hands", "aria-label": t("results.hands_shown") },
          losers.map(([seat, cards]) =>
            h(
              "li",
              { key: `rh${seat}` },
              h("span", { class: "round-hand-who" }, t("results.hand_left", { name: nameOf(seat), count: cards.length })),
              worth(seat),
              face ? h("span", { class: "round-hand-cards" }, cards.map((id) => face(id))) : null,
            ),
          ),
        )
      : null,
    h(
      "table",
      { class: "scores" },
      h("caption", null, t("results.scores_now")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.this_round")), h("th", { scope: "col" }, t("results.score")))),
      h(
        "tbody",
        null,
        (r.scores || []).map((score, seat) =>
          h("tr", { class: seat === r.winner ? "winner" : "" }, h("th", { scope: "row" }, nameOf(seat)), h("td", null, change(seat)), h("td", null, formatNumber(score))),
        ),
      ),
    ),
  ].filter(Boolean);
}

/** A coloured hand's list (`groups` from groupHand, each drawn by `card(group)`): one list, or
 * when large, a row per colour with its letter and count (hand.colourRows), each row its own list
 * named by its colour and count for a screen reader. */
export function colouredHand(groups, card, colourOf = colourOfCard) {
  const rows = colourRows(groups, colourOf);
  if (!rows) return h("ul", { class: "hand" }, groups.map(card));
  return h(
    "div",
    { class: "hand-colours" },
    rows.map((row) => {
      const word = row.colour ? t(`colour.${row.colour}`) : t("hand.wild_row");
      return h(
        "div",
        { key: `row-${row.colour}`, class: `colour-row ${row.colour ? `row-${row.colour}` : "row-wild"}`, role: "group", "aria-label": t("hand.colour_row", { colour: word, count: row.count }) },
        h("span", { class: "colour-count", "aria-hidden": "true" }, h("b", null, row.colour ? LETTER[row.colour] : "W"), h("span", null, row.count)),
        h("ul", { class: "hand" }, row.groups.map(card)),
      );
    }),
  );
}

/** A coloured hand's group of identical cards (or the card just drawn): one button that plays
 * one of them, `play(card, type)` with type "play" or "play_drawn". `cards` is the game's
 * colouredCards. */
export function colouredHandCard({ cardName, cardClass, cardSymbol }, group, legal, drawn, play) {
  const count = group.cards.length;
  const isDrawn = Boolean(drawn) && count === 1 && drawn.id === group.cards[0].id;
  const type = isDrawn ? "play_drawn" : "play";
  const card = isDrawn ? group.cards[0] : playableOf(group.cards, legal) || group.cards[0];
  const playable = isDrawn ? legal.some((a) => a.type === "play_drawn") : legal.some((a) => a.type === "play" && a.card === card.id);
  const name = cardName(card);
  const label = groupLabel(playable ? t("table.play_card", { card: name }) : name, count);
  return h(
    "li",
    { key: group.key },
    h(
      "button",
      {
        type: "button",
        class: `${cardClass(card)} ${isDrawn ? "drawn" : ""}`,
        "data-symbol": cardSymbol(card),
        "data-count": groupCount(count),
        "aria-label": isDrawn ? `${label} (${t("table.just_drawn")})` : label,
        "aria-disabled": playable ? false : "true",
        // A card that cannot be played now is no tab stop: Tab goes from one playable card to the next.
        tabindex: playable ? null : -1,
        onclick: () => playable && play(card, type),
      },
      h("span", { class: "card-name" }, name),
    ),
  );
}

const colourOfCard = (card) => (card.colour === undefined ? colourOf(card.id) : card.colour);

/** A card just drawn may be past the right edge of the hand: bring it into view. */
export function showDrawnCard(screen) {
  screen.querySelector(".hand button.drawn")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** Stacking: a fixed slot beside the discard pile, filled while a stack is owed (its total). */
export function stackSlot(stack) {
  return h(
    "div",
    { class: `stack-slot ${stack ? "owed" : ""}` },
    stack ? h("span", { class: "stack-total", key: `st${stack.total}` }, `+${stack.total}`) : null,
    // Empty, the slot says so: an unlabelled dashed box reads as something that failed to load.
    // Its own element (a key of its own), so the words of an owed stack arrive, never move.
    stack
      ? h("span", { class: "stack-word", key: "owed" }, t("table.stack_word"))
      : h("span", { class: "stack-word", key: "none" }, t("table.stack_none")),
  );
}
