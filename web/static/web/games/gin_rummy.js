// Gin Rummy's table (games/index.js describes what a renderer is; the rules: docs/gin_rummy.md).
//
// Two seats: the opponent's card count and the match score above, the stock (its size) and the
// discard pile (its top) in the middle, the prompt and the actions (take the upcard or pass it,
// knock, big gin), and my hand laid out as the view arranges it: each meld a group, then the
// deadwood with its count (the view's `melds`, `deadwood`, `deadwood_count`, so the count is the
// engine's, live after every draw).
//
// Everything comes from the view's `table` and its `legal_actions`: the stock and the discard
// pile are buttons exactly while a draw from them is listed; a card is a discard button exactly
// while a discard of it is listed (so never the card just taken from the discard pile); "Knock"
// turns the hand into a picker of the knock discards listed. The round's end (both hands, their
// melds, the defender's layoffs, the knock discard, the points) is `roundSummary` (gin_round.js),
// from the round result of the view, and the last round stays on the table under "Last round".

import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { cardClass, cardName, cardSymbol, faceCard } from "./gin_cards.js";
import { help } from "./gin_rummy_help.js";
import { lastRound, roundLine, roundSummary } from "./gin_round.js";
// The prompt is drawn as the Uno games draw theirs (a bot playing my seat included).
import { promptArea } from "./uno_shared.js";

// A sample card of each key of the help sheet (gin_rummy_help.js), drawn as in the hand.
const HELP_SAMPLES = { ace: "As", pip: "7h", court: "Kd" };

export const renderer = {
  kind: "gin_rummy",
  create,
  // A card by its id, with its name: the replay page's hands (views/replay.js).
  cardFace: (id) => faceCard(id),
  help: { ...help, face: (key, held = null) => h("span", { class: cardClass(held || HELP_SAMPLES[key]), "data-symbol": cardSymbol(held || HELP_SAMPLES[key]), "aria-hidden": "true" }) },
};

/** The table of one game. What its drawing shares is `my`: the renderer's `ctx` and whether the
 * hand is picking the knock discard. */
function create(ctx) {
  // Picking the knock discard: the hand's cards are the knock discards listed.
  const my = { ctx, knocking: false };
  return {
    table: () => tableView(my),
    describe: (event) => describe(ctx, event),
    roundSummary: (r) => roundSummary(ctx, r),
    actionDone() {
      my.knocking = false;
    },
    focusAfterAction: ".gin-hand button.card:not([aria-disabled='true'])",
  };
}

const has = (legal, type, extra = {}) =>
  legal.some((a) => a.type === type && Object.entries(extra).every(([k, v]) => a[k] === v));

function prompt({ ctx, knocking }, table, legal, myTurn) {
  const { nameOf } = ctx;
  if (knocking) return t("gin.prompt_knock");
  if (!myTurn) {
    if (table.current_seat === null || table.current_seat === undefined) return t("gin.prompt_round_over");
    return table.phase === "offer"
      ? t("gin.prompt_they_offer", { name: nameOf(table.current_seat) })
      : t("table.prompt_wait", { name: nameOf(table.current_seat) });
  }
  const top = table.discard_top ? cardName(table.discard_top.id) : "";
  if (table.phase === "offer") return t("gin.prompt_offer", { card: top });
  if (table.phase === "draw") {
    return has(legal, "draw", { source: "discard" }) ? t("gin.prompt_draw", { card: top }) : t("gin.prompt_draw_stock");
  }
  if (has(legal, "knock")) return t("gin.prompt_discard_or_knock");
  return t("gin.prompt_discard");
}

function head(ctx, table) {
  return h(
    "div",
    { class: "table-head" },
    h("h1", { class: "visually-hidden" }, t("gin.title")),
    h("span", { class: "round" }, t("table.round", { round: table.round })),
    ctx.turnTimer(),
    ctx.connectionState(),
    ctx.helpButton?.(),
  );
}

/** The opponent's seat: name, cards held, score and rounds won, whose turn. */
function opponent(ctx, table) {
  const { nameOf } = ctx;
  const s = table.seats[1 - table.you];
  const p = ctx.player(s.seat);
  const current = s.seat === table.current_seat;
  const flag = !s.active ? t("table.left") : current ? t("table.their_turn") : s.seat === table.dealer ? t("gin.dealer") : "";
  return h(
    "ul",
    { class: "opponents gin-opponents", "aria-label": t("table.opponents") },
    h(
      "li",
      { key: `s${s.seat}`, class: `seat ${current ? "current" : ""} ${s.active ? "" : "gone"}` },
      h("span", { class: "seat-name" }, p ? p.name : nameOf(s.seat)),
      h("span", { class: "seat-cards" }, t("table.cards", { count: s.hand_size })),
      h("span", { class: "seat-flags" }, flag),
      h(
        "span",
        { class: "seat-score" },
        h("span", { class: "points" }, t("table.points", { points: formatNumber(s.score) })),
        h("span", { class: "seat-bot" }, ctx.botTag(p)),
      ),
    ),
  );
}

/** The match score: both seats' points (me first) and the target. */
function matchScore({ nameOf }, table) {
  const mine = table.seats[table.you];
  const theirs = table.seats[1 - table.you];
  return h(
    "p",
    { class: "gin-score" },
    h("span", { class: "gin-score-title" }, t("gin.match_score", { points: formatNumber(table.target_score) })),
    h("span", { class: "gin-score-seat me" }, t("gin.score_line", { name: t("lobby.you"), points: formatNumber(mine.score), rounds: formatNumber(mine.rounds_won) })),
    h("span", { class: "gin-score-seat" }, t("gin.score_line", { name: nameOf(theirs.seat), points: formatNumber(theirs.score), rounds: formatNumber(theirs.rounds_won) })),
  );
}

function pileArea({ send }, table, legal) {
  const fromStock = has(legal, "draw", { source: "stock" });
  const fromDiscard = has(legal, "draw", { source: "discard" });
  const upcard = has(legal, "take_upcard");
  const top = table.discard_top;
  const takeable = Boolean(top) && (fromDiscard || upcard);
  return h(
    "div",
    { class: "pile-area gin-piles" },
    h(
      "button",
      {
        type: "button",
        class: "draw-pile gin-stock",
        disabled: !fromStock,
        "data-count": table.stock_size,
        "aria-label": fromStock ? t("gin.stock_draw_label", { count: table.stock_size }) : t("gin.stock_label", { count: table.stock_size }),
        onclick: () => fromStock && send({ type: "draw", source: "stock" }),
      },
      h("span", { class: "pile-label", key: fromStock ? "draw" : "pile" }, fromStock ? t("table.draw") : t("gin.stock")),
    ),
    top
      ? h(
          "button",
          {
            type: "button",
            key: top.id,
            class: `${cardClass(top.id)} big gin-discard ${takeable ? "takeable" : ""}`,
            "data-symbol": cardSymbol(top.id),
            "aria-disabled": takeable ? false : "true",
            "aria-label": takeable ? t("gin.take_label", { card: cardName(top.id) }) : t("table.discard_label", { card: cardName(top.id) }),
            onclick: () => {
              if (upcard) send({ type: "take_upcard" });
              else if (fromDiscard) send({ type: "draw", source: "discard" });
            },
          },
          h("span", { class: "card-name", "aria-hidden": "true" }, cardName(top.id)),
        )
      : h("div", { class: "card big empty", role: "img", "aria-label": t("table.no_discard") }),
  );
}

/** Two buttons in fixed places: the upcard's (take, pass) during the offer, else knock and big gin. */
function actionsRow(my, table, legal) {
  const { send, render, screen } = my.ctx;
  if (table.phase === "offer" && has(legal, "take_upcard")) {
    return h(
      "div",
      { class: "actions gin-actions" },
      h("button", { type: "button", class: "primary take-upcard", onclick: () => send({ type: "take_upcard" }) }, t("gin.take_upcard")),
      h("button", { type: "button", class: "pass-upcard", disabled: !has(legal, "pass"), onclick: () => send({ type: "pass" }) }, t("gin.pass")),
    );
  }
  const canKnock = has(legal, "knock");
  const bigGin = has(legal, "big_gin");
  return h(
    "div",
    { class: "actions gin-actions" },
    my.knocking
      ? h("button", { type: "button", class: "cancel-pick", onclick: () => { my.knocking = false; render(); } }, t("common.cancel"))
      : h(
          "button",
          {
            type: "button",
            class: "knock",
            disabled: !canKnock,
            onclick: () => {
              my.knocking = true;
              render();
              screen.querySelector(".gin-hand button.card:not([aria-disabled='true'])")?.focus({ preventScroll: true });
            },
          },
          t("gin.knock"),
        ),
    h("button", { type: "button", class: `big-gin ${bigGin ? "primary" : ""}`, disabled: !bigGin, onclick: () => send({ type: "big_gin" }) }, t("gin.big_gin")),
  );
}

function handCard({ ctx, knocking }, id, legal, table) {
  const { send } = ctx;
  const type = knocking ? "knock" : "discard";
  const usable = has(legal, type, { card: id });
  const name = cardName(id);
  const taken = table.taken === id;
  let label = usable ? t(knocking ? "gin.knock_with" : "gin.discard_card", { card: name }) : name;
  if (taken) label = `${label} (${t("gin.just_taken")})`;
  return h(
    "li",
    { key: id },
    h(
      "button",
      {
        type: "button",
        class: `${cardClass(id)} ${taken ? "taken" : ""}`,
        "data-symbol": cardSymbol(id),
        "aria-label": label,
        "aria-disabled": usable ? false : "true",
        tabindex: usable ? null : -1,
        onclick: () => usable && send({ type, card: id }),
      },
      h("span", { class: "card-name", "aria-hidden": "true" }, name),
    ),
  );
}

/** My hand as the view arranges it: each meld a group, then the deadwood and its count. */
function handArea(my, table, legal) {
  const melds = Array.isArray(table.melds) ? table.melds : [];
  const deadwood = Array.isArray(table.deadwood) ? table.deadwood : [];
  // Any card the arrangement does not name (never expected) still shows, with the deadwood.
  const named = new Set([...melds.flat(), ...deadwood]);
  const rest = (table.hand || []).map((c) => c.id).filter((id) => !named.has(id));
  const groups = [
    ...melds.map((meld, i) => ({ key: `m${meld.join("")}`, label: t("gin.meld_n", { n: i + 1 }), cards: meld, cls: "meld" })),
    { key: "deadwood", label: t("gin.deadwood_count", { count: formatNumber(table.deadwood_count) }), cards: [...deadwood, ...rest], cls: "deadwood" },
  ];
  return h(
    "section",
    { class: "hand-area gin-hand-area", "aria-labelledby": "hand-title" },
    h(
      "h2",
      { id: "hand-title", class: "hand-title" },
      t("table.hand", { count: (table.hand || []).length }),
      " · ",
      h("span", { class: "gin-deadwood-total", key: `dw${table.deadwood_count}` }, t("gin.deadwood_count", { count: formatNumber(table.deadwood_count) })),
    ),
    h(
      "div",
      { class: `gin-hand ${my.knocking ? "picking" : ""}` },
      groups.map((g) =>
        h(
          "div",
          { key: g.key, class: `gin-group gin-${g.cls}` },
          h("span", { class: "gin-group-label" }, g.label),
          h("ul", { class: "hand gin-group-cards", "aria-label": g.label }, g.cards.map((id) => handCard(my, id, legal, table))),
        ),
      ),
    ),
  );
}


function tableView(my) {
  const { ctx } = my;
  const game = ctx.game;
  const table = game.table;
  const legal = ctx.busy ? [] : table.legal_actions || [];
  const myTurn = table.current_seat === table.you;
  if (!ctx.busy && my.knocking && !has(legal, "knock")) my.knocking = false;
  return [
    head(ctx, table),
    // The opponent's move in words (took the upcard, drew from the stock, discarded the 9♥).
    ctx.newsView(),
    opponent(ctx, table),
    matchScore(ctx, table),
    pileArea(ctx, table, legal),
    promptArea(ctx, { myTurn, text: prompt(my, table, legal, myTurn) }),
    actionsRow(my, table, legal),
    handArea(my, table, legal),
    lastRound(ctx, table),
    ctx.logView(),
    ctx.leaveRow(),
  ];
}

// ---- the log ----------------------------------------------------------------------------

function describe({ nameOf }, event) {
  const n = (seat) => nameOf(seat);
  switch (event.type) {
    case "deal":
      return t("gin.log_deal", { round: event.round, dealer: n(event.dealer), card: cardName(event.upcard) });
    case "hand":
      return null;
    case "pass":
      return t("gin.log_pass", { name: n(event.seat) });
    case "take_upcard":
      return t("gin.log_take_upcard", { name: n(event.seat), card: cardName(event.card) });
    case "draw":
      if (event.source === "discard") return t("gin.log_draw_discard", { name: n(event.seat), card: cardName(event.card) });
      return event.card ? t("gin.log_draw_stock_seen", { name: n(event.seat), card: cardName(event.card) }) : t("gin.log_draw_stock", { name: n(event.seat) });
    case "discard":
      return t("gin.log_discard", { name: n(event.seat), card: cardName(event.card) });
    case "knock":
      return t("gin.log_knock", { name: n(event.seat) });
    case "big_gin":
      return t("gin.log_big_gin", { name: n(event.seat) });
    case "round_over":
      return roundLine(nameOf, event);
    default:
      return null;
  }
}
