"""The colour in play and what may be played on it (rulings: "A turn"), and the stacking table
(rulings: "Stacking"): No Mercy's rows of the family's stacking mechanism (``uno.stacking``)."""

from __future__ import annotations

from ..stacking import StackRules
from ..state import State
from .cards import COLOUR_OF, COLOURS, DRAW2, DRAW4, PRESETS, RANK_OF, WD6, WD10, WRD4

# Playable: a wild, the colour in play, or the rank of a coloured top card (a number on that
# number, a coloured action on the same action; on a wild only its named colour). Built once per
# (colour in play, rank of a coloured top card or None), so listing a hand is a set lookup a card.
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

# The rulings' table: what may be stacked on the last Draw card stacked, by its rank (colours
# never matter; nothing goes on a Wild Draw 10).
STACKING = StackRules(
    RANK_OF.__getitem__,
    {
        DRAW2: (DRAW2, DRAW4, WRD4, WD6, WD10),
        DRAW4: (DRAW4, WRD4, WD6, WD10),
        WRD4: (DRAW4, WRD4, WD6, WD10),
        WD6: (WD6, WD10),
        WD10: (),
    },
)


def colour_in_play(s: State) -> str | None:
    """The top card's colour; for a wild on top, the colour named for it (None while an opening
    wild waits for its colour)."""
    return COLOUR_OF[s.discard_pile[0]] or s.colour


def playable_cards(s: State) -> frozenset[str]:
    top = s.discard_pile[0]
    colour = COLOUR_OF[top]
    if colour is None:
        return PLAYABLE[s.colour, None]
    return PLAYABLE[colour, RANK_OF[top]]


def playable(s: State, card: str) -> bool:
    return card in playable_cards(s)
