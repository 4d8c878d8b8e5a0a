"""Uno Splash's deck and points, loaded from data (``deck.json``, one table per preset).

Every physical card has a stable id: a coloured card is ``<colour>-<rank>-<copy>`` with the copy
a letter (``red-7-b``, ``blue-skip-a``, ``green-0-a``), a wild ``wild-<n>`` or ``wd4-<n>``. The
family's card type is the id without its last part: ``red-7``, ``blue-skip``, ``wild``, ``wd4``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from sys import intern

from ..cards import TYPE_OF

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


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    colours: tuple[str, ...]
    card_ids: tuple[str, ...]  # every card, coloured cards colour by colour, then the wilds
    points: dict[str, int]  # card type -> points left in a hand
    types: tuple[str, ...]  # every card type, in card_ids' order


# Card id -> its colour (None for a wild) and its rank: read on every listing, so plain dicts.
COLOUR_OF: dict[str, str | None] = {}
RANK_OF: dict[str, str] = {}


def _register(card: str, colour: str | None, rank: str) -> str:
    card = intern(card)
    TYPE_OF[card] = intern(card.rpartition("-")[0])
    COLOUR_OF[card] = colour
    RANK_OF[card] = rank
    return card


def _load() -> dict[str, Preset]:
    raw = json.loads(Path(__file__).with_name("deck.json").read_text())
    presets = {}
    for name, data in raw.items():
        ids: list[str] = []
        points: dict[str, int] = {}
        for colour in data["colours"]:
            for entry in data["coloured"]:
                rank = entry["rank"]
                for n in range(entry["copies"]):
                    ids.append(_register(f"{colour}-{rank}-{'ab'[n]}", colour, rank))
                points[f"{colour}-{rank}"] = entry["points"]
        for entry in data["wild"]:
            rank = entry["rank"]
            ids += [_register(f"{rank}-{n}", None, rank) for n in range(1, entry["copies"] + 1)]
            points[rank] = entry["points"]
        if len(ids) != DECK_SIZE or len(set(ids)) != DECK_SIZE:
            raise ValueError(f"preset {name}: the deck has {len(set(ids))} cards, not {DECK_SIZE}")
        types = tuple(dict.fromkeys(TYPE_OF[c] for c in ids))
        presets[name] = Preset(
            name, data["description"], tuple(data["colours"]), tuple(ids), points, types
        )
    return presets


PRESETS: dict[str, Preset] = _load()
DEFAULT_PRESET = "classic"
COLOURS = PRESETS[DEFAULT_PRESET].colours
