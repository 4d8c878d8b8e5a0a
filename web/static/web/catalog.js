// The games a new game may be, read from GET games/options/ (docs/api.md).
//
// The endpoint lists every registered game in `games`: its kind, name, presets, house rules,
// player counts and default target. A server that does not list them (before game kinds) is
// one game, All Wild, described by the endpoint's top-level fields; a server that cannot be
// reached is All Wild as options.js lists it. Either way the new game screen gets the same
// shape: one entry per game, each with what the form offers for it.

import { api } from "./api.js";
import { DEFAULT_KIND, rememberNames } from "./games/names.js";
import { OPTIONS } from "./options.js";

let cached = null;

const isNumber = (value) => typeof value === "number" && Number.isFinite(value);
const clamp = (value, min, max) => Math.min(max, Math.max(min, value));

/** A range {min, max, default} from a server's range object or its pieces, within `fallback`. */
function range(value, fallback, { min = null, max = null, preferred = null } = {}) {
  const out = { ...fallback };
  if (value && typeof value === "object") {
    for (const key of ["min", "max", "default"]) if (isNumber(value[key])) out[key] = value[key];
  }
  if (isNumber(min)) out.min = min;
  if (isNumber(max)) out.max = max;
  if (out.min > out.max) out.max = out.min;
  const wanted = isNumber(preferred) ? preferred : out.default;
  out.default = clamp(isNumber(wanted) ? wanted : out.min, out.min, out.max);
  return out;
}

/** House rules as [{name, description}]: from the server's list (names or objects). */
function houseRules(list, fallback) {
  if (!Array.isArray(list)) return fallback.map((name) => ({ name, description: "" }));
  return list
    .map((rule) => (typeof rule === "string" ? { name: rule, description: "" } : { name: rule?.name, description: rule?.description || "" }))
    .filter((rule) => typeof rule.name === "string" && rule.name);
}

/**
 * One game's entry: {kind, name, presets, default_preset, house_rules, seats, target}.
 * `seats` and `target` are ranges with a default; `base` fills what the server left out.
 */
function entry(raw, base) {
  const listed = Array.isArray(raw.presets) ? raw.presets.map((p) => (typeof p === "string" ? p : p?.name)).filter(Boolean) : [];
  const presets = listed.length ? listed : base.presets;
  const preset = [raw.default_preset, base.default_preset].find((p) => presets.includes(p)) ?? presets[0] ?? null;
  // Today's top-level `max_players` is a range; a game's entry has `min_players`/`max_players`.
  const seats = range(typeof raw.max_players === "object" ? raw.max_players : null, base.seats, {
    min: raw.min_players,
    max: isNumber(raw.max_players) ? raw.max_players : null,
    preferred: base.seats.default,
  });
  const target = range(raw.target_score, base.target, { preferred: raw.default_target });
  return {
    kind: typeof raw.kind === "string" && raw.kind ? raw.kind : DEFAULT_KIND,
    name: typeof raw.name === "string" ? raw.name : null,
    presets,
    default_preset: preset,
    house_rules: houseRules(raw.house_rules, base.house_rules.map((r) => r.name)),
    seats,
    target,
  };
}

/** All Wild as options.js lists it: what the form offers when the server says nothing. */
function builtIn() {
  return {
    kind: DEFAULT_KIND,
    name: null,
    presets: [...OPTIONS.presets],
    default_preset: OPTIONS.presets[0],
    house_rules: OPTIONS.house_rules.map((name) => ({ name, description: "" })),
    seats: { ...OPTIONS.seats },
    target: { ...OPTIONS.target_score },
  };
}

/** All Wild's house rules that this client draws (options.js), in its order, with the server's words. */
function drawable(game) {
  const listed = new Map(game.house_rules.map((rule) => [rule.name, rule]));
  const rules = OPTIONS.house_rules.filter((name) => listed.has(name)).map((name) => listed.get(name));
  return { ...game, house_rules: rules };
}

/** The games from an answer of GET games/options/ (or null): at least one, All Wild first. */
export function gamesFrom(data) {
  const base = builtIn();
  if (!data || typeof data !== "object") return [base];
  // Today's top-level fields describe All Wild. The client offers only the house rules its
  // table plays (options.js; test_views.py keeps that list equal to the server's).
  const allWild = drawable(entry({ ...data, kind: DEFAULT_KIND, name: null }, base));
  if (!Array.isArray(data.games) || !data.games.length) return [allWild];
  const games = data.games
    .filter((raw) => raw && typeof raw === "object" && typeof raw.kind === "string" && raw.kind)
    .map((raw) => (raw.kind === DEFAULT_KIND ? drawable(entry(raw, allWild)) : entry(raw, { ...base, presets: [], house_rules: [] })));
  if (!games.some((g) => g.kind === DEFAULT_KIND)) return games.length ? games : [allWild];
  // All Wild first (the default), the others in the server's order.
  return [...games.filter((g) => g.kind === DEFAULT_KIND), ...games.filter((g) => g.kind !== DEFAULT_KIND)];
}

/** The games a new game may be (fetched once per page load; All Wild alone when unreachable). */
export async function loadGames() {
  if (cached) return cached;
  try {
    cached = gamesFrom(await api.get("games/options/"));
    rememberNames(cached);
  } catch (_) {
    return gamesFrom(null);
  }
  return cached;
}
