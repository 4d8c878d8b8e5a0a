// The games this client can draw: a renderer per game kind (docs/web-client.md, "Renderers").
//
// The game screen (views/game.js) is the same for every game: loading, the lobby, the log's
// frame, the turn clock, the results. What is on the table while a game runs is drawn by the
// renderer of the game's kind (`game` in a game's summary and view, `table.game` in its table):
// a module in this folder whose `renderer` has
//
//   kind                    the game kind it draws ("uno_all_wild")
//   create(ctx) -> {        one per open game; ctx: table/plugin.js
//     table(),              the running table: an array of nodes (h()) for patch()
//     describe(event),      one engine event as a sentence for the log, or null
//     actionDone(),         an action of this player was accepted: leave any picking mode
//     afterRender(),        (optional) after every draw of the table
//     focusAfterAction,     (optional) a selector for where the keyboard goes after an action
//     quietInNews,          (optional) a Set of event types the table shows elsewhere, left out
//                           of the news box (still in the log)
//   }
//
// A kind without a renderer here gets the fallback renderer (fallback.js): the public facts and
// a message saying that this client cannot draw the game yet, never a blank page. Adding a game
// is one line below and one module (docs/web-client.md has the checklist).

import { renderer as fallback } from "./fallback.js";

export { DEFAULT_KIND, gameName, kindOf, presetName, ruleHint, ruleName } from "./names.js";

/** Kind -> the module of its renderer, loaded when a game of that kind is opened. */
const RENDERERS = {
  uno_all_wild: () => import("./uno_all_wild.js"),
  uno_splash: () => import("./uno_splash.js"),
  uno_no_mercy: () => import("./uno_no_mercy.js"),
  gin_rummy: () => import("./gin_rummy.js"),
};

const loaded = new Map();

/** Does this client have a renderer for `kind`? */
export function isSupported(kind) {
  return Object.hasOwn(RENDERERS, kind);
}

/** The renderer for `kind`: its own, or the fallback one (also when its module fails to load). */
export async function rendererFor(kind) {
  if (loaded.has(kind)) return loaded.get(kind);
  let found = fallback;
  if (isSupported(kind)) {
    try {
      const module = await RENDERERS[kind]();
      found = module.renderer;
    } catch (_) {
      // offline with an old cache, or a broken deploy: the fallback still shows the game
      found = fallback;
    }
  }
  loaded.set(kind, found);
  return found;
}
