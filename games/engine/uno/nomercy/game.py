"""Uno Show 'Em No Mercy behind the game interface (``interface.Game``)."""

from __future__ import annotations

from typing import Any

from ...interface import no_options_schema
from .. import actions as A
from ..colours import card_name as coloured_card_name
from ..game import UnoFamilyGame
from ..state import State
from . import rules, view
from .cards import COLOUR_OF, RANK_OF
from .hidden import sample_hidden
from .knockout import seated
from .legal import legal_actions


class NoMercy(UnoFamilyGame):
    """Uno Show 'Em No Mercy: the rulings are ``shared/rules/uno_no_mercy.md``."""

    name = "Uno Show 'Em No Mercy"
    # Actions after which the turn clock starts afresh: the turn actions, answering a stack and
    # naming a colour (a Roulette victim's whole turn). A draw binds the drawn card to be played
    # in the same turn.
    turn_ending_actions = frozenset(
        {A.PLAY, A.PLAY_DRAWN, A.TIMEOUT, A.TAKE_STACK, A.CHOOSE_COLOUR}
    )

    def options_schema(self) -> dict[str, Any]:
        return no_options_schema(self.name)

    def card_name(self, card: str) -> str:
        """``red-draw4-a`` -> "Red Draw Four", ``roulette-3`` -> "Wild Color Roulette"."""
        return coloured_card_name(card, COLOUR_OF, RANK_OF, RANK_NAMES) or super().card_name(card)

    def piles(self, state: State) -> dict[str, list[str]]:
        # The knocked-out hands lie face down beside the piles until the next reshuffle.
        return {**super().piles(state), "set_aside": list(state.set_aside)}

    def active_seats(self, state: State) -> list[int]:
        # Knocked out is out of the round, not out of the match.
        return [i for i in range(len(state.seats)) if seated(state, i)]


RANK_NAMES = {
    "skip": "Skip",
    "reverse": "Reverse",
    "draw2": "Draw Two",
    "draw4": "Draw Four",
    "discard_all": "Discard All",
    "skip_all": "Skip Everyone",
    "wrd4": "Wild Reverse Draw Four",
    "wd6": "Wild Draw Six",
    "wd10": "Wild Draw Ten",
    "roulette": "Wild Color Roulette",
}


NO_MERCY = NoMercy(rules, legal_actions, view.VIEWS, sample_hidden)
