// One game: the lobby while seats fill, the table while it runs, the results when it is over.
//
// This screen is the same for every game and is made of the table's modules (docs/web-client.md,
// "The table's modules"), joined here through one hub object, `table`, that each of them is given:
//
//   table/state.js     the game's data and its updates (the view, the log, the news, away)
//   table/layout.js    which page and its shared pieces (lobby.js, results.js), the turn clock
//   table/hand.js      the hand's order, groups and head (used by the renderers)
//   table/actions.js   moves (expected_version, Idempotency-Key), offline, the seat picker
//   table/effects.js   what happens on screen after a move: words, news, arrivals, round end
//   table/plugin.js    what a game's renderer is given
//
// The running table is drawn by the renderer of the game's kind (games/index.js registers one
// per kind: All Wild, Splash, No Mercy, Gin Rummy), or by the fallback one for a kind this client
// does not know. The modules never import each other in a circle (tests/web/test_modules.py).

import { GameLive } from "../live.js";
import { rendererFor, kindOf } from "../games/index.js";
import { cardHelpGestures, gameHelp } from "../help.js";
import { h } from "../dom.js";
import { createActions } from "../table/actions.js";
import { createChat } from "../table/chat.js";
import { createEffects } from "../table/effects.js";
import { createLayout } from "../table/layout.js";
import { pluginContext } from "../table/plugin.js";
import { createState } from "../table/state.js";

// How long a freshly opened screen waits for its first view before reading the recent log.
const FIRST_VIEW_TRIES = 50;
const FIRST_VIEW_STEP_MS = 100;

/** The screen's elements: the queued-move notice, the screen, and its three dialogs. */
function elements(root) {
  const parts = {
    // A move tapped offline, waiting for the connection (table/actions.js): said above the table.
    notice: h("div", { class: "queued-notice", role: "status" }),
    screen: h("div", { class: "game-screen" }),
    picker: h("dialog", { class: "sheet", "aria-labelledby": "picker-title" }),
    roundDialog: h("dialog", { class: "sheet", "aria-labelledby": "round-title" }),
    // What each card does, the rules in short, the first-game walkthrough (help.js).
    helpDialog: h("dialog", { class: "sheet help-sheet", "aria-labelledby": "help-title" }),
  };
  root.append(parts.notice, parts.screen, parts.picker, parts.roundDialog, parts.helpDialog);
  return parts;
}

export function mount(root, [gameId], app) {
  const table = { gameId, app, ...elements(root), kind: null, renderer: null, view: null };
  const { screen } = table;
  const render = () => table.layout.render();
  const state = createState(gameId, { changed: render });
  Object.assign(table, { state, render });

  /** A view arrived: load its kind's renderer if this is the first (or the kind changed). */
  function show(next) {
    state.game = next;
    const wanted = kindOf(next);
    if (wanted === table.kind) return;
    table.kind = wanted;
    table.view = null;
    rendererFor(wanted).then((loaded) => {
      if (table.kind !== wanted || !screen.isConnected) return;
      table.renderer = loaded;
      table.view = loaded.create(pluginContext(table));
      render();
    });
  }

  /** A view from an answer to this player's action. */
  table.take = (next) => {
    show(next);
    table.live.seen(next);
    render();
  };

  table.live = new GameLive(gameId, {
    chat: () => (table.chat ? table.chat.after() : null),
    onChat: (data) => table.chat && table.chat.take(data),
    onView: (next) => {
      show(next);
      state.failure = null;
      render();
    },
    onMoves: (moves) => {
      state.addMoves(moves);
      render();
    },
    onState: (now) => {
      if (now === "live") table.actions.flushQueued();
      if (now === "offline" && !state.game) state.failure = true;
      if (now !== state.connection || state.failure) {
        state.connection = now;
        render();
      }
    },
  });
  table.help = gameHelp(table.helpDialog, () => ({ kind: table.kind, help: (table.view && table.renderer?.help) || null, game: state.game }));
  table.actions = createActions(table);
  table.effects = createEffects(table);
  table.layout = createLayout(table);
  table.chat = createChat(table);
  const stopCardHelp = cardHelpGestures(screen, table.help.openCard);

  const clock = setInterval(table.layout.tickTimer, 250);
  table.actions.drawNotice();
  table.live.start();
  // A finished game (or one opened from a notification) gets its recent log at once.
  (async () => {
    for (let i = 0; i < FIRST_VIEW_TRIES && !state.game && screen.isConnected; i += 1) await new Promise((r) => setTimeout(r, FIRST_VIEW_STEP_MS));
    if (state.game && state.game.status !== "lobby") state.loadLog(state.game.version, table.live);
  })();
  render();

  return () => {
    clearInterval(clock);
    table.live.stop();
    for (const dialog of [table.picker, table.roundDialog, table.helpDialog]) if (dialog.open) dialog.close();
    stopCardHelp();
  };
}
