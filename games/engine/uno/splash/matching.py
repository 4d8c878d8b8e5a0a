"""The colour in force and what may be played on it (rulings: "Colour in force and matching"),
and the Wild Draw Four's legality (rulings: "Wild Draw Four and the challenge")."""

from __future__ import annotations

from ..state import State
from .cards import COLOUR_OF, RANK_OF, WILD_RANKS


def colour_in_force(s: State) -> str | None:
    """The top card's colour; for a wild on top, the colour its player named (None while an
    opening Wild waits for its colour)."""
    return COLOUR_OF[s.discard_pile[0]] or s.colour


class Matcher:
    """Answers "is this card playable now?" for one position: the top card and the colour in
    force, read once. A wild always is; a coloured card when it has the colour in force, or the
    rank of a coloured top card (on a wild only the named colour matches)."""

    __slots__ = ("colour", "rank")

    def __init__(self, s: State) -> None:
        top = s.discard_pile[0]
        self.colour = COLOUR_OF[top] or s.colour
        # A wild's rank matches nothing: only its named colour and other wilds go on it.
        self.rank = RANK_OF[top] if COLOUR_OF[top] else None

    def __call__(self, card: str) -> bool:
        colour = COLOUR_OF[card]
        return colour is None or colour == self.colour or RANK_OF[card] == self.rank


def playable(s: State, card: str) -> bool:
    return Matcher(s)(card)


def wd4_is_legal(hand: list[str], colour: str | None) -> bool:
    """A Wild Draw Four is legal when its player holds no card of the colour in force (the card
    itself aside). Number or symbol matches and other wilds do not make it illegal."""
    return all(COLOUR_OF[card] != colour for card in hand)  # a wild's colour is None


__all__ = ["WILD_RANKS", "Matcher", "colour_in_force", "playable", "wd4_is_legal"]
