"""Uno All Wild behind the game interface (``interface.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .. import actions as A
from ..game import UnoFamilyGame, UnoRules
from . import rules, view
from .cards import DEFAULT_PRESET, PRESETS
from .hidden import sample_hidden
from .house_rules import HOUSE_RULES
from .legal import legal_actions

# What each house rule does, written for players; clients show these as they are.
HOUSE_RULE_TEXTS = {
    "stacking": "Stacking: hit by a Draw 2 or Draw 4, you may pass it on by playing a draw card "
    "of equal or higher value (Draw 2 or Draw 4 on a Draw 2, only a Draw 4 on a Draw 4). The "
    "cards add up; the first player who does not stack draws them all and loses the turn. "
    "Targeted Draw 2 never stacks.",
    "speed_mode": "Speed mode: every turn has a short time limit (`speed_seconds`, 5 s unless "
    "chosen). When it runs out you draw a card and the turn passes. Running out of time here "
    "never hands your seat to a bot.",
    "blind_play": "Blind play: nobody sees their own hand, only how many cards it holds. On your "
    "turn you play the top card of your face-down hand (or draw); if it needs a target, you "
    "choose one once it is revealed.",
    "double_down": "Double down: you may play two identical cards at once. Both take effect: two "
    "Draw 2s make the next player draw 4, two Skips skip two players, and each Targeted Draw 2 "
    "or Force Swap takes its own target.",
    "force_swap_protection": "Force Swap protection: a player holding one card cannot be chosen "
    "for a Force Swap. If everyone else holds one card, a Force Swap does nothing.",
    "mercy": "Mercy: holding 15 cards or more, you may once discard 5 cards of your choice, at "
    "any moment and without using your turn. You get the right back once your hand has dropped "
    "below 15.",
}
assert tuple(HOUSE_RULE_TEXTS) == HOUSE_RULES


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
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                name: {"type": "boolean", "default": False, "description": text}
                for name, text in HOUSE_RULE_TEXTS.items()
            },
        }

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
