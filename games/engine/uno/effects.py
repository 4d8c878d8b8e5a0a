"""The card effects every Uno game shares ("next player" = next in the current direction): a
Reverse, a Skip, and a draw card's "the next player draws and loses a turn". A game's effect
table calls these; the cards that exist in one game only keep their effects there."""

from __future__ import annotations

from ..interface import RNG, Event
from .piles import draw
from .state import State
from .turns import active_count, direction_name, lose_next_turns, lose_turns


def reverse(s: State, seat: int, ev: list[Event]) -> None:
    """The direction flips; with 2 players it acts as Skip."""
    s.direction = -s.direction
    ev.append({"type": "direction", "direction": direction_name(s.direction)})
    if active_count(s) == 2:
        lose_next_turns(s, seat, 1, ev)


def skip(s: State, seat: int, count: int, ev: list[Event]) -> None:
    """The next ``count`` turns that belong to other players are lost."""
    lose_next_turns(s, seat, count, ev)


def draw_and_lose_turn(
    s: State, victim: int, amount: int, rng: RNG, ev: list[Event], reason: str
) -> None:
    """``victim`` draws ``amount`` (or what is left) and loses their next turn."""
    draw(s, victim, amount, rng, ev, reason)
    lose_turns(s, victim, 1, ev)
