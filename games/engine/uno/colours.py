"""What every Uno game with coloured cards shares (Uno Splash, No Mercy): a deck loaded from a
JSON table of coloured and wild cards, the table of what may be played on the top card, and what a
seat sees (``TableViews``).

Card ids: ``<colour>-<rank>-<copy>`` with the copy a letter (``red-7-b``), a wild ``<rank>-<n>``
(``wd4-1``). The family's card type is the id without its last part.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from string import ascii_lowercase
from sys import intern
from typing import Any, NamedTuple

from .. import errors as E
from ..errors import NOT_IN_ROUND, EngineError
from ..interface import RNG, Event
from . import actions as A
from .actions import COLOURS, Action
from .cards import TYPE_OF, card_type
from .chance import choice
from .state import PLAY, State
from .view import moderator_view, public_view

# The action types that may name a colour (a wild played, an opening Wild's colour): any other
# naming one is refused (``dispatch.applier``).
COLOUR_NAMING = frozenset({A.PLAY, A.PLAY_DRAWN, A.CHOOSE_COLOUR})


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

    # Read on every listing and every play: slots, not an instance dict.
    __slots__ = ("colour_of", "rank_of", "table", "key_of", "wild_key")

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
        # The key of ``table`` a top card gives: a coloured card's is fixed, so it is looked up
        # rather than built (a wild on top reads the named colour: wild_key).
        self.key_of: dict[str, tuple[str | None, str | None]] = {
            card: (colour_of[card], rank_of[card]) for card in every if colour_of[card]
        }
        self.wild_key: dict[str | None, tuple[str | None, str | None]] = {
            colour: (colour, None) for colour in (None, *colours)
        }

    def colour_in_force(self, s: State) -> str | None:
        """The top card's colour; for a wild on top, the colour named for it (None while an
        opening wild waits for its colour)."""
        return self.colour_of[s.discard_pile[0]] or s.colour

    def match_key(self, s: State) -> tuple[str | None, str | None]:
        """What matters of the table for matching: (colour in force, rank of a coloured top
        card)."""
        # A wild's rank matches nothing: on a wild only its named colour (and wilds) match.
        return self.key_of.get(s.discard_pile[0]) or self.wild_key[s.colour]

    def playable_cards(self, s: State) -> frozenset[str]:
        """Every card that may be played on the table now."""
        return self.table[self.match_key(s)]


def chosen_colour(a: Action) -> str:
    """The colour a ``choose_colour`` names (an opening Wild's, a Roulette's): a colour only."""
    if a.colour is None:
        raise EngineError(E.COLOUR_REQUIRED, f"name a colour: {', '.join(COLOURS)}")
    if a.card is not None or a.target is not None or a.cards or a.targets:
        raise EngineError(E.INVALID_ACTION, "choose_colour takes a colour only")
    return a.colour


def colour_named(s: State, seat: int, colour: str, ev: list[Event]) -> None:
    """The colour choice that play waited for is made: ``colour`` is in force, play goes on."""
    s.colour = colour
    s.pending = None
    s.phase = PLAY
    ev.append({"type": "colour_chosen", "seat": seat, "colour": colour})


def random_colour(rng: RNG, ev: list[Event]) -> str:
    """A colour named by chance (a timeout, a leaver who owed one), logged for replay."""
    colour: str = choice(rng, list(COLOURS), ev)
    return colour


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


def card_view(
    card_id: str, colour_of: dict[str, str | None], rank_of: dict[str, str]
) -> dict[str, Any]:
    """A coloured game's card as a view shows it: id, type, colour (None for a wild), rank."""
    return {
        "id": card_id,
        "type": card_type(card_id),
        "colour": colour_of[card_id],
        "rank": rank_of[card_id],
    }


def seat_view(
    s: State,
    seat: int,
    card: Callable[[str], dict[str, Any]],
    public: dict[str, Any],
    legal_actions: Callable[[State, int], list[Action]],
) -> dict[str, Any]:
    """The position as ``seat`` of a coloured game sees it: the game's ``public`` keys, then its
    own hand, the card it drew, the choice it owes and its legal actions (in this order: the API
    passes the dict through as it is)."""
    if not 0 <= seat < len(s.seats):
        # Python would happily read seats[-1]: someone else's hand. Refuse instead.
        raise EngineError(NOT_IN_ROUND, f"there is no seat {seat} in this game")
    pending = None
    if s.pending:
        # Never a Wild Draw Four's recorded hand or legality: the challenge tells.
        pending = {
            "seat": s.pending["seat"],
            "owner": s.pending.get("owner", s.pending["seat"]),
            "card": card(s.pending["card"]),
            "effect": s.pending["effect"],
            "reason": s.pending["reason"],
        }
    return {
        **public,
        "you": seat,
        "hand": [card(c) for c in s.seats[seat].hand],
        "drawn_card": card(s.drawn_card) if s.drawn_card and s.current == seat else None,
        "pending_choice": pending,
        "legal_actions": [a.to_dict() for a in legal_actions(s, seat)],
    }


class TableViews(NamedTuple):
    """A coloured game's views, from its tables: every card by ``colour_of`` and ``rank_of``, the
    points of ``presets``, the colour in force and the ``stack`` owed, then the game's ``own``
    public keys; ``legal_actions`` lists what a seat may do."""

    colour_of: dict[str, str | None]
    rank_of: dict[str, str]
    presets: Mapping[str, Preset]
    colour_in_force: Callable[[State], str | None]
    stack: Callable[[State], dict[str, Any] | None]
    own: Callable[[State], dict[str, Any]]
    legal_actions: Callable[[State, int], list[Action]]

    def card(self, card_id: str) -> dict[str, Any]:
        return card_view(card_id, self.colour_of, self.rank_of)

    def public(self, s: State) -> dict[str, Any]:
        own = {
            "colour": self.colour_in_force(s) if s.discard_pile else None,
            "stack": self.stack(s),
            **self.own(s),
        }
        return public_view(s, self.card, self.presets[s.preset].points, own)

    def view(self, state: State, seat: int) -> dict[str, Any]:
        """The position as ``seat`` sees it (a JSON-ready dict)."""
        return seat_view(state, seat, self.card, self.public(state), self.legal_actions)

    def moderator_view(self, state: State) -> dict[str, Any]:
        """Everything, hands and draw pile order included: for moderators only."""
        return moderator_view(state, self.public(state), self.legal_actions)

    def spectator_view(self, state: State) -> dict[str, Any]:
        """The public position alone: what someone without a seat sees."""
        return self.public(state)
