"""Uno Splash behind the game interface (``interface.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import actions as A
from ..colours import card_name as coloured_card_name
from ..game import UnoFamilyGame, UnoRules
from . import rules, view
from .cards import COLOUR_OF, DEFAULT_PRESET, PRESETS, RANK_OF
from .hidden import sample_hidden
from .legal import legal_actions


class Splash(UnoFamilyGame):
    """Uno Splash, classic UNO: the rulings are ``shared/rules/uno_splash.md``."""

    kind = rules.GAME
    name = "Uno Splash"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    presets: Sequence[str] = tuple(PRESETS)
    default_preset = DEFAULT_PRESET
    default_target = 500
    action_types: Sequence[str] = rules.PLAYER_ACTIONS
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

    def deck(self, preset: str) -> tuple[str, ...]:
        return PRESETS[preset].card_ids


RANK_NAMES = {
    "skip": "Skip",
    "reverse": "Reverse",
    "draw2": "Draw Two",
    "wild": "Wild",
    "wd4": "Wild Draw Four",
}


SPLASH = Splash(
    UnoRules(
        new_game=rules.new_game,
        validate_options=rules.validate_options,
        legal_actions=legal_actions,
        apply=rules.apply,
        view=view.view,
        moderator_view=view.moderator_view,
        sample_hidden=sample_hidden,
        action_types=rules.ACTION_TYPES,
        action_fields=rules.ACTION_FIELDS,
    )
)
