"""What the Uno Splash and No Mercy heuristics share: both read the seat's view alone, say UNO and
take every catch before anything else (whoever's turn it is), and name the colour they hold most
of."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine.uno.actions import COLOURS, Action

ByType = dict[str, list[dict[str, Any]]]
# A game's own turn: the view, its legal actions by type, the bot's RNG.
Turn = Callable[[dict[str, Any], ByType, random.Random], Action]


def choose_with(turn: Turn, view: dict[str, Any], rng: random.Random) -> Action | None:
    """UNO or a catch when listed; else, on the seat's turn, ``turn``'s action (None: nothing
    now)."""
    me = view["you"]
    by_type: ByType = {}
    for action in view.get("legal_actions") or []:
        by_type.setdefault(action["type"], []).append(action)
    if "uno" in by_type:
        return Action("uno", me)
    if "catch" in by_type:
        return Action("catch", me, target=by_type["catch"][0]["target"])
    if view["current_seat"] != me:
        return None
    return turn(view, by_type, rng)


def best_colour(hand: list[dict[str, Any]], rng: random.Random) -> str:
    """The colour the hand holds most of (at random among the tied, any when it holds none)."""
    counts = Counter(c["colour"] for c in hand if c["colour"])
    if not counts:
        return str(rng.choice(COLOURS))
    top = max(counts.values())
    return str(rng.choice(sorted(c for c, n in counts.items() if n == top)))
