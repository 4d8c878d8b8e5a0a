"""Uno All Wild behind the game interface (``interface.Game``)."""

from __future__ import annotations

from typing import Any, ClassVar

from .. import actions as A
from ..game import UnoFamilyGame
from . import rules, view
from .hidden import sample_hidden
from .legal import legal_actions


class AllWild(UnoFamilyGame):
    """Uno All Wild: every card is wild; the rulings are ``shared/RULES.md``."""

    name = "Uno All Wild"
    # Actions after which the turn clock starts afresh (the others leave the turn where it was).
    turn_ending_actions = frozenset(
        {A.PLAY, A.PLAY_DRAWN, A.PASS, A.TIMEOUT, A.TAKE_STACK, A.PLAY_PAIR, A.PLAY_TOP}
    )

    def options_schema(self) -> dict[str, Any]:
        return rules.HOUSE.schema()

    card_names: ClassVar[dict[str, str]] = {
        "wild": "Wild",
        "draw2": "Draw 2",
        "draw4": "Draw 4",
        "reverse": "Reverse",
        "skip": "Skip",
        "skip_two": "Skip Two",
        "targeted_draw2": "Targeted Draw 2",
        "force_swap": "Force Swap",
        "shuffle_hands": "Shuffle Hands",
    }


ALL_WILD = AllWild(rules, legal_actions, view, sample_hidden)
