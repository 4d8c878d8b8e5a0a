"""What every Uno game with coloured cards shares (Uno Splash, No Mercy): a deck loaded from a
JSON table of coloured and wild cards, and the table of what may be played on the top card.

Card ids: ``<colour>-<rank>-<copy>`` with the copy a letter (``red-7-b``), a wild ``<rank>-<n>``
(``wd4-1``). The family's card type is the id without its last part.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from string import ascii_lowercase
from sys import intern

from .cards import TYPE_OF
from .state import State


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    colours: tuple[str, ...]
    card_ids: tuple[str, ...]  # every card, coloured cards colour by colour, then the wilds
    points: dict[str, int]  # card type -> points left in a hand
    types: tuple[str, ...]  # every card type, in card_ids' order


def load_deck(
    path: Path,
    size: int,
    colour_of: dict[str, str | None],
    rank_of: dict[str, str],
) -> dict[str, Preset]:
    """The presets of ``path`` (``{name: {description, colours, coloured, wild}}``, a row per
    rank with its ``copies`` (per colour for a coloured rank) and ``points``), each checked to
    hold ``size`` distinct cards; every id is registered in ``colour_of``, ``rank_of`` and the
    family's ``TYPE_OF``."""

    def register(card: str, colour: str | None, rank: str) -> str:
        card = intern(card)
        TYPE_OF[card] = intern(card.rpartition("-")[0])
        colour_of[card] = colour
        rank_of[card] = rank
        return card

    presets = {}
    for name, data in json.loads(path.read_text()).items():
        ids: list[str] = []
        points: dict[str, int] = {}
        for colour in data["colours"]:
            for entry in data["coloured"]:
                rank = entry["rank"]
                for n in range(entry["copies"]):
                    ids.append(register(f"{colour}-{rank}-{ascii_lowercase[n]}", colour, rank))
                points[f"{colour}-{rank}"] = entry["points"]
        for entry in data["wild"]:
            rank = entry["rank"]
            ids += [register(f"{rank}-{n}", None, rank) for n in range(1, entry["copies"] + 1)]
            points[rank] = entry["points"]
        if len(ids) != size or len(set(ids)) != size:
            raise ValueError(f"preset {name}: the deck has {len(set(ids))} cards, not {size}")
        types = tuple(dict.fromkeys(TYPE_OF[c] for c in ids))
        presets[name] = Preset(
            name, data["description"], tuple(data["colours"]), tuple(ids), points, types
        )
    return presets


class Matching:
    """What may be played on the top card: a wild, the colour in force, or the rank of a coloured
    top card (on a wild only its named colour). Every (colour in force, rank of a coloured top
    card or None) pair's playable cards are built once, so listing a hand is a set lookup a
    card."""

    def __init__(
        self,
        cards: Iterable[str],
        colours: tuple[str, ...],
        colour_of: dict[str, str | None],
        rank_of: dict[str, str],
    ) -> None:
        every = set(cards)
        ranks = {rank_of[card] for card in every if colour_of[card]}
        self.colour_of = colour_of
        self.rank_of = rank_of
        self.table: dict[tuple[str | None, str | None], frozenset[str]] = {
            (colour, rank): frozenset(
                card
                for card in every
                if colour_of[card] is None or colour_of[card] == colour or rank_of[card] == rank
            )
            for colour in (None, *colours)
            for rank in (None, *ranks)
        }

    def colour_in_force(self, s: State) -> str | None:
        """The top card's colour; for a wild on top, the colour named for it (None while an
        opening wild waits for its colour)."""
        return self.colour_of[s.discard_pile[0]] or s.colour

    def playable_cards(self, s: State) -> frozenset[str]:
        top = s.discard_pile[0]
        colour = self.colour_of[top]
        if colour is None:  # a wild's rank matches nothing: only its named colour and wilds
            return self.table[s.colour, None]
        return self.table[colour, self.rank_of[top]]


def card_name(
    card: str,
    colour_of: dict[str, str | None],
    rank_of: dict[str, str],
    rank_names: dict[str, str],
) -> str | None:
    """A coloured game's card in words (``red-7-b`` -> "Red 7", ``wd4-2`` -> "Wild Draw Four"),
    or None for an id ``rank_of`` does not know."""
    rank = rank_of.get(card)
    if rank is None:
        return None
    name = rank_names.get(rank, rank)
    colour = colour_of.get(card)
    return f"{colour.capitalize()} {name}" if colour else name
