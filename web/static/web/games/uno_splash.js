// Uno Splash's table (classic UNO; games/index.js describes what a renderer is): the other
// seats, the piles with the colour in force, the prompt, the action buttons, the hand, and this
// game's events in words.
//
// Everything comes from the game view's `table` and its `legal_actions`: a card is playable
// exactly when an action for it is listed, and the buttons send those actions back (through
// the screen's `send`, which adds `expected_version` and an Idempotency-Key).
//
// Colour is never the only sign (docs/rules-uno-splash.md, "For client developers"): every card
// shows its colour's letter (R, Y, G, B) and its number or symbol, and its name says both. A wild
// (or the opening Wild, or a drawn wild) opens the colour picker in the actions row: four buttons
// with the colour's letter and name. A Wild Draw Four played on you brings "Accept" and
// "Challenge"; the challenged hand is shown to the challenger in the log.
//
// Stacking (house rule): as All Wild's table, a slot beside the discard pile shows the total owed
// (uno_shared.stackSlot), the seat that owes it says so, and its player stacks a listed Draw card
// from the hand, takes the total ("Take N cards", take_stack) or, with a Wild Draw Four on top,
// challenges it first.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { help } from "./uno_splash_help.js";
import { groupHand, handHead, handOrderer } from "../table/hand.js";
import { askColour, colourActions, colourInForce, colourName, colouredCards, colouredFaces, colouredHand, colouredHandCard, discardTop, describeFamily, drawnCards, drawPile, opponents, promptArea, roundSummary, showDrawnCard, stackSlot, tableHead, toggleUno, unoButton, unoHint } from "./uno_shared.js";

const SYMBOL = { skip: "⊘", reverse: "⇄", draw2: "+2", wild: "W", wd4: "+4" };

const CARDS = colouredCards({ symbols: SYMBOL, names: "splash", wildClass: "splash" });
const { cardName, cardSymbol, cardClass, faceOf } = CARDS;

// A sample card of each key of the help sheet (uno_splash_help.js), drawn as in the hand.
const HELP_SAMPLES = { number: "red-7-a", skip: "blue-skip-a", reverse: "green-reverse-a", draw2: "yellow-draw2-a", wild: "wild-1", wd4: "wd4-1" };

const FACES = colouredFaces(CARDS, HELP_SAMPLES);

export const renderer = {
  kind: "uno_splash",
  create,
  help: { ...help, face: FACES.helpFace },
  cardFace: FACES.cardFace,
};

function create(ctx) {
  const { nameOf, screen } = ctx;
  // This player's state of the table: UNO armed for the next play, a wild waiting for its colour
  // ({type, card} of the play to send), Mercy's cards being picked, the hand's order.
  const my = { ctx, unoArmed: false, colourFor: null, picking: false, picked: [], orderHand: handOrderer() };
  return {
    table: () => tableView(my),
    describe: (event) => describe(nameOf, event),
    roundSummary: (r, gains) => roundSummary(r, nameOf, { gains, face: renderer.cardFace }),
    actionDone() {
      my.unoArmed = false;
      my.colourFor = null;
      my.picking = false;
      my.picked = [];
    },
    afterRender: () => showDrawnCard(screen),
    focusAfterAction: ".hand button:not([aria-disabled='true'])",
  };
}

/** Play a card (or the drawn one): a wild first asks for its colour. */
function playCard(my, card, type) {
  const base = type === "play_drawn" ? { type } : { type, card: card.id };
  if (my.unoArmed) base.uno = true;
  if (!card.colour) {
    askColour(my, base);
    return;
  }
  my.ctx.send(base);
}

function prompt(my, table, legal, myTurn) {
  const { nameOf } = my.ctx;
  if (my.colourFor) return t("splash.prompt_colour");
  if (my.picking) return t("table.prompt_mercy", { n: my.picked.length });
  const choice = table.pending_choice;
  if (table.phase === "choose") {
    if (choice && choice.seat === table.you) return t("splash.prompt_opening_colour");
    return t("splash.prompt_they_name", { name: nameOf(table.current_seat) });
  }
  if (table.stack) {
    const count = table.stack.total;
    if (table.stack.seat === table.you) return t("table.prompt_stack", { count });
    return t("table.prompt_stack_wait", { name: nameOf(table.stack.seat), count });
  }
  if (table.phase === "respond" && choice) {
    if (choice.seat === table.you) return t("splash.prompt_respond", { name: nameOf(choice.owner) });
    return t("splash.prompt_they_respond", { name: nameOf(choice.seat) });
  }
  if (myTurn && table.phase === "drawn" && table.drawn_card) {
    return t("table.prompt_drawn", { card: cardName(table.drawn_card) });
  }
  if (myTurn) {
    return legal.some((a) => a.type === "play") ? t("table.prompt_play_or_draw") : t("splash.prompt_draw");
  }
  return t("table.prompt_wait", { name: nameOf(table.current_seat) });
}

function actionsRow(my, table, legal, state) {
  const { send } = my.ctx;
  const { playDrawn, canPass, canArm, canUno, mine } = state;
  const uno = { canUno, canArm, armed: my.unoArmed, said: mine.uno };
  const toggle = () => toggleUno(my);
  const colours = colourActions(my, legal);
  if (colours) return colours;
  if (legal.some((a) => a.type === "take_stack")) {
    const total = table.stack ? table.stack.total : 0;
    return h(
      "div",
      { class: "actions stack-answer" },
      unoButton(send, { ...uno, onToggle: toggle }),
      h("button", { type: "button", class: "take-stack", onclick: () => send({ type: "take_stack" }) }, t("table.take_stack", { count: total })),
      legal.some((a) => a.type === "challenge")
        ? h("button", { type: "button", class: "challenge", onclick: () => send({ type: "challenge" }) }, t("splash.challenge"))
        : null,
      h("p", { class: "uno-hint", id: "uno-hint" }, unoHint(uno)),
    );
  }
  if (legal.some((a) => a.type === "challenge")) {
    return h(
      "div",
      { class: "actions respond" },
      h("button", { type: "button", class: "primary accept", onclick: () => send({ type: "accept" }) }, t("splash.accept")),
      h("button", { type: "button", class: "challenge", onclick: () => send({ type: "challenge" }) }, t("splash.challenge")),
      h("p", { class: "uno-hint", id: "uno-hint" }, t("splash.challenge_hint")),
    );
  }
  const drawn = table.drawn_card;
  return h(
    "div",
    { class: "actions" },
    unoButton(send, { ...uno, onToggle: toggle }),
    h(
      "button",
      { type: "button", class: "primary", disabled: !playDrawn, onclick: () => playDrawn && drawn && playCard(my, drawn, "play_drawn") },
      t("table.play_drawn"),
    ),
    h("button", { type: "button", disabled: !canPass, onclick: () => send({ type: "pass" }) }, t("table.pass")),
    h("p", { class: "uno-hint", id: "uno-hint" }, unoHint(uno)),
  );
}

function pickableCard(my, card, mercy) {
  const chosen = my.picked.includes(card.id);
  const usable = chosen || (!my.ctx.busy && my.picked.length < 5 && mercy.choose.from.includes(card.id));
  return h(
    "li",
    { key: `pick-${card.id}` },
    h(
      "button",
      {
        type: "button",
        class: `${cardClass(card)} ${chosen ? "picked" : ""}`,
        "data-symbol": cardSymbol(card),
        "aria-label": t("table.pick_card_mercy", { card: cardName(card) }),
        "aria-pressed": String(chosen),
        "aria-disabled": usable ? false : "true",
        onclick: () => {
          if (!usable) return;
          my.picked = chosen ? my.picked.filter((id) => id !== card.id) : [...my.picked, card.id];
          my.ctx.render();
        },
      },
      h("span", { class: "card-name" }, cardName(card)),
    ),
  );
}

/** Double down: each pair listed (its two cards) as one button. */
function pairTools(my, pairs, hand) {
  const byId = new Map(hand.map((c) => [c.id, c]));
  return h(
    "div",
    { class: "hand-tools pairs" },
    pairs.length
      ? pairs.map((pair) => {
          const first = byId.get(pair.choose.from[0]);
          const action = { type: "play_pair", cards: [...pair.choose.from] };
          return h(
            "button",
            { type: "button", class: "pair-play", onclick: () => my.ctx.send(my.unoArmed ? { ...action, uno: true } : action) },
            t("splash.play_pair", { card: first ? cardName(first) : pair.choose.from[0] }),
          );
        })
      : h("span", { class: "muted" }, t("splash.no_pair")),
  );
}

function mercyTools(my, mercy) {
  const { send, render } = my.ctx;
  const pick = (on) => {
    my.picking = on;
    my.picked = [];
    render();
  };
  if (my.picking) {
    const ready = Boolean(mercy) && my.picked.length === 5 && !my.ctx.busy;
    return h(
      "div",
      { class: "hand-tools" },
      h(
        "button",
        { type: "button", class: "primary confirm-pick", "aria-disabled": ready ? false : "true", onclick: () => ready && send({ type: "mercy", cards: [...my.picked] }) },
        t("table.mercy_confirm", { n: my.picked.length }),
      ),
      h("button", { type: "button", class: "cancel-pick", onclick: () => pick(false) }, t("common.cancel")),
    );
  }
  return h(
    "div",
    { class: "hand-tools" },
    h(
      "button",
      { type: "button", class: "mercy-mode", "aria-disabled": mercy ? false : "true", onclick: () => mercy && pick(true) },
      t("table.mercy_mode"),
    ),
  );
}

/** A seat that owes the answer to a Wild Draw Four, or a stack, says so. */
function answering(table) {
  const stack = table.stack;
  const owes = table.phase === "respond" && table.pending_choice ? table.pending_choice.seat : null;
  return (seat) => (stack && stack.seat === seat ? t("table.owes", { count: stack.total }) : seat === owes ? t("splash.answering") : null);
}

function pileArea(send, table, canDraw, stacking) {
  const top = table.discard_top;
  const colour = table.colour;
  return h(
    "div",
    { class: "pile-area" },
    drawPile(send, table, canDraw),
    discardTop(CARDS, top),
    stacking ? stackSlot(table.stack) : null,
    colourInForce(colour),
  );
}

function tableView(my) {
  const { ctx, orderHand } = my;
  const game = ctx.game;
  const busy = ctx.busy;
  const table = game.table;
  const options = game.options || table.options || {};
  const legal = busy ? [] : table.legal_actions;
  const myTurn = table.current_seat === table.you;
  const mine = table.seats[table.you];
  const hand = orderHand(table.hand || []);
  const drawn = table.phase === "drawn" && myTurn ? table.drawn_card : null;
  const playDrawn = legal.some((a) => a.type === "play_drawn");
  const mercy = legal.find((a) => a.type === "mercy" && a.choose) || null;
  const pairs = legal.filter((a) => a.type === "play_pair" && a.choose);
  if (!busy) {
    if (my.colourFor && !legal.some((a) => a.type === my.colourFor.type)) my.colourFor = null;
    if (my.picking && !mercy) {
      my.picking = false;
      my.picked = [];
    }
  }
  const canArm =
    myTurn && ((mine.hand_size === 2 && (legal.some((a) => a.type === "play") || playDrawn)) || (mine.hand_size === 3 && pairs.length > 0));
  return [
    ...tableHead(ctx, table, options),
    opponents(ctx, table, legal, answering(table)),
    pileArea(ctx.send, table, legal.some((a) => a.type === "draw"), options.stacking),
    promptArea(ctx, { myTurn, text: prompt(my, table, legal, myTurn) }),
    actionsRow(my, table, legal, { playDrawn, canPass: legal.some((a) => a.type === "pass"), canArm, canUno: legal.some((a) => a.type === "uno"), mine }),
    options.double_down ? pairTools(my, pairs, hand) : null,
    options.mercy ? mercyTools(my, mercy) : null,
    h(
      "section",
      { class: "hand-area", "aria-labelledby": "hand-title" },
      handHead({
        title: t("table.hand", { count: hand.length }),
        score: table.seats[table.you]?.score,
        modes: ["colour", "number"],
        onSort: (mode) => {
          orderHand.sortBy(mode);
          ctx.render();
        },
      }),
      // Picking for mercy shows every card (the five picked are ids); playing shows groups.
      my.picking && mercy
        ? h("ul", { class: "hand picking picking-mercy" }, hand.map((card) => pickableCard(my, card, mercy)))
        : colouredHand(groupHand(hand, faceOf, drawn), (group) => colouredHandCard(CARDS, group, legal, drawn, (c, type) => playCard(my, c, type))),
    ),
    ctx.logView(),
    ctx.leaveRow(),
  ];
}

// ---- the log ----------------------------------------------------------------------------

function describe(nameOf, event) {
  const n = (seat) => nameOf(seat);
  const card = (id) => cardName({ id });
  switch (event.type) {
    case "opening_returned":
      return t("splash.log_opening_returned", { card: card(event.card) });
    case "play":
      return event.colour
        ? t("splash.log_play_colour", { name: n(event.seat), card: card(event.card), colour: colourName(event.colour) })
        : t("log.play", { name: n(event.seat), card: card(event.card) });
    case "draw": {
      const reasons = { voluntary: "voluntary", draw2: "draw2", draw4: "draw4", caught: "caught", timeout: "timeout", opening: "opening", stack: "stack" };
      const key = event.reason === "challenge" ? "splash.log_draw_challenge" : `log.draw_${reasons[event.reason] || "voluntary"}`;
      return t(key, { name: n(event.seat), count: event.count }) + drawnCards(event, card);
    }
    case "colour_chosen":
      return t("splash.log_colour_chosen", { name: n(event.seat), colour: colourName(event.colour) });
    case "response_required":
      return t("splash.log_response_required", { name: n(event.seat) });
    case "accepted":
      return t("splash.log_accepted", { name: n(event.seat) });
    case "challenge": {
      const verdict = t(event.succeeded ? "splash.log_challenge_won" : "splash.log_challenge_lost", { name: n(event.seat), target: n(event.target) });
      return Array.isArray(event.hand) ? `${verdict} ${t("splash.log_challenge_hand", { cards: event.hand.map(card).join(", ") || "—" })}` : verdict;
    }
    case "response_cancelled":
      return t("splash.log_response_cancelled", { name: n(event.seat) });
    case "stacked":
      return t("log.stacked", { name: n(event.seat), count: event.total });
    case "stack_cancelled":
      return t("log.stack_cancelled", { name: n(event.seat), count: event.total });
    case "play_pair":
      return t("log.play_pair", { name: n(event.seat), card: card((event.cards || [])[0]) });
    default:
      return describeFamily(event, n, card);
  }
}
