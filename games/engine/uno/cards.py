"""Card ids of the Uno family: ``<type>-<n>``, fixed before any shuffle, so a card can be traced
through a game and a leak found by id."""

from __future__ import annotations

from sys import intern

# Card id -> type. A game fills in its deck's ids at import (``register_cards``) so the hot loops
# read this dict directly; any other id (a scenario's, a stored state's) is parsed by card_type on
# first sight and remembered. Ids are interned, so one id is one string object in the deck, the
# hands and this dict, and ``card in hand`` matches by identity before comparing characters.
TYPE_OF: dict[str, str] = {}


def card_ids(deck: dict[str, int], order: tuple[str, ...]) -> tuple[str, ...]:
    """Every card id of a deck (``{type: count}``), types in ``order``, registered in TYPE_OF."""
    ids = tuple(intern(f"{kind}-{n}") for kind in order for n in range(1, deck.get(kind, 0) + 1))
    for card in ids:
        TYPE_OF[card] = intern(card.rpartition("-")[0])
    return ids


def card_type(card_id: str) -> str:
    """The type of a card id (``draw4-3`` -> ``draw4``)."""
    kind = TYPE_OF.get(card_id)
    if kind is None:
        kind = TYPE_OF[card_id] = card_id.rpartition("-")[0]
    return kind
