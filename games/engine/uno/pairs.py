"""Double down, what every Uno game with the house rule shares: two cards played at once must be two
different cards of the hand that the game calls a pair (All Wild: one type; Splash: one colour and
rank, never a wild). What a pair then does is each game's."""

from __future__ import annotations

from collections.abc import Callable

from .. import errors as E
from ..errors import EngineError
from .state import State


def pair_of(
    s: State,
    seat: int,
    cards: tuple[str, ...] | None,
    alike: Callable[[str, str], bool],
    not_alike: str,
) -> tuple[str, str]:
    """The two cards of a valid pair; ``not_alike`` says what a pair is, when ``alike`` says no."""
    if cards is None or len(cards) != 2:
        raise EngineError(E.WRONG_CARD_COUNT, "double down plays exactly two cards")
    hand = s.seats[seat].hand
    for card in cards:
        if card not in hand:
            raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    first, second = cards
    if first == second or not alike(first, second):
        raise EngineError(E.NOT_A_PAIR, f"double down plays {not_alike}")
    return first, second
