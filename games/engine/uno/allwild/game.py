"""Uno All Wild behind the game interface (``interface.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .. import actions as A
from ..game import UnoFamilyGame, UnoRules
from . import rules, view
from .cards import DEFAULT_PRESET, PRESETS
from .hidden import sample_hidden
from .legal import legal_actions


class AllWild(UnoFamilyGame):
    """Uno All Wild: every card is wild; the rulings are ``shared/RULES.md``."""

    kind = rules.GAME
    name = "Uno All Wild"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    presets: Sequence[str] = tuple(PRESETS)
    default_preset = DEFAULT_PRESET
    default_target = 500
    action_types: Sequence[str] = A.PLAYER_ACTIONS
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

    def deck(self, preset: str) -> tuple[str, ...]:
        return PRESETS[preset].card_ids


ALL_WILD = AllWild(
    UnoRules(
        new_game=rules.new_game,
        validate_options=rules.validate_options,
        legal_actions=legal_actions,
        apply=rules.apply,
        view=view.view,
        moderator_view=view.moderator_view,
        sample_hidden=sample_hidden,
        action_types=A.ACTION_TYPES,
    )
)
