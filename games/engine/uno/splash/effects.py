"""What each Uno Splash card does once played ("next player" = next in the current direction),
by rank: number cards and Wilds nothing more, Skip, Reverse (a Skip with 2 players) and Draw Two
as the family plays them (under stacking a Draw Two starts or joins a stack). The Wild Draw Four
waits for its response (``challenge``)."""

from __future__ import annotations

from collections.abc import Callable

from ...interface import RNG, Event
from .. import effects as family
from ..state import State
from ..turns import next_active
from . import stacking
from .cards import DRAW2, DRAW_AMOUNT, REVERSE, SKIP

Effect = Callable[[State, int, RNG, list[Event]], None]


def skip(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The next player loses their turn."""
    family.skip(s, seat, 1, ev)


def reverse(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The direction flips; with 2 players it acts as Skip."""
    family.reverse(s, seat, ev)


def draw2(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The next player draws 2 and loses their turn; under stacking they answer first."""
    victim = next_active(s, seat, s.direction)
    going_out = not s.seats[seat].hand
    if not stacking.add_draw(s, victim, DRAW_AMOUNT[DRAW2], DRAW2, going_out, rng, ev):
        family.draw_and_lose_turn(s, victim, DRAW_AMOUNT[DRAW2], rng, ev, DRAW2)


# Ranks absent here (numbers, Wild) do nothing more; the Wild Draw Four is ``challenge``'s.
EFFECTS: dict[str, Effect] = {SKIP: skip, REVERSE: reverse, DRAW2: draw2}
