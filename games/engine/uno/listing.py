"""Listing what a seat may do, the same way in every Uno game (changes nothing): nothing between
rounds or for a seat that left; the turn's actions for the seat whose turn it is (the game's own);
UNO for a seat holding one card; a catch of every catchable seat; Mercy when it is on.

Actions are immutable tuples, built once per table size and seat (a game's ``SeatActions``) and
shared by the lists returned. A game's ``legal_actions`` is
``lister(SeatActions, turn_actions)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from .actions import Action
from .calls import catchable_seats
from .mercy import mercy_actions
from .state import MATCH_OVER, ROUND_OVER, State

_OVER = (ROUND_OVER, MATCH_OVER)


class FreeActions(Protocol):
    """What a game's prebuilt table of one seat holds for the actions every Uno game lists."""

    @property
    def uno(self) -> Action: ...

    @property
    def catch(self) -> list[Action]: ...


T = TypeVar("T", bound=FreeActions)


class Tables(dict[int, list[T]]):
    """Table size -> the prebuilt tables of seats 0 to n - 1, built on first use: indexed, not
    called, so finding a seat's table costs no Python call per listing."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[int, int], T]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, n: int) -> list[T]:
        found = self[n] = [self.build(n, i) for i in range(n)]
        return found


def lister(
    build: Callable[[int, int], T],
    turn_actions: Callable[[State, int, list[str], T], list[Action]],
) -> Callable[[State, int], list[Action]]:
    """A game's ``legal_actions``, from its prebuilt table of a seat (``build(n, seat)``, built
    once per table size and seat) and its ``turn_actions`` (what the seat whose turn it is may
    do). The listing itself is one function, not a wrapper calling a shared one: one call less
    per decision."""
    tables = Tables(build)

    def legal_actions(s: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now. A ``uno`` flag may be added to any listed play."""
        seats = s.seats
        if s.phase in _OVER or not 0 <= seat < len(seats) or not seats[seat].active:
            return []
        table = tables[len(seats)][seat]
        hand = seats[seat].hand
        out = turn_actions(s, seat, hand, table) if seat == s.current else []
        if len(hand) == 1 and not seats[seat].uno:
            out.append(table.uno)
        for other in catchable_seats(s):
            if other != seat:
                out.append(table.catch[other])
        if s.house:
            out += mercy_actions(s, seat)
        return out

    return legal_actions
