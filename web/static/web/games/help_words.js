// What the games' help modules (games/<kind>_help.js) share: the rules in short, in the words of
// the string tables. help.js draws what they say.

import { formatNumber, t } from "../i18n.js";

/** A game's rules in short (`<prefix>.rule_<key>`): "score" says the game's target, or, for a
 * target of 0, that one round decides (`<prefix>.rule_score_one`). */
export function rulesOf(prefix, keys, game) {
  const target = game?.target_score || 0;
  return keys.map((key) => (key === "score" && !target ? t(`${prefix}.rule_score_one`) : t(`${prefix}.rule_${key}`, { target: formatNumber(target) })));
}
