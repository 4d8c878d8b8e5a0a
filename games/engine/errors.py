"""The one error type the engine raises for an illegal action, with stable codes."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

# Stable codes: clients and the API depend on them, so never rename one.
NOT_YOUR_TURN = "not_your_turn"
CARD_NOT_IN_HAND = "card_not_in_hand"
TARGET_REQUIRED = "target_required"
TARGET_NOT_ALLOWED = "target_not_allowed"
INVALID_TARGET = "invalid_target"
TARGET_PROTECTED = "target_protected"
DRAW_NOT_ALLOWED = "draw_not_allowed"
NOTHING_TO_DRAW = "nothing_to_draw"
MUST_PLAY_DRAWN_CARD_OR_PASS = "must_play_drawn_card_or_pass"
PASS_NOT_ALLOWED = "pass_not_allowed"
NOTHING_DRAWN = "nothing_drawn"
CHOICE_PENDING = "choice_pending"
NO_CHOICE_PENDING = "no_choice_pending"
UNO_NOT_ALLOWED = "uno_not_allowed"
NOTHING_TO_CATCH = "nothing_to_catch"
ROUND_OVER = "round_over"
ROUND_IN_PROGRESS = "round_in_progress"
GAME_OVER = "game_over"
NOT_IN_ROUND = "not_in_round"
INVALID_ACTION = "invalid_action"
INVALID_SETUP = "invalid_setup"
# House rules
HOUSE_RULE_OFF = "house_rule_off"  # the action belongs to a house rule this game does not use
STACK_PENDING = "stack_pending"  # a stack is owed: stack a draw card or take the cards
NOT_STACKABLE = "not_stackable"  # that card cannot answer the stack
NO_STACK = "no_stack"  # take_stack with no stack owed
HAND_FACE_DOWN = "hand_face_down"  # blind play: cards cannot be chosen from a face-down hand
NOT_A_PAIR = "not_a_pair"  # double down: two different cards of one type
WRONG_CARD_COUNT = "wrong_card_count"  # a parameterised action got the wrong number of cards
MERCY_NOT_ALLOWED = "mercy_not_allowed"  # fewer than 15 cards, or the right is used up
# Games with colours
COLOUR_REQUIRED = "colour_required"  # a wild names the colour it sets
COLOUR_NOT_ALLOWED = "colour_not_allowed"  # a coloured card names none
CARD_NOT_PLAYABLE = "card_not_playable"  # matches neither the colour in force nor the top card
RESPONSE_REQUIRED = "response_required"  # a Wild Draw Four waits: accept or challenge it first
CHALLENGE_NOT_ALLOWED = "challenge_not_allowed"  # only the next player challenges, and only then
# Gin Rummy
OFFER_PENDING = "offer_pending"  # the upcard offer comes first: take the upcard or pass
NO_OFFER = "no_offer"  # the upcard offer is over
MUST_DRAW_STOCK = "must_draw_stock"  # both passed the upcard: the non-dealer draws from the stock
CARD_JUST_TAKEN = "card_just_taken"  # the card taken from the discard pile stays this turn
DISCARD_TAKE_LIMIT = "discard_take_limit"  # the loop guard: only the stock may be drawn now
KNOCK_NOT_ALLOWED = "knock_not_allowed"  # the ten kept cards would leave more than 10 deadwood
BIG_GIN_NOT_ALLOWED = "big_gin_not_allowed"  # the eleven cards do not all meld

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
