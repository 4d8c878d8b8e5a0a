"""The one error type the engine raises for an illegal action, with stable codes."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final, cast

# Stable codes: clients and the API depend on them, so never rename one.
NOT_YOUR_TURN: Final = "not_your_turn"
CARD_NOT_IN_HAND: Final = "card_not_in_hand"
TARGET_REQUIRED: Final = "target_required"
TARGET_NOT_ALLOWED: Final = "target_not_allowed"
INVALID_TARGET: Final = "invalid_target"
TARGET_PROTECTED: Final = "target_protected"
DRAW_NOT_ALLOWED: Final = "draw_not_allowed"
NOTHING_TO_DRAW: Final = "nothing_to_draw"
MUST_PLAY_DRAWN_CARD_OR_PASS: Final = "must_play_drawn_card_or_pass"
PASS_NOT_ALLOWED: Final = "pass_not_allowed"
NOTHING_DRAWN: Final = "nothing_drawn"
CHOICE_PENDING: Final = "choice_pending"
NO_CHOICE_PENDING: Final = "no_choice_pending"
UNO_NOT_ALLOWED: Final = "uno_not_allowed"
NOTHING_TO_CATCH: Final = "nothing_to_catch"
ROUND_OVER: Final = "round_over"
ROUND_IN_PROGRESS: Final = "round_in_progress"
GAME_OVER: Final = "game_over"
NOT_IN_ROUND: Final = "not_in_round"
INVALID_ACTION: Final = "invalid_action"
INVALID_SETUP: Final = "invalid_setup"
# House rules
# the action belongs to a house rule this game does not use
HOUSE_RULE_OFF: Final = "house_rule_off"
STACK_PENDING: Final = "stack_pending"  # a stack is owed: stack a draw card or take the cards
NOT_STACKABLE: Final = "not_stackable"  # that card cannot answer the stack
NO_STACK: Final = "no_stack"  # take_stack with no stack owed
HAND_FACE_DOWN: Final = "hand_face_down"  # blind play: cards cannot be chosen from a face-down hand
NOT_A_PAIR: Final = "not_a_pair"  # double down: two different cards of one type
WRONG_CARD_COUNT: Final = "wrong_card_count"  # a parameterised action got the wrong number of cards
MERCY_NOT_ALLOWED: Final = "mercy_not_allowed"  # fewer than 15 cards, or the right is used up
# Games with colours
COLOUR_REQUIRED: Final = "colour_required"  # a wild names the colour it sets
COLOUR_NOT_ALLOWED: Final = "colour_not_allowed"  # a coloured card names none
# matches neither the colour in force nor the top card
CARD_NOT_PLAYABLE: Final = "card_not_playable"
# a Wild Draw Four waits: accept or challenge it first
RESPONSE_REQUIRED: Final = "response_required"
# only the next player challenges, and only then
CHALLENGE_NOT_ALLOWED: Final = "challenge_not_allowed"
# Gin Rummy
OFFER_PENDING: Final = "offer_pending"  # the upcard offer comes first: take the upcard or pass
NO_OFFER: Final = "no_offer"  # the upcard offer is over
# both passed the upcard: the non-dealer draws from the stock
MUST_DRAW_STOCK: Final = "must_draw_stock"
CARD_JUST_TAKEN: Final = "card_just_taken"  # the card taken from the discard pile stays this turn
DISCARD_TAKE_LIMIT: Final = "discard_take_limit"  # the loop guard: only the stock may be drawn now
# the ten kept cards would leave more than 10 deadwood
KNOCK_NOT_ALLOWED: Final = "knock_not_allowed"
BIG_GIN_NOT_ALLOWED: Final = "big_gin_not_allowed"  # the eleven cards do not all meld

ALL_CODES = (
    NOT_YOUR_TURN,
    CARD_NOT_IN_HAND,
    TARGET_REQUIRED,
    TARGET_NOT_ALLOWED,
    INVALID_TARGET,
    TARGET_PROTECTED,
    DRAW_NOT_ALLOWED,
    NOTHING_TO_DRAW,
    MUST_PLAY_DRAWN_CARD_OR_PASS,
    PASS_NOT_ALLOWED,
    NOTHING_DRAWN,
    CHOICE_PENDING,
    NO_CHOICE_PENDING,
    UNO_NOT_ALLOWED,
    NOTHING_TO_CATCH,
    ROUND_OVER,
    ROUND_IN_PROGRESS,
    GAME_OVER,
    NOT_IN_ROUND,
    INVALID_ACTION,
    INVALID_SETUP,
    HOUSE_RULE_OFF,
    STACK_PENDING,
    NOT_STACKABLE,
    NO_STACK,
    HAND_FACE_DOWN,
    NOT_A_PAIR,
    WRONG_CARD_COUNT,
    MERCY_NOT_ALLOWED,
    COLOUR_REQUIRED,
    COLOUR_NOT_ALLOWED,
    CARD_NOT_PLAYABLE,
    RESPONSE_REQUIRED,
    CHALLENGE_NOT_ALLOWED,
    OFFER_PENDING,
    NO_OFFER,
    MUST_DRAW_STOCK,
    CARD_JUST_TAKEN,
    DISCARD_TAKE_LIMIT,
    KNOCK_NOT_ALLOWED,
    BIG_GIN_NOT_ALLOWED,
)


class EngineError(Exception):
    """An action the rules refuse. `code` is stable; `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def action_type(data: Any, types: Collection[str], fields: Collection[str]) -> str:
    """The type of an action's JSON form, once it is an object of known ``fields`` and of one of
    ``types``; ``invalid_action`` if not (every game reads its actions so, then its own fields)."""
    if not isinstance(data, dict):
        raise EngineError(INVALID_ACTION, "an action is a JSON object")
    unknown = set(data) - set(fields)
    if unknown:
        raise EngineError(INVALID_ACTION, f"unknown fields: {', '.join(sorted(unknown))}")
    kind = data.get("type")
    if kind not in types:
        raise EngineError(INVALID_ACTION, f"unknown action type {kind!r}")
    return cast(str, kind)  # one of ``types``
