"""Uno Splash's deck and points, loaded from data (``deck.json``, one table per preset).

Every physical card has a stable id: a coloured card is ``<colour>-<rank>-<copy>`` with the copy
a letter (``red-7-b``, ``blue-skip-a``, ``green-0-a``), a wild ``wild-<n>`` or ``wd4-<n>``. The
family's card type is the id without its last part: ``red-7``, ``blue-skip``, ``wild``, ``wd4``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from ..colours import Preset, load_deck

# Ranks with an effect; the number ranks "0" ... "9" have none.
SKIP: Final = "skip"
REVERSE: Final = "reverse"
DRAW2: Final = "draw2"
WILD: Final = "wild"
WD4: Final = "wd4"
WILD_RANKS = frozenset({WILD, WD4})
DRAW_AMOUNT = {DRAW2: 2, WD4: 4}
DECK_SIZE: Final = 108
HAND_SIZE: Final = 7


# Card id -> its colour (None for a wild) and its rank: read on every listing, so plain dicts.
COLOUR_OF: dict[str, str | None] = {}
RANK_OF: dict[str, str] = {}


PRESETS: dict[str, Preset] = load_deck(
    Path(__file__).with_name("deck.json"), DECK_SIZE, COLOUR_OF, RANK_OF
)
DEFAULT_PRESET: Final = "classic"
COLOURS = PRESETS[DEFAULT_PRESET].colours
