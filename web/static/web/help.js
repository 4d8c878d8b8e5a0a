// The help sheet of the table (issue 21, §1): what each card does, the rules of the game in
// short, and a first-game walkthrough, for every game.
//
// The words are each game's own: a renderer (games/<kind>.js) carries `help`, written beside it
// in games/<kind>_help.js, with
//
//   cards(game)        [{key, name, text}]: each card (or kind of card) and what it does
//   cardOf(id)         the key of cards() that a card of the hand (its id) is, or null
//   rules(game)        the rules in short, one sentence or two each
//   walkthrough(game)  the first-game walkthrough, a few steps
//   face(key, id)      (the renderer's) the card drawn as on the table: the card `id` held, else
//                      a card of that key
//
// This module only draws them, so a game added later brings its help and needs nothing here; the
// games' help modules import nothing from it (what they share is games/help_words.js), so the
// two never import each other.
// The walkthrough is shown once per game kind on this device; closing it is remembered in
// localStorage (`uaw.walkthrough.<kind>`) and it can be opened again from the sheet.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { gameName, ruleHint, ruleName } from "./games/names.js";

// How long a finger rests on a card before its help opens, and how far it may drift meanwhile
// (more is a scroll of the hand, not a hold).
const HOLD_MS = 500;
const DRIFT_PX = 10;
// A browser may still send the tap that ends a hold to the card a moment after the finger lifts.
const SWALLOW_MS = 600;
const CARD = ".hand .card";

const walkKey = (kind) => `uaw.walkthrough.${kind}`;

function walkthroughDismissed(kind) {
  try {
    return localStorage.getItem(walkKey(kind)) !== null;
  } catch (_) {
    // Storage off: never nag on every visit.
    return true;
  }
}

function dismissWalkthrough(kind) {
  try {
    localStorage.setItem(walkKey(kind), String(Date.now()));
  } catch (_) {
    // not remembered on this device
  }
}

// ---- the sheet's pages -------------------------------------------------------------------------

const title = (text) => h("h2", { id: "help-title", tabindex: -1 }, text);
const face = (help, key, id = null) => (help.face ? help.face(key, id) : null);
const buttons = (...children) => h("div", { class: "help-buttons" }, ...children);
const closeButton = (close) => h("button", { type: "button", class: "primary help-close", onclick: close }, t("help.close"));
const allButton = (open) => h("button", { type: "button", class: "help-all", onclick: open }, t("help.all"));

/** The house rules this game plays (its options switched on), with the new game screen's words. */
function houseRules(game) {
  const on = Object.entries(game?.options || {})
    .filter(([, value]) => value === true)
    .map(([name]) => name);
  if (!on.length) return null;
  return h(
    "section",
    { "aria-labelledby": "help-house-title" },
    h("h3", { id: "help-house-title" }, t("help.house_title")),
    h("ul", { class: "help-rules" }, on.map((name) => h("li", { key: name }, h("strong", null, ruleName(name)), ": ", ruleHint(name)))),
  );
}

/** The whole sheet: the cards, the rules (and house rules), the walkthrough again. */
function sheetPage({ kind, help, game }, { walkthrough, close }) {
  return [
    title(t("help.title", { game: gameName(kind) })),
    h("p", { class: "hint help-tip" }, t("help.card_tip")),
    h(
      "section",
      { "aria-labelledby": "help-cards-title" },
      h("h3", { id: "help-cards-title" }, t("help.cards_title")),
      h(
        "ul",
        { class: "help-cards" },
        help.cards(game).map((card) =>
          h("li", { key: card.key, "data-help": card.key }, face(help, card.key), h("div", null, h("strong", null, card.name), h("p", null, card.text))),
        ),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "help-rules-title" },
      h("h3", { id: "help-rules-title" }, t("help.rules_title")),
      h("ul", { class: "help-rules" }, help.rules(game).map((rule) => h("li", null, rule))),
    ),
    houseRules(game),
    buttons(h("button", { type: "button", class: "help-walk-again", onclick: walkthrough }, t("help.walk_again")), closeButton(close)),
  ];
}

/** One card of the hand (`id`, of the sheet's `card`): it, what it does, the way to the rest. */
function cardPage({ help }, card, id, { open, close }) {
  return [
    title(card.name),
    h("div", { class: "help-one", "data-help": card.key }, face(help, card.key, id), h("p", null, card.text)),
    buttons(allButton(open), closeButton(close)),
  ];
}

/** The first-game walkthrough: a few steps, "Got it". */
function walkPage({ kind, help, game }, { open, close }) {
  return [
    title(t("help.walk_title", { game: gameName(kind) })),
    h("ol", { class: "help-steps" }, help.walkthrough(game).map((step) => h("li", null, step))),
    h("p", { class: "hint" }, t("help.walk_later")),
    buttons(allButton(open), h("button", { type: "button", class: "primary help-got-it", onclick: close }, t("help.got_it"))),
  ];
}

// ---- one open game's help ----------------------------------------------------------------------

/**
 * The help of one open game: `source()` gives `{kind, help, game}` as they are now (help null
 * while the renderer loads, or for a kind without help). `dialog` is the screen's sheet.
 */
export function gameHelp(dialog, source) {
  let opener = null;
  let walkthroughShown = false;
  // The walkthrough is on the sheet: leaving it in any way (Got it, Esc, to the whole sheet)
  // counts as having seen it.
  let onWalk = false;

  function show(children, focus = "h2") {
    leaveWalk();
    if (!dialog.open) opener = document.activeElement;
    dialog.replaceChildren(...children.filter(Boolean));
    if (!dialog.open) dialog.showModal();
    dialog.scrollTop = 0;
    dialog.querySelector(focus)?.focus({ preventScroll: true });
  }

  // Remembered before closing: the dialog's "close" event comes a task later, and a page left at
  // once (a tap on the next screen) would show the walkthrough again.
  const leaveWalk = () => {
    if (onWalk) dismissWalkthrough(source().kind);
    onWalk = false;
  };
  const close = () => {
    leaveWalk();
    dialog.close();
  };
  dialog.addEventListener("close", () => {
    leaveWalk();
    if (opener && opener.isConnected) opener.focus({ preventScroll: true });
    opener = null;
  });

  function open() {
    const now = source();
    if (now.help) show(sheetPage(now, { walkthrough, close }));
  }

  function openCard(id) {
    const now = source();
    const key = now.help?.cardOf(id);
    const card = key && now.help.cards(now.game).find((c) => c.key === key);
    if (card) show(cardPage(now, card, id, { open, close }));
  }

  function walkthrough() {
    const now = source();
    if (!now.help) return;
    show(walkPage(now, { open, close }), ".help-got-it");
    onWalk = true;
  }

  /** On a game's table: the walkthrough the first time this device shows a game of its kind. */
  function maybeWalkthrough() {
    const { kind, help } = source();
    if (walkthroughShown || !help || dialog.open || document.querySelector("dialog[open]")) return;
    walkthroughShown = true;
    if (!walkthroughDismissed(kind)) walkthrough();
  }

  /** The table's head: "?" opens the sheet. */
  function button() {
    if (!source().help) return null;
    return h(
      "button",
      { type: "button", class: "help-button", "aria-haspopup": "dialog", onclick: open },
      h("span", { "aria-hidden": "true" }, "?"),
      h("span", { class: "visually-hidden" }, t("help.open")),
    );
  }

  return { open, openCard, walkthrough, maybeWalkthrough, button };
}

/**
 * A card of the hand shows its help when held (touch, pen or mouse, HOLD_MS), on the context
 * menu (a right click, the keyboard's menu key, Shift+F10) or on "?" while it has the focus.
 * The tap that ends a hold does not play the card. Returns the function that stops listening.
 */
export function cardHelpGestures(screen, openCard) {
  let timer = null;
  let start = null;
  // A hold opened the help and its finger is still down; then, briefly, the tap it ends in.
  let holding = false;
  let swallowUntil = 0;
  // A card's id: its own `data-card` if a renderer sets one, else its item's key (the card id).
  const idOf = (target) => {
    const card = target?.closest?.(CARD);
    return card ? (card.dataset.card ?? card.closest("li[data-key]")?.dataset.key ?? null) : null;
  };
  const stop = () => {
    clearTimeout(timer);
    timer = null;
  };
  const hold = (id) => {
    stop();
    holding = true;
    openCard(id);
  };

  const listeners = {
    pointerdown(e) {
      const id = idOf(e.target);
      if (!id || e.button > 0) return;
      start = { x: e.clientX, y: e.clientY };
      stop();
      timer = setTimeout(() => hold(id), HOLD_MS);
    },
    pointermove(e) {
      if (timer && start && Math.hypot(e.clientX - start.x, e.clientY - start.y) > DRIFT_PX) stop();
    },
    contextmenu(e) {
      const id = idOf(e.target);
      if (!id) return;
      e.preventDefault();
      // A touch hold fires both the timer and the context menu: one sheet. A right click or
      // the menu key has no finger down and no tap after it.
      if (holding) return;
      if (timer) hold(id);
      else openCard(id);
    },
    keydown(e) {
      const id = e.key === "?" ? idOf(e.target) : null;
      if (!id) return;
      e.preventDefault();
      openCard(id);
    },
  };
  for (const [type, fn] of Object.entries(listeners)) screen.addEventListener(type, fn);
  // The finger may be lifted over the sheet, outside the screen: listen on the whole page.
  const lifted = () => {
    stop();
    if (holding) swallowUntil = Date.now() + SWALLOW_MS;
    holding = false;
  };
  // Capture: the card's own click handler (a play) never sees the tap that ended a hold.
  const swallow = (e) => {
    if (Date.now() > swallowUntil || !idOf(e.target)) return;
    swallowUntil = 0;
    e.preventDefault();
    e.stopPropagation();
  };
  // Any new touch is a new gesture: its tap is the person's.
  const touched = () => {
    swallowUntil = 0;
  };
  document.addEventListener("pointerup", lifted, true);
  document.addEventListener("pointercancel", lifted, true);
  document.addEventListener("pointerdown", touched, true);
  screen.addEventListener("click", swallow, true);
  return () => {
    stop();
    document.removeEventListener("pointerup", lifted, true);
    document.removeEventListener("pointercancel", lifted, true);
    document.removeEventListener("pointerdown", touched, true);
  };
}
