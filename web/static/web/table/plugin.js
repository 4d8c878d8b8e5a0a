// The game renderers are plug-ins: one module per game kind (games/<kind>.js), registered by kind
// in games/index.js and loaded when a game of that kind opens. What a renderer gives back is
// described there (`table()`, `describe()`, `actionDone()`, …); this module is what it is given.
//
// The context of one open game, `ctx`:
//
//   game, busy, connection   the view on screen, an action under way (or kept offline), "live" / "reconnecting" /
//                            "offline" (getters: read them each time, they change)
//   screen, render()         the screen's element, and drawing it again
//   send(action, {after})    a move (table/actions.js: expected_version, Idempotency-Key, kept
//                            offline); lobbyAction(path, …) a seat's action (reclaim, rematch)
//   navigate(path)           to another page of the app (a new game's table)
//   pickSeat(title, seats, detail)   the seat picker; resolves to a seat or null
//   player(seat), nameOf(seat), isBot(p), botTag(p)   who is who (table/state.js)
//   turnTimer(), connectionState(), helpButton()      the head's shared pieces (table/layout.js)
//   newsView(), logView(), leaveRow()                 what happened, the log, leaving the game
//   nextGame()                  "Next game where it's your turn", or null (table/next_game.js)
//
// A renderer imports nothing from table/ but the shared hand (table/hand.js): everything of the
// screen reaches it through this context, so the screen and the plug-ins never import each other.

import { botTag, isBot } from "./state.js";

/** The context given to `renderer.create(ctx)`, over the screen's hub (views/game.js). */
export function pluginContext(table) {
  const { state, screen } = table;
  return {
    get game() {
      return state.game;
    },
    // A move kept offline counts as one under way: the table offers no second move beside it.
    get busy() {
      return state.busy || Boolean(state.queued);
    },
    get connection() {
      return state.connection;
    },
    screen,
    render: () => table.render(),
    send: (...args) => table.actions.send(...args),
    lobbyAction: (...args) => table.actions.lobbyAction(...args),
    navigate: (path) => table.app.navigate(path),
    pickSeat: (...args) => table.actions.pickSeat(...args),
    player: state.player,
    nameOf: state.nameOf,
    isBot,
    botTag,
    turnTimer: () => table.layout.turnTimer(),
    connectionState: () => table.layout.connectionState(),
    helpButton: () => table.help.button(),
    logView: () => table.layout.logView(),
    newsView: () => table.effects.newsView(),
    leaveRow: () => table.layout.leaveRow(),
    nextGame: () => table.layout.nextGameButton(),
  };
}
