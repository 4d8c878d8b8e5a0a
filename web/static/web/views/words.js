// Events in words, shared by the game screen's log and news (views/game.js) and the replay page
// (views/replay.js): the events every game has, and a move's events as lines. A game's own events
// are told by its renderer (`describe`, games/index.js).

import { formatNumber, t } from "../i18n.js";

/** Events every game has (the service's, and the end of a round or a match) in words, or null;
 * `n(seat)` is a seat's name. */
export function describeCommon(event, n) {
  switch (event.type) {
    case "timeout":
      return t("log.timeout", { name: n(event.seat) });
    case "left":
      return t("log.left", { name: n(event.seat) });
    case "bot_took_over":
      return t("log.bot_took_over", { name: n(event.seat) });
    case "seat_reclaimed":
      return t("log.seat_reclaimed", { name: n(event.seat) });
    case "round_over":
      return typeof event.winner === "number" && typeof event.points === "number"
        ? t("log.round_over", { name: n(event.winner), round: event.round, points: formatNumber(event.points) })
        : null;
    case "match_over":
      return typeof event.winner === "number" ? t("log.match_over", { name: n(event.winner) }) : null;
    default:
      return null;
  }
}

/** A move's events as sentences, one line per event (`key`: the move's, for each line's key):
 * "X was skipped." and "X loses a turn." are one event told twice (the skip is the lost turn),
 * and a sentence said twice is said once. */
export function eventLines(events, key, describeOne) {
  const lost = new Set(events.filter((e) => e.type === "loses_turn").map((e) => e.seat));
  const lines = [];
  events.forEach((event, i) => {
    if (event.type === "skipped" && lost.has(event.seat)) return;
    const text = describeOne(event);
    if (text && !lines.some((l) => l.text === text)) lines.push({ key: `${key}-${i}`, text, event });
  });
  return lines;
}
