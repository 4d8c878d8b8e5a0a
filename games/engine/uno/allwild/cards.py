"""All Wild's card types and its two presets: deck composition and points, loaded from data
(``presets.json``, one table per preset, easy to correct).

Card ids are the family's (``uno.cards``): ``<type>-<n>`` with n counting from 1 within its type.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..cards import TYPE_OF, card_ids, card_type

WILD: Final = "wild"
DRAW2: Final = "draw2"
DRAW4: Final = "draw4"
REVERSE: Final = "reverse"
SKIP: Final = "skip"
SKIP_TWO: Final = "skip_two"
TARGETED_DRAW2: Final = "targeted_draw2"
FORCE_SWAP: Final = "force_swap"
SHUFFLE_HANDS: Final = "shuffle_hands"

CARD_TYPES = (
    WILD,
    DRAW2,
    DRAW4,
    REVERSE,
    SKIP,
    SKIP_TWO,
    TARGETED_DRAW2,
    FORCE_SWAP,
    SHUFFLE_HANDS,
)
DRAW_AMOUNT = {DRAW2: 2, DRAW4: 4}
TARGETED = frozenset({TARGETED_DRAW2, FORCE_SWAP})
DECK_SIZE: Final = 112
HAND_SIZE: Final = 7


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    deck: dict[str, int]
    points: dict[str, int]
    opening_effects: bool
    draw_restricted: bool

    card_ids: tuple[str, ...]  # every card of the deck, by type in CARD_TYPES' order


def _load() -> dict[str, Preset]:
    raw = json.loads((Path(__file__).with_name("presets.json")).read_text())
    presets = {}
    for name, data in raw.items():
        preset = Preset(name=name, card_ids=card_ids(data["deck"], CARD_TYPES), **data)
        unknown = set(preset.deck) - set(CARD_TYPES)
        if unknown or set(preset.deck) != set(preset.points):
            raise ValueError(f"preset {name}: bad card types {sorted(unknown)}")
        if sum(preset.deck.values()) != DECK_SIZE:
            raise ValueError(f"preset {name}: deck has {sum(preset.deck.values())} cards")
        presets[name] = preset
    return presets


PRESETS: dict[str, Preset] = _load()
DEFAULT_PRESET: Final = "standard"


__all__ = [
    "CARD_TYPES",
    "DECK_SIZE",
    "DEFAULT_PRESET",
    "DRAW2",
    "DRAW4",
    "DRAW_AMOUNT",
    "FORCE_SWAP",
    "HAND_SIZE",
    "PRESETS",
    "REVERSE",
    "SHUFFLE_HANDS",
    "SKIP",
    "SKIP_TWO",
    "TARGETED",
    "TARGETED_DRAW2",
    "TYPE_OF",
    "WILD",
    "Preset",
    "card_type",
]
