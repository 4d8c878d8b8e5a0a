// Uno All Wild's table (games/index.js describes what a renderer is): the other seats, the
// piles, the prompt, the action buttons, the hand, and this game's events in words.
//
// Everything comes from the game view's `table` and its `legal_actions`: a card is playable
// exactly when an action for it is listed, and the buttons send those actions back (through
// the screen's `send`, which adds `expected_version` and an Idempotency-Key).
//
// House rules (docs/rules.md): a stack owed is shown with its total, who must answer, the
// stackable cards and "Take N cards" (take_stack); double down and mercy are listed as templates
// (`choose`: count cards out of `from`, maybe targets): the hand switches into a mode where the
// player picks that many cards and confirms (play_pair, mercy); under blind play the hand is
// face down (its size only) and "Play top card" sends play_top, a target is picked after the
// reveal (choose_target); speed mode's short clock counts down in seconds (a bar under the head).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { help } from "./uno_all_wild_help.js";
import { groupCount, groupHand, groupLabel, handHead, handOrderer, playableOf } from "../table/hand.js";
import { describeFamily, drawnCards, drawPile, opponents, promptArea, roundSummary, showDrawnCard, stackSlot, tableHead, toggleUno, unoButton, unoHint } from "./uno_shared.js";

// ---- the cards: every card is wild, so colour and symbol only tell the types apart -----------

const SYMBOLS = {
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

const cardName = (type) => t(`card.${type}`);
const cardType = (id) => String(id).replace(/-\d+$/, "");

export const renderer = {
  kind: "uno_all_wild",
  create,
  // The help sheet's words (uno_all_wild_help.js), each card drawn as in the hand.
  help: { ...help, face: (type) => h("span", { class: `card card-${type}`, "data-symbol": SYMBOLS[type], "aria-hidden": "true" }) },
  // A card by its id, drawn small with its name: the replay page's hands (views/replay.js).
  cardFace(id) {
    const type = cardType(id);
    return h("span", { class: `card card-${type}`, "data-symbol": SYMBOLS[type], role: "img", "aria-label": cardName(type) });
  },
};

function create(ctx) {
  const { nameOf, screen } = ctx;
  // This player's state of the table: UNO armed for the next play, picking cards for a template
  // (null, "pair" for double down or "mercy", with the ids picked in order), the hand's order.
  const my = { ctx, unoArmed: false, mode: null, picked: [], orderHand: handOrderer() };
  return {
    table: () => tableView(my),
    describe: (event) => describe(nameOf, event),
    roundSummary: (r, gains) => roundSummary(r, nameOf, { gains, face: renderer.cardFace }),
    actionDone() {
      my.unoArmed = false;
      my.mode = null;
      my.picked = [];
    },
    afterRender: () => showDrawnCard(screen),
    focusAfterAction: ".hand button:not([disabled])",
  };
}

// ---- the target picker (Targeted Draw 2, Force Swap, opening choice) ----------------------

/** The shared seat picker, each seat with its number of cards. */
function pickTarget(ctx, title, seats) {
  const table = ctx.game.table;
  return ctx.pickSeat(title, seats, (seat) => t("table.cards", { count: table.seats[seat].hand_size }));
}

async function playCard(my, card, actions, type) {
  const { ctx } = my;
  const targets = actions.filter((a) => a.target !== undefined).map((a) => a.target);
  const base = type === "play_drawn" ? { type } : { type, card: card.id };
  if (my.unoArmed) base.uno = true;
  if (targets.length) {
    const title = card.type === "force_swap" ? t("table.pick_swap") : t("table.pick_draw2");
    const target = await pickTarget(ctx, title, targets);
    if (target === null) return;
    await ctx.send({ ...base, target });
  } else {
    await ctx.send(base);
  }
}

/** Double down: the two cards picked, each with its own target when the pair needs them. */
async function playPair(my, template, cards) {
  const { ctx } = my;
  const action = { type: "play_pair", cards };
  const pick = template.choose;
  if (pick.targets) {
    const swap = cardType(cards[0]) === "force_swap";
    const targets = [];
    for (let n = 1; n <= pick.targets; n += 1) {
      const target = await pickTarget(ctx, t(swap ? "table.pick_pair_swap" : "table.pick_pair_draw2", { n }), pick.target_from);
      if (target === null) return;
      targets.push(target);
    }
    action.targets = targets;
  }
  if (my.unoArmed) action.uno = true;
  await ctx.send(action);
}

/** Blind play: a revealed card that needs a target opens the picker at once. */
async function chooseOpenTarget(ctx) {
  const table = ctx.game && ctx.game.table;
  if (!table || table.phase !== "choose") return;
  const choice = table.pending_choice;
  const targets = table.legal_actions.filter((a) => a.type === "choose_target").map((a) => a.target);
  if (!choice || choice.seat !== table.you || !targets.length) return;
  // The picker covers the table: its title says what was revealed.
  const title = choice.effect === "force_swap" ? t("table.prompt_blind_swap") : t("table.prompt_blind_draw2");
  const target = await pickTarget(ctx, title, targets);
  if (target !== null) await ctx.send({ type: "choose_target", target });
}

function togglePick(my, id, template) {
  const count = template.choose.count;
  if (my.picked.includes(id)) my.picked = my.picked.filter((p) => p !== id);
  else if (my.mode === "pair") {
    // A card of another type starts a new pair.
    const same = my.picked.filter((p) => template.choose.from.includes(p));
    my.picked = [...same, id].slice(-count);
  } else if (my.picked.length < count) my.picked = [...my.picked, id];
  my.ctx.render();
}

function setMode(my, next) {
  const { screen } = my.ctx;
  my.mode = next;
  my.picked = [];
  my.ctx.render();
  // Entering a mode: to the first card that may be picked; leaving it: back to the tools.
  const to = next ? screen.querySelector(".hand button[aria-pressed]:not([aria-disabled='true'])") : screen.querySelector(".hand-tools button");
  to?.focus({ preventScroll: true });
}

function prompt(my, table, legal, myTurn) {
  const { nameOf } = my.ctx;
  const { mode, picked } = my;
  if (mode === "pair") return t("table.prompt_pair", { n: picked.length });
  if (mode === "mercy") return t("table.prompt_mercy", { n: picked.length });
  const blind = Boolean(table.hand_hidden);
  if (table.phase === "choose") {
    const choice = table.pending_choice;
    if (choice && choice.seat === table.you) {
      const swap = choice.effect === "force_swap";
      if (choice.reason === "blind") return swap ? t("table.prompt_blind_swap") : t("table.prompt_blind_draw2");
      return swap ? t("table.prompt_choose_swap") : t("table.prompt_choose_draw2");
    }
    return t("table.prompt_they_choose", { name: nameOf(table.current_seat) });
  }
  if (table.stack) {
    const count = table.stack.total;
    if (table.stack.seat === table.you) return t("table.prompt_stack", { count });
    return t("table.prompt_stack_wait", { name: nameOf(table.stack.seat), count });
  }
  if (myTurn && table.phase === "drawn" && blind) return t("table.prompt_blind_drawn");
  if (myTurn && table.phase === "drawn" && table.drawn_card) {
    return t("table.prompt_drawn", { card: cardName(table.drawn_card.type) });
  }
  if (myTurn && blind) return t("table.prompt_blind");
  if (myTurn) {
    return legal.some((a) => a.type === "draw") ? t("table.prompt_play_or_draw") : t("table.prompt_play");
  }
  return t("table.prompt_wait", { name: nameOf(table.current_seat) });
}

/** What the table shows now, read once per drawing from the view and this player's mode. */
function facts(my) {
  const { ctx, orderHand } = my;
  const game = ctx.game;
  const busy = ctx.busy;
  const table = game.table;
  const legal = busy ? [] : table.legal_actions;
  const myTurn = table.current_seat === table.you;
  const blind = Boolean(table.hand_hidden);
  const mine = table.seats[table.you];
  // Templates (docs/api.md, "Actions"): one per pair type held, one for mercy.
  const pairs = legal.filter((a) => a.type === "play_pair" && a.choose);
  const mercy = legal.find((a) => a.type === "mercy") || null;
  // A mode ends when its template is gone (the turn passed, the hand dropped below 15); while
  // a request is on its way (busy) the listed actions are hidden, the mode stays.
  if (!busy) {
    if (my.mode === "pair" && !pairs.length) my.mode = null;
    if (my.mode === "mercy" && !(mercy && mercy.choose)) my.mode = null;
    if (!my.mode) my.picked = [];
  }
  const pairOf = (id) => pairs.find((a) => a.choose.from.includes(id)) || null;
  const pickedPair = my.picked.length ? pairOf(my.picked[0]) : null;
  if (my.mode === "pair" && my.picked.some((id) => pairOf(id) !== pickedPair)) my.picked = [];
  if (my.mode === "mercy" && mercy?.choose) my.picked = my.picked.filter((id) => mercy.choose.from.includes(id));
  const playDrawn = legal.filter((a) => a.type === "play_drawn");
  const size = mine.hand_size;
  const canArm =
    myTurn &&
    ((size === 2 && (legal.some((a) => a.type === "play" || a.type === "play_top") || playDrawn.length > 0)) ||
      (size === 3 && pairs.length > 0));
  return {
    busy,
    table,
    legal,
    myTurn,
    blind,
    size,
    options: game.options || table.options || {},
    hand: blind ? [] : orderHand(table.hand || []),
    drawn: table.phase === "drawn" && myTurn ? table.drawn_card : null,
    playDrawn,
    pairs,
    mercy,
    pairOf,
    pickedPair,
    uno: { canUno: legal.some((a) => a.type === "uno"), canArm, armed: my.unoArmed, said: mine.uno, armHint: size === 3 ? "table.uno_arm_pair" : "table.uno_arm" },
  };
}

/** A group of identical cards of my hand (every card of a type is alike), or the card just
 * drawn: playable exactly when a `play` of one of them (or `play_drawn`) is listed, and a tap
 * plays that one. */
function handCard(my, f, group) {
  const { drawn, legal } = f;
  const count = group.cards.length;
  const isDrawn = Boolean(drawn) && count === 1 && drawn.id === group.cards[0].id;
  const card = isDrawn ? group.cards[0] : playableOf(group.cards, legal) || group.cards[0];
  const actions = isDrawn ? f.playDrawn : legal.filter((a) => a.type === "play" && a.card === card.id);
  const playable = actions.length > 0;
  const label = groupLabel(
    playable
      ? t(actions.some((a) => a.target !== undefined) ? "table.play_card_target" : "table.play_card", { card: cardName(card.type) })
      : cardName(card.type),
    count,
  );
  return h(
    "li",
    { key: group.key },
    h(
      "button",
      {
        type: "button",
        class: `card card-${card.type} ${isDrawn ? "drawn" : ""}`,
        "data-symbol": SYMBOLS[card.type],
        "data-count": groupCount(count),
        "aria-label": isDrawn ? `${label} (${t("table.just_drawn")})` : label,
        "aria-disabled": playable ? false : "true",
        // A card that cannot be played now is no tab stop: Tab goes from one playable card to the next.
        tabindex: playable ? null : -1,
        onclick: () => playable && playCard(my, card, actions, isDrawn ? "play_drawn" : "play"),
      },
      h("span", { class: "card-name" }, cardName(card.type)),
    ),
  );
}

/** A card while picking: a toggle (aria-pressed) if the template offers it. */
function pickableCard(my, f, card) {
  const { mercy } = f;
  const { mode, picked } = my;
  const chosen = picked.includes(card.id);
  let template = null;
  if (mode === "pair") template = f.pairOf(card.id);
  else if (mercy?.choose?.from.includes(card.id)) template = mercy;
  const full = mode === "mercy" && picked.length >= 5;
  const usable = chosen || (template && !f.busy && !(full && !chosen));
  const name = cardName(card.type);
  return h(
    "li",
    { key: `pick-${card.id}` },
    h(
      "button",
      {
        type: "button",
        class: `card card-${card.type} ${chosen ? "picked" : ""}`,
        "data-symbol": SYMBOLS[card.type],
        "aria-label": t(mode === "pair" ? "table.pick_card_pair" : "table.pick_card_mercy", { card: name }),
        "aria-pressed": String(chosen),
        "aria-disabled": usable ? false : "true",
        onclick: () => usable && togglePick(my, card.id, template || mercy),
      },
      h("span", { class: "card-name" }, name),
    ),
  );
}

/** While picking: confirm the cards picked (the pair, mercy's five), or cancel. */
function pickButtons(my, f) {
  const { send } = my.ctx;
  const template = my.mode === "pair" ? f.pickedPair : f.mercy;
  const ready = Boolean(template) && !f.busy && my.picked.length === template.choose.count;
  const confirm = () => {
    if (!ready) return;
    if (my.mode === "pair") playPair(my, template, [...my.picked]);
    else send({ type: "mercy", cards: [...my.picked] });
  };
  return [
    h(
      "button",
      { type: "button", class: "primary confirm-pick", "aria-disabled": ready ? false : "true", onclick: confirm },
      my.mode === "pair" ? t("table.pair_confirm") : t("table.mercy_confirm", { n: my.picked.length }),
    ),
    h("button", { type: "button", class: "cancel-pick", onclick: () => setMode(my, null) }, t("common.cancel")),
  ];
}

/** Double down and mercy: a row of fixed height between the buttons and the hand. */
function handTools(my, f) {
  const { send } = my.ctx;
  const { options, blind, pairs, mercy } = f;
  if (my.mode) return h("div", { class: "hand-tools" }, pickButtons(my, f));
  const buttons = [];
  if (options.double_down && !blind) {
    const pair = () => pairs.length && setMode(my, "pair");
    buttons.push(h("button", { type: "button", class: "pair-mode", "aria-disabled": pairs.length ? false : "true", onclick: pair }, t("table.pair_mode")));
  }
  if (options.mercy) {
    const ready = Boolean(mercy);
    const start = () => {
      if (!ready) return;
      // Blind play: no choice, the top five go.
      if (mercy.choose) setMode(my, "mercy");
      else send({ type: "mercy" });
    };
    buttons.push(
      h("button", { type: "button", class: "mercy-mode", "aria-disabled": ready ? false : "true", onclick: start }, blind ? t("table.mercy_blind") : t("table.mercy_mode")),
    );
  }
  return h("div", { class: "hand-tools" }, buttons);
}

function pileArea(send, f) {
  const { table, options } = f;
  const top = table.discard_top;
  return h(
    "div",
    { class: "pile-area" },
    drawPile(send, table, f.legal.some((a) => a.type === "draw")),
    top
      ? h(
          "div",
          {
            key: top.id,
            class: `card big card-${top.type}`,
            "data-symbol": SYMBOLS[top.type],
            role: "img",
            "aria-label": t("table.discard_label", { card: cardName(top.type) }),
          },
          h("span", { class: "card-name", "aria-hidden": "true" }, cardName(top.type)),
        )
      : h("div", { class: "card big empty", role: "img", "aria-label": t("table.no_discard") }),
    // Stacking: a fixed slot beside the discard pile, filled while a stack is owed.
    options.stacking ? stackSlot(table.stack) : null,
  );
}

/** The middle button: choose a target (the opening card), play the top card (blind), or play
 * the card just drawn. */
function playButton(my, f) {
  const { ctx } = my;
  const { table, legal, blind, playDrawn } = f;
  const chooseTargets = legal.filter((a) => a.type === "choose_target").map((a) => a.target);
  if (chooseTargets.length) {
    const choose = async () => {
      const choice = table.pending_choice;
      const title = choice && choice.effect === "force_swap" ? t("table.pick_swap") : t("table.pick_draw2");
      const target = await pickTarget(ctx, title, chooseTargets);
      if (target !== null) ctx.send({ type: "choose_target", target });
    };
    return h("button", { type: "button", class: "primary", onclick: choose }, t("table.choose"));
  }
  if (blind && !playDrawn.length) {
    const top = () => ctx.send(my.unoArmed ? { type: "play_top", uno: true } : { type: "play_top" }, { after: () => chooseOpenTarget(ctx) });
    return h("button", { type: "button", class: "primary", disabled: !legal.some((a) => a.type === "play_top"), onclick: top }, t("table.play_top"));
  }
  const play = () =>
    blind ? ctx.send(my.unoArmed ? { type: "play_drawn", uno: true } : { type: "play_drawn" }, { after: () => chooseOpenTarget(ctx) }) : playCard(my, f.drawn, playDrawn, "play_drawn");
  return h("button", { type: "button", class: "primary", disabled: !playDrawn.length, onclick: play }, t("table.play_drawn"));
}

function actionsRow(my, f) {
  const { send } = my.ctx;
  const { table, legal, uno } = f;
  return h(
    "div",
    { class: "actions" },
    unoButton(send, { ...uno, onToggle: () => toggleUno(my) }),
    playButton(my, f),
    legal.some((a) => a.type === "take_stack")
      ? h("button", { type: "button", class: "take-stack", onclick: () => send({ type: "take_stack" }) }, t("table.take_stack", { count: table.stack.total }))
      : h("button", { type: "button", disabled: !legal.some((a) => a.type === "pass"), onclick: () => send({ type: "pass" }) }, t("table.pass")),
    h("p", { class: "uno-hint", id: "uno-hint" }, unoHint(uno)),
  );
}

function handArea(my, f) {
  const { ctx, orderHand, mode } = my;
  const { table, blind, size, hand, drawn } = f;
  let cards;
  // Face down: the backs only (the heading says how many), in the same fixed row.
  if (blind) {
    const backs = Array.from({ length: size }, (_, i) => h("li", { key: `back${i}` }, h("div", { class: "card back" })));
    cards = h("ul", { class: "hand hand-hidden", "aria-hidden": "true" }, backs);
  } else if (mode) {
    // Picking (a pair, mercy's five) shows every card: the cards picked are ids.
    cards = h("ul", { class: `hand picking picking-${mode}` }, hand.map((card) => pickableCard(my, f, card)));
  } else {
    cards = h("ul", { class: "hand" }, groupHand(hand, (card) => card.type, drawn).map((group) => handCard(my, f, group)));
  }
  const sort = (how) => {
    orderHand.sortBy(how);
    ctx.render();
  };
  return h(
    "section",
    { class: "hand-area", "aria-labelledby": "hand-title" },
    handHead({
      title: blind ? t("table.hand_hidden", { count: size }) : t("table.hand", { count: hand.length }),
      score: table.seats[table.you]?.score,
      modes: blind ? [] : ["type"],
      onSort: sort,
    }),
    cards,
  );
}

function tableView(my) {
  const { ctx } = my;
  const f = facts(my);
  const { table, legal, myTurn, options } = f;
  const stack = table.stack;
  return [
    ...tableHead(ctx, table, options),
    // A seat that owes a stack says how much.
    opponents(ctx, table, legal, (seat) => (stack && stack.seat === seat ? t("table.owes", { count: stack.total }) : null)),
    pileArea(ctx.send, f),
    promptArea(ctx, { myTurn, text: prompt(my, table, legal, myTurn) }),
    actionsRow(my, f),
    // Present for the whole game when a rule needs it (double down has no pairs under blind play).
    (options.double_down && !options.blind_play) || options.mercy ? handTools(my, f) : null,
    handArea(my, f),
    ctx.logView(),
    ctx.leaveRow(),
  ];
}

// ---- the log ----------------------------------------------------------------------------

function describe(nameOf, event) {
  const n = (seat) => nameOf(seat);
  const card = (id) => cardName(cardType(id));
  switch (event.type) {
    case "play":
      return event.target !== undefined
        ? t("log.play_target", { name: n(event.seat), card: card(event.card), target: n(event.target) })
        : t("log.play", { name: n(event.seat), card: card(event.card) });
    case "draw": {
      const key = `log.draw_${event.reason}`;
      let text = t(key, { name: n(event.seat), count: event.count });
      if (text === key) text = t("log.draw_voluntary", { name: n(event.seat), count: event.count });
      return text + drawnCards(event, card);
    }
    case "swap":
      return t("log.swap", { name: n(event.seat), target: n(event.target) });
    case "hands_passed":
      return t("log.hands_passed", { direction: t(`table.${event.direction}`) });
    case "fizzled":
      return t("log.fizzled", { name: n(event.seat), card: cardName(event.card_type) });
    case "no_effect":
      return t("log.no_effect", { name: n(event.seat), card: cardName(event.card_type) });
    case "target_chosen":
      return t("log.target_chosen", { name: n(event.seat), target: n(event.target) });
    // House rules
    case "stacked":
      return t("log.stacked", { name: n(event.seat), count: event.total });
    case "stack_cancelled":
      return t("log.stack_cancelled", { name: n(event.seat), count: event.total });
    case "not_stackable":
      return t("log.not_stackable", { name: n(event.seat), card: cardName(event.card_type || cardType(event.card)) });
    case "play_pair": {
      const kind = cardName(event.card_type || cardType(event.cards[0]));
      const targets = event.targets || [];
      return targets.length === 2
        ? t("log.play_pair_targets", { name: n(event.seat), card: kind, first: n(targets[0]), second: n(targets[1]) })
        : t("log.play_pair", { name: n(event.seat), card: kind });
    }
    default:
      return describeFamily(event, n, card);
  }
}
