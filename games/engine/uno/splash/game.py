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

# What each house rule offered does, written for players; clients show these as they are.
HOUSE_RULE_TEXTS = {
    "stacking": "Stacking: hit by a Draw Two or a Wild Draw Four, you may pass it on instead of "
    "drawing: any Draw Two or a Wild Draw Four on a Draw Two, only a Wild Draw Four on a Wild "
    "Draw Four. The amounts add up; the first player who does not stack takes the total and loses "
    "the turn. Every Wild Draw Four may still be challenged by the player it passes to, before "
    "answering: if it succeeds its player draws 4 and the total drops by 4; if it fails you draw "
    "the total + 2 and lose the turn. A Draw Two pair (double down) adds 4.",
    "speed_mode": "Speed mode: every turn has a short time limit (`speed_seconds`, 5 s unless "
    "chosen). When it runs out you draw a card and the turn passes; a Wild Draw Four you owe an "
    "answer to is accepted. Running out of time here never hands your seat to a bot.",
    "double_down": "Double down: you may play two identical cards (same colour and same number "
    "or symbol) at once; both take effect: two Draw Twos make the next player draw 4, two Skips "
    "skip two players, two Reverses leave the direction as it was (with 2 players: two skips). "
    "Wilds are never paired.",
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
        later = {
            name: "allowed by the rulings, not available yet"
            for name in rules.HOUSE_RULES
            if name not in rules.SUPPORTED_HOUSE_RULES
        }
        not_offered: dict[str, str] = {**later, **rules.REFUSED_HOUSE_RULES}
        listed = "; ".join(f"{name}: {why}" for name, why in not_offered.items())
        return {
            "type": "object",
            "additionalProperties": False,
            "description": f"House rules, each off by default. Refused at creation: {listed}.",
            "x-not-offered": not_offered,
            "properties": {
                name: {"type": "boolean", "default": False, "description": text}
                for name, text in HOUSE_RULE_TEXTS.items()
                if name in rules.SUPPORTED_HOUSE_RULES
            },
        }

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
