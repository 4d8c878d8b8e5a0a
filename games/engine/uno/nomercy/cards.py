"""Uno Show 'Em No Mercy's deck, points and draw values, loaded from data (``deck.json``: one row
per card, copies per colour for coloured cards, so a count is corrected in one place).

Card ids: a coloured card is ``<colour>-<rank>-<copy>`` with the copy a letter (``red-7-b``,
``blue-draw4-a``, ``green-discard_all-c``), a wild ``<rank>-<n>`` (``wd10-3``, ``roulette-8``).
The family's card type is the id without its last part: ``red-7``, ``wd10``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from string import ascii_lowercase
from sys import intern

from ..cards import TYPE_OF

SKIP = "skip"
REVERSE = "reverse"
DRAW2 = "draw2"
DRAW4 = "draw4"
DISCARD_ALL = "discard_all"
SKIP_ALL = "skip_all"  # Skip Everyone
WRD4 = "wrd4"  # Wild Reverse Draw 4
WD6 = "wd6"
WD10 = "wd10"
ROULETTE = "roulette"  # Wild Color Roulette
DECK_SIZE = 168
HAND_SIZE = 7
KNOCKOUT = 25  # cards in a hand that knock its player out of the round (Mercy rule)
KNOCKOUT_BONUS = 250


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    colours: tuple[str, ...]
    card_ids: tuple[str, ...]  # every card, coloured cards colour by colour, then the wilds
    points: dict[str, int]  # card type -> points left in a hand
    types: tuple[str, ...]  # every card type, in card_ids' order


# Card id -> its colour (None for a wild), rank and draw value (0: not a Draw card).
COLOUR_OF: dict[str, str | None] = {}
RANK_OF: dict[str, str] = {}
DRAW_VALUE: dict[str, int] = {}  # rank -> the cards a Draw card of that rank adds


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
        for entry in [*data["coloured"], *data["wild"]]:
            if "draw" in entry:
                DRAW_VALUE[entry["rank"]] = entry["draw"]
        for colour in data["colours"]:
            for entry in data["coloured"]:
                rank = entry["rank"]
                for n in range(entry["copies"]):
                    ids.append(_register(f"{colour}-{rank}-{ascii_lowercase[n]}", colour, rank))
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
DEFAULT_PRESET = "standard"
COLOURS = PRESETS[DEFAULT_PRESET].colours
WILD_RANKS = frozenset(RANK_OF[c] for c in PRESETS[DEFAULT_PRESET].card_ids if not COLOUR_OF[c])
