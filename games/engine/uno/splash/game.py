"""Uno Splash behind the game interface (``interface.Game``)."""

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
from .legal import legal_actions

# What each house rule offered does, written for players; clients show these as they are.
HOUSE_RULE_TEXTS = {
    "stacking": "Stacking: hit by a Draw Two or a Wild Draw Four, you pass it on with a Draw Two "
    "(on a Draw Two) or a Wild Draw Four. Allowed by the rulings, not available yet: refused at "
    "game creation.",
    "speed_mode": "Speed mode: every turn has a short time limit (`speed_seconds`, 5 s unless "
    "chosen). When it runs out you draw a card and the turn passes; a Wild Draw Four you owe an "
    "answer to is accepted. Running out of time here never hands your seat to a bot.",
    "double_down": "Double down: two identical cards (same colour and number or symbol) played "
    "at once. Allowed by the rulings, not available yet: refused at game creation.",
    "mercy": "Mercy: holding 15 cards or more, you may once discard 5 cards of your choice, at "
    "any moment and without using your turn; they go under the top card, so the colour in force "
    "stays. Not while you owe a choice (the opening colour, an answer to a Wild Draw Four). You "
    "get the right back once your hand has dropped below 15.",
}
assert tuple(HOUSE_RULE_TEXTS) == rules.HOUSE_RULES


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
        {A.PLAY, A.PLAY_DRAWN, A.PASS, A.TIMEOUT, A.ACCEPT, A.CHALLENGE}
    )

    def options_schema(self) -> dict[str, Any]:
        refused = "; ".join(f"{name}: {why}" for name, why in rules.REFUSED_HOUSE_RULES.items())
        return {
            "type": "object",
            "additionalProperties": False,
            "description": f"House rules, each off by default. Not offered: {refused}.",
            "properties": {
                name: {"type": "boolean", "default": False, "description": text}
                for name, text in HOUSE_RULE_TEXTS.items()
                if name in rules.SUPPORTED_HOUSE_RULES
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
        return Action.from_dict(data, rules.ACTION_TYPES, rules.ACTION_FIELDS)

    def sample_hidden(self, state: State, seat: int, rng: RNG) -> State:
        return sample_hidden(state, seat, rng)


SPLASH = Splash()
