// What a new game may be, as the client knows it: All Wild's options and the service's own (bot
// levels and count, time limits, speed mode's seconds) for POST games/ and POST games/vs-computer/
// (docs/api.md, docs/bots.md). The new game screen offers the games GET games/options/ lists
// (catalog.js); this list fills in what the server leaves out, and is All Wild when it cannot
// be reached.
//
// They are written here, once, and tests/web/test_views.py checks them against the server: its
// own lists and GET games/options/ (presets, house rules, bot levels, seat and bot counts,
// ranges and defaults must be equal). Only what is listed is shown.
//
// House rules: every one the server accepts (games.engine.state.HOUSE_RULES), each with its
// description for players (`rule.<name>_hint`, written from the API's HouseRulesSerializer help
// texts). Speed mode's own turn limit is `speed_seconds` (CreateGameSerializer.speed_seconds).
//
// The object between the markers is strict JSON (the test reads it as such).

export const OPTIONS = Object.freeze(/* options */ {
  "presets": ["standard", "mattel_2021"],
  "house_rules": ["stacking", "double_down", "mercy", "blind_play", "force_swap_protection", "speed_mode"],
  "speed_seconds": { "min": 3, "max": 60, "default": 5 },
  "seats": { "min": 2, "max": 10, "default": 4 },
  "bot_levels": ["random", "heuristic", "expert"],
  "default_bot_level": "heuristic",
  "bots": { "min": 1, "max": 9, "default": 1 },
  "turn_seconds": [60, 300, 3600, 86400, 259200],
  "default_turn_seconds": 86400,
  "target_score": { "min": 0, "max": 100000, "default": 500 }
} /* end options */);

/** i18n keys of the turn limits offered. */
export const TIME_LIMIT_KEYS = {
  60: "time.limit_1m",
  300: "time.limit_5m",
  3600: "time.limit_1h",
  86400: "time.limit_1d",
  259200: "time.limit_3d",
};
