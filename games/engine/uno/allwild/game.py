"""Uno All Wild behind the game interface (``interface.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...interface import RNG, Event
from .. import actions as A
from ..actions import Action
from ..game import UnoFamilyGame
from ..state import State
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

    def validate_options(self, options: Any) -> dict[str, Any]:
        return rules.validate_options(options)

    def new_game(
        self,
        *,
        players: int,
        rng: RNG,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        target_score: int | None = None,
    ) -> tuple[State, list[Event]]:
        return rules.new_game(
            players=players,
            rng=rng,
            preset=self.default_preset if preset is None else preset,
            options=options,
            target_score=self.default_target if target_score is None else target_score,
        )

    def deck(self, preset: str) -> tuple[str, ...]:
        return PRESETS[preset].card_ids

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: State, action: Action, rng: RNG) -> tuple[State, list[Event]]:
        return rules.apply(state, action, rng)

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return view.view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return view.moderator_view(state)

    def actors(self, state: State) -> frozenset[int]:
        return frozenset(i for i in range(len(state.seats)) if legal_actions(state, i))

    def action_from_dict(self, data: Any) -> Action:
        return Action.from_dict(data)

    def sample_hidden(self, state: State, seat: int, rng: RNG) -> State:
        return sample_hidden(state, seat, rng)


ALL_WILD = AllWild()
