"""Uno Splash's deck and points, loaded from data (``deck.json``, one table per preset).

Every physical card has a stable id: a coloured card is ``<colour>-<rank>-<copy>`` with the copy
a letter (``red-7-b``, ``blue-skip-a``, ``green-0-a``), a wild ``wild-<n>`` or ``wd4-<n>``. The
family's card type is the id without its last part: ``red-7``, ``blue-skip``, ``wild``, ``wd4``.
"""

from __future__ import annotations

from pathlib import Path

from ..colours import Preset, load_deck

# Ranks with an effect; the number ranks "0" ... "9" have none.
SKIP = "skip"
REVERSE = "reverse"
DRAW2 = "draw2"
WILD = "wild"
WD4 = "wd4"
WILD_RANKS = frozenset({WILD, WD4})
DRAW_AMOUNT = {DRAW2: 2, WD4: 4}
DECK_SIZE = 108
HAND_SIZE = 7


# Card id -> its colour (None for a wild) and its rank: read on every listing, so plain dicts.
COLOUR_OF: dict[str, str | None] = {}
RANK_OF: dict[str, str] = {}


PRESETS: dict[str, Preset] = load_deck(
    Path(__file__).with_name("deck.json"), DECK_SIZE, COLOUR_OF, RANK_OF
)
DEFAULT_PRESET = "classic"
COLOURS = PRESETS[DEFAULT_PRESET].colours
