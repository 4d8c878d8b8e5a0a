// Names of games, presets and house rules in the player's language, and a game's kind.
//
// The client's own words come first (`gamekind.<kind>`, `preset.<name>`, `rule.<name>`,
// `rule.<name>_hint` in i18n/*.json); for a name it has no words for, the server's (English)
// words from GET games/options/, else the id made readable ("gin_rummy" -> "Gin rummy").

import { t } from "../i18n.js";

/** The kind of a game whose view does not say (today's API before game kinds). */
export const DEFAULT_KIND = "uno_all_wild";

/** The game kind of a game's summary or view. */
export function kindOf(view) {
  return (view && (view.game || (view.table && view.table.game))) || DEFAULT_KIND;
}

/** Words for a name the server gives: the client's own (`key`), else the server's, else the id. */
function named(key, id, serverName) {
  const text = t(key);
  if (text !== key) return text;
  if (serverName) return serverName;
  return String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

// The names the server gave its games (GET games/options/, kept by catalog.js once read).
const serverNames = new Map();

/** Keep the server's names of its games: {kind, name} each. */
export function rememberNames(games) {
  for (const game of games) if (game.kind && game.name) serverNames.set(game.kind, game.name);
}

/** A game's name in the player's language ("Uno All Wild"), from its kind. */
export function gameName(kind, serverName = null) {
  return named(`gamekind.${kind}`, kind, serverName || serverNames.get(kind) || null);
}

/** A preset's name ("Standard (the rulebook)"); an unknown one by its id. */
export function presetName(preset) {
  return named(`preset.${preset}`, preset, null);
}

/** A house rule's name ("Stacking"); one the client has no words for by the server's or its id. */
export function ruleName(rule, serverName = null) {
  return named(`rule.${rule}`, rule, serverName);
}

/** A house rule's description: the client's translation, else the server's (English) text. */
export function ruleHint(rule, serverDescription = "") {
  const key = `rule.${rule}_hint`;
  const text = t(key);
  return text !== key ? text : serverDescription || "";
}
