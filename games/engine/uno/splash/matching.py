"""The colour in force and what may be played on it (rulings: "Colour in force and matching"),
and the Wild Draw Four's legality (rulings: "Wild Draw Four and the challenge")."""

from __future__ import annotations

from ..state import State
from .cards import COLOUR_OF, COLOURS, PRESETS, RANK_OF

# A card is playable when it is a wild, has the colour in force, or has the rank of a coloured top
# card (on a wild only the named colour matches). What matters of the table is (colour in force,
# rank of a coloured top card or None): every such pair's playable cards, built once, so listing a
# hand is a set lookup per card.
_EVERY_CARD = {card for preset in PRESETS.values() for card in preset.card_ids}
_RANKS = {RANK_OF[card] for card in _EVERY_CARD if COLOUR_OF[card]}
PLAYABLE: dict[tuple[str | None, str | None], frozenset[str]] = {
    (colour, rank): frozenset(
        card
        for card in _EVERY_CARD
        if COLOUR_OF[card] is None or COLOUR_OF[card] == colour or RANK_OF[card] == rank
    )
    for colour in (None, *COLOURS)
    for rank in (None, *_RANKS)
}
# The key of PLAYABLE a top card gives: a coloured card's is fixed, so it is looked up rather than
# built (a wild on top reads the named colour: WILD_KEY).
KEY_OF: dict[str, tuple[str | None, str | None]] = {
    card: (COLOUR_OF[card], RANK_OF[card]) for card in _EVERY_CARD if COLOUR_OF[card]
}
WILD_KEY: dict[str | None, tuple[str | None, str | None]] = {
    colour: (colour, None) for colour in (None, *COLOURS)
}


def colour_in_force(s: State) -> str | None:
    """The top card's colour; for a wild on top, the colour its player named (None while an
    opening Wild waits for its colour)."""
    return COLOUR_OF[s.discard_pile[0]] or s.colour


def match_key(s: State) -> tuple[str | None, str | None]:
    """What matters of the table for matching: (colour in force, rank of a coloured top card)."""
    # A wild's rank matches nothing: on a wild only its named colour (and wilds) match.
    return KEY_OF.get(s.discard_pile[0]) or WILD_KEY[s.colour]


def playable_cards(s: State) -> frozenset[str]:
    """Every card that may be played on the table now."""
    return PLAYABLE[match_key(s)]


def playable(s: State, card: str) -> bool:
    return card in playable_cards(s)


def wd4_is_legal(hand: list[str], colour: str | None) -> bool:
    """A Wild Draw Four is legal when its player holds no card of the colour in force (the card
    itself aside). Number or symbol matches and other wilds do not make it illegal."""
    return all(COLOUR_OF[card] != colour for card in hand)  # a wild's colour is None
