"""Card types, presets (deck composition and points, loaded from data) and card ids.

Every physical card has an id fixed before any shuffle: ``<type>-<n>`` with n counting from 1
within its type (``draw4-3``), so a card can be traced through a game and a leak found by id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from sys import intern

WILD = "wild"
DRAW2 = "draw2"
DRAW4 = "draw4"
REVERSE = "reverse"
SKIP = "skip"
SKIP_TWO = "skip_two"
TARGETED_DRAW2 = "targeted_draw2"
FORCE_SWAP = "force_swap"
SHUFFLE_HANDS = "shuffle_hands"

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
DECK_SIZE = 112
HAND_SIZE = 7


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    deck: dict[str, int]
    points: dict[str, int]
    opening_effects: bool
    draw_restricted: bool

    @property
    def card_ids(self) -> tuple[str, ...]:
        return _card_ids(self.name)


def _load() -> dict[str, Preset]:
    raw = json.loads((Path(__file__).with_name("presets.json")).read_text())
    presets = {}
    for name, data in raw.items():
        preset = Preset(name=name, **data)
        unknown = set(preset.deck) - set(CARD_TYPES)
        if unknown or set(preset.deck) != set(preset.points):
            raise ValueError(f"preset {name}: bad card types {sorted(unknown)}")
        if sum(preset.deck.values()) != DECK_SIZE:
            raise ValueError(f"preset {name}: deck has {sum(preset.deck.values())} cards")
        presets[name] = preset
    return presets


PRESETS: dict[str, Preset] = _load()
DEFAULT_PRESET = "standard"


@cache
def _card_ids(preset: str) -> tuple[str, ...]:
    deck = PRESETS[preset].deck
    return tuple(
        intern(f"{kind}-{n}") for kind in CARD_TYPES for n in range(1, deck.get(kind, 0) + 1)
    )


# Card id -> type. Every preset's ids are filled in at import so the engine's hot loops can read
# this dict directly (``TYPE_OF.get(card) or card_type(card)``) instead of parsing ids; any other
# id (a scenario's, a stored state's) is parsed by card_type on first sight and remembered. The
# types are the constants above (same objects), so comparing them is an identity check.
#
# Every preset's ids are interned (here and in _card_ids): ``wild-1`` is then one string object
# in both presets, in the deck, the hands, TYPE_OF and the actions legal_actions prebuilds, so the
# engine's ``card in hand``, ``hand.remove(card)`` and dict lookups match it by identity instead
# of comparing characters (each preset used to make its own copy of every id).
TYPE_OF: dict[str, str] = {
    intern(f"{kind}-{n}"): kind
    for preset in PRESETS.values()
    for kind in CARD_TYPES
    for n in range(1, preset.deck.get(kind, 0) + 1)
}


def card_type(card_id: str) -> str:
    """The type of a card id (``draw4-3`` -> ``draw4``)."""
    kind = TYPE_OF.get(card_id)
    if kind is None:
        kind = TYPE_OF[card_id] = card_id.rpartition("-")[0]
    return kind
