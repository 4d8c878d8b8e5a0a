"""Uno Show 'Em No Mercy's deck, points and draw values, loaded from data (``deck.json``: one row
per card, copies per colour for coloured cards, so a count is corrected in one place).

Card ids: a coloured card is ``<colour>-<rank>-<copy>`` with the copy a letter (``red-7-b``,
``blue-draw4-a``, ``green-discard_all-c``), a wild ``<rank>-<n>`` (``wd10-3``, ``roulette-8``).
The family's card type is the id without its last part: ``red-7``, ``wd10``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from ..colours import Preset, load_deck

SKIP: Final = "skip"
REVERSE: Final = "reverse"
DRAW2: Final = "draw2"
DRAW4: Final = "draw4"
DISCARD_ALL: Final = "discard_all"
SKIP_ALL: Final = "skip_all"  # Skip Everyone
WRD4: Final = "wrd4"  # Wild Reverse Draw 4
WD6: Final = "wd6"
WD10: Final = "wd10"
ROULETTE: Final = "roulette"  # Wild Color Roulette
DECK_SIZE: Final = 168
HAND_SIZE: Final = 7
KNOCKOUT: Final = 25  # cards in a hand that knock its player out of the round (Mercy rule)
KNOCKOUT_BONUS: Final = 250


# Card id -> its colour (None for a wild) and rank; rank -> the cards a Draw card of it adds.
COLOUR_OF: dict[str, str | None] = {}
RANK_OF: dict[str, str] = {}
DECK = Path(__file__).with_name("deck.json")
DRAW_VALUE: dict[str, int] = {
    entry["rank"]: entry["draw"]
    for preset in json.loads(DECK.read_text()).values()
    for entry in [*preset["coloured"], *preset["wild"]]
    if "draw" in entry
}
PRESETS: dict[str, Preset] = load_deck(DECK, DECK_SIZE, COLOUR_OF, RANK_OF)
DEFAULT_PRESET: Final = "standard"
COLOURS = PRESETS[DEFAULT_PRESET].colours
