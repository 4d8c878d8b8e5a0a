"""Uno Splash behind the game interface (``interface.Game``)."""

from __future__ import annotations

from typing import Any

from .. import actions as A
from ..colours import card_name as coloured_card_name
from ..game import UnoFamilyGame
from . import rules, view
from .cards import COLOUR_OF, RANK_OF
from .hidden import sample_hidden
from .legal import legal_actions


class Splash(UnoFamilyGame):
    """Uno Splash, classic UNO: the rulings are ``shared/rules/uno_splash.md``."""

    name = "Uno Splash"
    # Actions after which the turn clock starts afresh: the turn actions, and the answer to a
    # Wild Draw Four (after it the next turn starts, the challenger's own after a success).
    turn_ending_actions = frozenset(
        {
            A.PLAY,
            A.PLAY_DRAWN,
            A.PASS,
            A.TIMEOUT,
            A.ACCEPT,
            A.CHALLENGE,
            A.PLAY_PAIR,
            A.TAKE_STACK,
        }
    )

    def options_schema(self) -> dict[str, Any]:
        return rules.HOUSE.schema()

    def card_name(self, card: str) -> str:
        """``red-7-b`` -> "Red 7", ``blue-skip-a`` -> "Blue Skip", ``wd4-2`` -> "Wild Draw Four"."""
        return coloured_card_name(card, COLOUR_OF, RANK_OF, RANK_NAMES) or super().card_name(card)


RANK_NAMES = {
    "skip": "Skip",
    "reverse": "Reverse",
    "draw2": "Draw Two",
    "wild": "Wild",
    "wd4": "Wild Draw Four",
}


SPLASH = Splash(rules, legal_actions, view.VIEWS, sample_hidden)
