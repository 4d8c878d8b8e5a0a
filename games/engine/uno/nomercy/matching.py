"""The colour in play and what may be played on it (rulings: "A turn": the family's coloured
matching, ``uno.colours``), and the stacking table (rulings: "Stacking"): No Mercy's rows of the
family's stacking mechanism (``uno.stacking``)."""

from __future__ import annotations

from ..colours import Matching
from ..stacking import StackRules
from ..state import State
from .cards import COLOUR_OF, COLOURS, DRAW2, DRAW4, PRESETS, RANK_OF, WD6, WD10, WRD4

MATCHING = Matching(
    (card for preset in PRESETS.values() for card in preset.card_ids), COLOURS, COLOUR_OF, RANK_OF
)
colour_in_play = MATCHING.colour_in_force
playable_cards = MATCHING.playable_cards

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


def playable(s: State, card: str) -> bool:
    return card in playable_cards(s)
