"""The colour in force and what may be played on it (rulings: "Colour in force and matching"),
and the Wild Draw Four's legality (rulings: "Wild Draw Four and the challenge")."""

from __future__ import annotations

from ..colours import Matching
from ..state import State
from .cards import COLOUR_OF, COLOURS, PRESETS, RANK_OF

# The family's coloured matching (``uno.colours``): a wild, the colour in force, or the rank of a
# coloured top card (on a wild only the named colour matches).
MATCHING = Matching(
    (card for preset in PRESETS.values() for card in preset.card_ids), COLOURS, COLOUR_OF, RANK_OF
)
PLAYABLE = MATCHING.table
colour_in_force = MATCHING.colour_in_force
match_key = MATCHING.match_key
playable_cards = MATCHING.playable_cards


def playable(s: State, card: str) -> bool:
    return card in playable_cards(s)


def wd4_is_legal(hand: list[str], colour: str | None) -> bool:
    """A Wild Draw Four is legal when its player holds no card of the colour in force (the card
    itself aside). Number or symbol matches and other wilds do not make it illegal."""
    return all(COLOUR_OF[card] != colour for card in hand)  # a wild's colour is None
