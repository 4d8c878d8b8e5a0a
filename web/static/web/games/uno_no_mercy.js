// Uno Show 'Em No Mercy's table (games/index.js describes what a renderer is): the other seats
// with who is knocked out, the piles with the colour in play, the stack owed and who must answer
// it, the prompt, the action buttons, the hand, and this game's events in words.
//
// Everything comes from the game view's `table` and its `legal_actions`: a card is playable
// exactly when an action for it is listed, and the buttons send those actions back (through the
// screen's `send`, which adds `expected_version` and an Idempotency-Key). Cards are drawn as Uno
// Splash draws them (uno_shared.colouredCards, given this game's symbols): never colour alone,
// every card shows its colour's letter and its number or symbol; identical cards are one card
// with a count (uno_shared.groupHand).
//
// A wild other than the Roulette opens the colour picker; a 7 opens the player picker (whom to
// swap hands with). A stack owed shows its total and who must answer it, with "Take N cards" for
// that player; a Wild Color Roulette played on you asks for a colour; a knockout shows on the
// seat and in the log; a hand that arrived from a 0 or a 7 says where it came from.

import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { help } from "./uno_no_mercy_help.js";
import { createSkip, outForGood } from "./uno_no_mercy_out.js";
import { groupHand, handHead, handOrderer } from "../table/hand.js";
import { askColour, colourActions, colourInForce, colourName, colouredCards, colouredFaces, colouredHand, colouredHandCard, discardTop, describeFamily, drawPile, opponents, promptArea, rankOf, roundBanner, roundSummary, showDrawnCard, tableHead, toggleUno, unoButton, unoHint, wonAsLastStanding } from "./uno_shared.js";

const SYMBOL = {
  skip: "⊘",
  reverse: "⇄",
  draw2: "+2",
  draw4: "+4",
  discard_all: "⇊",
  skip_all: "⊘⊘",
  wrd4: "⇄+4",
  wd6: "+6",
  wd10: "+10",
  roulette: "?",
};
const NAMES_COLOUR = new Set(["wrd4", "wd6", "wd10"]);
// The events this game tells as every Uno game does (uno_shared.describeFamily).
const FAMILY_EVENTS = new Set(["round_started", "opening_effect", "loses_turn", "skipped", "direction", "uno", "caught"]);

const CARDS = colouredCards({ symbols: SYMBOL, names: "nomercy", classes: "nomercy-card", wildClass: "nomercy" });
const { cardName, faceOf } = CARDS;

// A sample card of each key of the help sheet (uno_no_mercy_help.js), drawn as in the hand.
const HELP_SAMPLES = {
  number: "red-5-a",
  7: "blue-7-a",
  0: "green-0-a",
  skip: "yellow-skip-a",
  reverse: "red-reverse-a",
  skip_all: "blue-skip_all-a",
  discard_all: "green-discard_all-a",
  draw2: "yellow-draw2-a",
  draw4: "red-draw4-a",
  wrd4: "wrd4-1",
  wd6: "wd6-1",
  wd10: "wd10-1",
  roulette: "roulette-1",
};

const FACES = colouredFaces(CARDS, HELP_SAMPLES);

export const renderer = {
  kind: "uno_no_mercy",
  create,
  help: { ...help, face: FACES.helpFace },
  cardFace: FACES.cardFace,
};

function create(ctx) {
  const { nameOf, screen } = ctx;
  // This player's state of the table: UNO armed for the next play, a play waiting for its colour
  // or its target ({type, card} of the play to send), where the hand last came from.
  const my = { ctx, unoArmed: false, colourFor: null, targetFor: null, arrivedFrom: null, orderHand: handOrderer(), skip: createSkip(ctx) };
  return {
    table: () => tableView(my),
    describe: (event) => describe(my, event),
    // The stack owed is on the table (its banner and the prompt): the news does not say it again.
    quietInNews: new Set(["stacked"]),
    roundSummary: (r, gains) => roundSummary(r, nameOf, { gains, face: renderer.cardFace }),
    roundLine: (r) => roundBanner(r, nameOf),
    actionDone() {
      my.unoArmed = false;
      my.colourFor = null;
      my.targetFor = null;
    },
    afterRender: () => showDrawnCard(screen),
    focusAfterAction: ".hand button:not([aria-disabled='true'])",
  };
}

/** Play a card (or the drawn one): a colour-naming wild asks its colour, a 7 its target. */
function playCard(my, card, type, legal) {
  const base = type === "play_drawn" ? { type } : { type, card: card.id };
  if (my.unoArmed) base.uno = true;
  const rank = card.rank || rankOf(card.id);
  if (rank === "7") {
    const listed = legal.filter((a) => a.type === type && (type === "play_drawn" || a.card === card.id));
    my.targetFor = { base, targets: listed.map((a) => a.target) };
    my.ctx.render();
    my.ctx.screen.querySelector(".target-picker button")?.focus({ preventScroll: true });
    return;
  }
  if (!card.colour && NAMES_COLOUR.has(rank)) {
    askColour(my, base);
    return;
  }
  my.ctx.send(base);
}

function prompt(my, table, legal, myTurn) {
  const { nameOf } = my.ctx;
  if (my.colourFor) return t("splash.prompt_colour");
  if (my.targetFor) return t("nomercy.prompt_target");
  const choice = table.pending_choice;
  if (table.phase === "choose" && choice) {
    const roulette = choice.reason === "roulette";
    if (choice.seat === table.you) {
      return roulette ? t("nomercy.prompt_roulette", { name: nameOf(choice.owner) }) : t("nomercy.prompt_opening_colour");
    }
    return roulette ? t("nomercy.prompt_they_roulette", { name: nameOf(choice.seat) }) : t("splash.prompt_they_name", { name: nameOf(choice.seat) });
  }
  if (table.phase === "stack" && table.stack) {
    const count = table.stack.total;
    // The banner says the total and who owes it; the prompt says what to do, once.
    if (myTurn) return legal.some((a) => a.type === "play") ? t("nomercy.prompt_stack", { count, last: table.stack.last }) : t("nomercy.prompt_take_only", { count });
    return t("table.prompt_wait", { name: nameOf(table.stack.seat) });
  }
  if (myTurn && table.phase === "drawn" && table.drawn_card) {
    return t("nomercy.prompt_drawn", { card: cardName(table.drawn_card) });
  }
  if (myTurn) {
    return legal.some((a) => a.type === "play") ? t("table.prompt_play") : t("nomercy.prompt_draw");
  }
  return t("table.prompt_wait", { name: nameOf(table.current_seat) });
}

function targetPicker(my, table) {
  const { send, nameOf, render } = my.ctx;
  const { base, targets } = my.targetFor;
  return h(
    "div",
    { class: "target-picker", role: "group", "aria-label": t("nomercy.pick_target") },
    targets.map((seat) =>
      h(
        "button",
        { type: "button", class: "target-choice", onclick: () => send({ ...base, target: seat }) },
        t("nomercy.swap_with", { name: nameOf(seat), count: table.seats[seat].hand_size }),
      ),
    ),
    h("button", { type: "button", class: "cancel-pick", onclick: () => { my.targetFor = null; render(); } }, t("common.cancel")),
  );
}

function actionsRow(my, table, legal, state) {
  const { send } = my.ctx;
  const { playDrawn, canArm, canUno, mine } = state;
  // A wild tapped and then a 7: both wait, and the wild's colour is asked first.
  if (my.colourFor) return colourActions(my, legal);
  if (my.targetFor) return h("div", { class: "actions" }, targetPicker(my, table));
  const colours = colourActions(my, legal);
  if (colours) return colours;
  const uno = { canUno, canArm, armed: my.unoArmed, said: mine.uno };
  const drawn = table.drawn_card;
  const take = legal.some((a) => a.type === "take_stack");
  return h(
    "div",
    { class: "actions" },
    unoButton(send, { ...uno, onToggle: () => toggleUno(my) }),
    take
      ? h("button", { type: "button", class: "primary take-stack", onclick: () => send({ type: "take_stack" }) }, t("table.take_stack", { count: table.stack.total }))
      : h(
          "button",
          { type: "button", class: "primary", disabled: !playDrawn, onclick: () => playDrawn && drawn && playCard(my, drawn, "play_drawn", legal) },
          t("table.play_drawn"),
        ),
    h("p", { class: "uno-hint", id: "uno-hint" }, unoHint(uno)),
  );
}

/** The other seats, the knocked out ones struck through, the one who must answer a stack. */
function seats(ctx, table, legal) {
  const owes = (seat) => (table.stack && table.stack.seat === seat ? t("nomercy.must_answer") : null);
  const knockedOut = { seats: new Set(table.knocked_out || []), word: t("nomercy.knocked_out") };
  return opponents(ctx, table, legal, owes, { knockedOut, showNext: false });
}

function stackBanner(nameOf, table) {
  const stack = table.stack;
  if (!stack) return null;
  const who = stack.seat === table.you ? t("nomercy.you") : nameOf(stack.seat);
  return h(
    "div",
    { class: "stack-banner", role: "status" },
    h("span", { class: "stack-total" }, `+${stack.total}`),
    h("span", { class: "stack-words" }, t("nomercy.stack_for", { count: stack.total, name: who })),
  );
}

function pileArea(send, table, canDraw) {
  const top = table.discard_top;
  const colour = table.colour;
  return h(
    "div",
    { class: "pile-area" },
    drawPile(send, table, canDraw, "nomercy.draw_label"),
    discardTop(CARDS, top),
    colourInForce(colour),
  );
}

function tableView(my) {
  const { ctx, skip } = my;
  // The log first: reading its events (describe) tells where this hand last came from.
  my.arrivedFrom = null;
  const logNode = ctx.logView();
  const game = ctx.game;
  const busy = ctx.busy;
  const table = game.table;
  const legal = busy ? [] : table.legal_actions;
  const myTurn = table.current_seat === table.you;
  const mine = table.seats[table.you];
  const hand = my.orderHand(table.hand || []);
  const drawn = table.phase === "drawn" && myTurn ? table.drawn_card : null;
  const playDrawn = legal.some((a) => a.type === "play_drawn");
  if (!busy) {
    if (my.colourFor && !legal.some((a) => a.type === my.colourFor.type)) my.colourFor = null;
    if (my.targetFor && !legal.some((a) => a.type === my.targetFor.base.type)) my.targetFor = null;
  }
  const canArm = myTurn && mine.hand_size === 2 && (legal.some((a) => a.type === "play") || playDrawn);
  const knockedOut = (table.knocked_out || []).includes(table.you);
  // Out of a one-round game: no next round to be dealt into, a place already decided.
  const forGood = outForGood(game, table);
  if (forGood && skip.skipped()) return skip.view(game, table);
  const outWord = game.target_score ? "nomercy.you_are_out" : "nomercy.you_are_out_last";
  const promptText = knockedOut ? t(outWord) : prompt(my, table, legal, myTurn);
  return [
    ...tableHead(ctx, table, game.options || {}),
    seats(ctx, table, legal),
    pileArea(ctx.send, table, legal.some((a) => a.type === "draw")),
    stackBanner(ctx.nameOf, table),
    promptArea(ctx, { myTurn: myTurn && !knockedOut, text: promptText }),
    forGood ? skip.button() : null,
    // Out of the round: nothing to call or play until the next deal.
    knockedOut ? null : actionsRow(my, table, legal, { playDrawn, canArm, canUno: legal.some((a) => a.type === "uno"), mine }),
    handArea(my, { hand, score: mine?.score, legal, drawn }),
    logNode,
    ctx.leaveRow(),
  ];
}

/** My hand: its head, where it came from (a 0's pass, a 7's swap), its cards. */
function handArea(my, { hand, score, legal, drawn }) {
  const { ctx, orderHand } = my;
  return h(
    "section",
    { class: "hand-area", "aria-labelledby": "hand-title" },
    handHead({
      title: t("table.hand", { count: hand.length }),
      score,
      modes: ["colour", "number"],
      onSort: (mode) => {
        orderHand.sortBy(mode);
        ctx.render();
      },
    }),
    my.arrivedFrom !== null ? h("p", { class: "hand-arrived", role: "status" }, t("nomercy.hand_from", { name: ctx.nameOf(my.arrivedFrom) })) : null,
    colouredHand(groupHand(hand, faceOf, drawn), (group) => colouredHandCard(CARDS, group, legal, drawn, (card, type) => playCard(my, card, type, legal))),
  );
}

// ---- the log ----------------------------------------------------------------------------

/** An event in words; reading the log also tells where my hand last came from (`my.arrivedFrom`). */
function describe(my, event) {
  const { ctx } = my;
  const n = (seat) => ctx.nameOf(seat);
  const card = (id) => cardName({ id });
  const you = ctx.game && ctx.game.table ? ctx.game.table.you : null;
  switch (event.type) {
    case "round_started":
      my.arrivedFrom = null;
      return describeFamily(event, n, card);
    case "play":
      if (event.seat === you) my.arrivedFrom = null; // this hand has moved on since
      if (event.target !== undefined) return t("log.play_target", { name: n(event.seat), card: card(event.card), target: n(event.target) });
      return event.colour
        ? t("splash.log_play_colour", { name: n(event.seat), card: card(event.card), colour: colourName(event.colour) })
        : t("log.play", { name: n(event.seat), card: card(event.card) });
    case "draw": {
      const keys = {
        until_playable: "nomercy.log_draw_until",
        stack: "log.draw_stack",
        roulette: "nomercy.log_draw_roulette",
        caught: "log.draw_caught",
        timeout: "log.draw_timeout",
        opening: "log.draw_opening",
      };
      // A Roulette's reveal is face up: its cards are in every seat's event.
      let text = t(keys[event.reason] || "log.draw_voluntary", { name: n(event.seat), count: event.count });
      if (Array.isArray(event.cards) && event.cards.length) text += ` (${event.cards.map(card).join(", ")})`;
      return text;
    }
    case "stacked":
      return t("log.stacked", { name: n(event.seat), count: event.total });
    case "stack_cancelled":
      return t("log.stack_cancelled", { name: n(event.seat), count: event.total });
    case "knocked_out":
      return t("nomercy.log_knocked_out", { name: n(event.seat), count: event.count });
    case "round_over":
      // Won by being the last one left: the hands of those knocked out score nothing, so the
      // family's "scored 0 points" would contradict the bonuses just logged.
      return wonAsLastStanding(event) ? t("nomercy.log_round_last", { name: n(event.winner), round: event.round }) : null;
    case "bonus":
      return t("nomercy.log_bonus", { name: n(event.seat), points: formatNumber(event.points), victim: n(event.victim) });
    case "discarded_all":
      return t("nomercy.log_discarded_all", { name: n(event.seat), count: (event.cards || []).length, colour: colourName(event.colour) });
    case "colour_chosen":
      return t("splash.log_colour_chosen", { name: n(event.seat), colour: colourName(event.colour) });
    case "swap":
      if (event.seat === you) my.arrivedFrom = event.target;
      else if (event.target === you) my.arrivedFrom = event.seat;
      return t("log.swap", { name: n(event.seat), target: n(event.target) });
    case "hands_passed":
      if (you !== null && ctx.game.table) my.arrivedFrom = previousSeat(ctx.game.table, event.direction);
      return t("log.hands_passed", { direction: t(`table.${event.direction}`) });
    case "reshuffled":
      return t("nomercy.log_reshuffled");
    default:
      return FAMILY_EVENTS.has(event.type) ? describeFamily(event, n, card) : null;
  }
}

/** Who handed me their hand in a 0's pass: the seat before mine in ``direction``. */
function previousSeat(table, direction) {
  const n = table.seats.length;
  const step = direction === "clockwise" ? -1 : 1;
  const out = new Set(table.knocked_out || []);
  for (let i = 1; i < n; i += 1) {
    const seat = (((table.you + step * i) % n) + n) % n;
    if (table.seats[seat].active && !out.has(seat)) return seat;
  }
  return null;
}
