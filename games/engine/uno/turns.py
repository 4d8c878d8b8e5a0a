"""Turn order: direction, the next seat, lost turns, and whose turn an action may take.

"Next player" always counts seats in the current direction, skipping seats that left, whoever
holds which hand. A lost turn is owed by its seat (``Seat.skips``) and consumed when the turn
passes over that seat.
"""

from __future__ import annotations

from typing import Any

from .. import errors as E
from ..errors import EngineError
from ..interface import Event
from .actions import Action
from .state import CHOOSE, CLOCKWISE, DRAWN, MATCH_OVER, PLAY, ROUND_OVER, STACK, State


def direction_name(direction: int) -> str:
    return "clockwise" if direction == CLOCKWISE else "counterclockwise"


def next_active(s: State, seat: int, direction: int) -> int:
    """The next seat in ``direction`` still in the game."""
    seats = s.seats
    n = len(seats)
    i = (seat + direction) % n
    if seats[i].active:  # nearly always: no loop to set up
        return i
    for _ in range(n - 2):
        i = (i + direction) % n
        if seats[i].active:
            return i
    return seat  # pragma: no cover - a round always has two active seats


def active_count(s: State) -> int:
    return sum(1 for seat in s.seats if seat.active)


def seats_from(s: State, start: int, direction: int) -> list[int]:
    """Active seats in turn order starting with ``start``."""
    order = [start]
    i = next_active(s, start, direction)
    while i != start:
        order.append(i)
        i = next_active(s, i, direction)
    return order


def advance(s: State, ev: list[Event]) -> None:
    """Pass the turn to the next seat in the current direction that owes no lost turn."""
    seats = s.seats
    seat = next_active(s, s.current, s.direction)
    while seats[seat].skips > 0:
        seats[seat].skips -= 1
        ev.append({"type": "skipped", "seat": seat})
        seat = next_active(s, seat, s.direction)
    s.current = seat
    s.phase = PLAY
    s.drawn_card = None


def lose_turns(s: State, seat: int, count: int, ev: list[Event]) -> None:
    """``seat`` loses its next ``count`` turns (lost turns add up)."""
    s.seats[seat].skips += count
    ev.append({"type": "loses_turn", "seat": seat, "count": count})


def lose_next_turns(s: State, seat: int, count: int, ev: list[Event]) -> None:
    """The next ``count`` turns that belong to players other than ``seat`` are lost.

    Turns are counted in turn order past the turns already lost (a seat owing k lost turns has its
    next k turns passed over), and ``seat``'s own turns in between are not counted: with 2 players
    the opponent sits out ``count`` times; with 5 players four lost turns are the four others'.
    """
    already = [other.skips for other in s.seats]
    i = seat
    while count:
        i = next_active(s, i, s.direction)
        if i == seat:
            continue
        if already[i]:
            already[i] -= 1
            continue
        lose_turns(s, i, 1, ev)
        count -= 1


# ---------------------------------------------------------------------------------------------
# Who may act: checks shared by every action (they only read the state).


def seat_of(s: State, action: Action) -> int:
    seat = action.seat
    if seat is None or not 0 <= seat < len(s.seats):
        raise EngineError(E.INVALID_ACTION, "the action needs the seat that takes it")
    return seat


def require_round(s: State) -> None:
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if s.phase == ROUND_OVER:
        raise EngineError(E.ROUND_OVER, "the round is over")


def require_player(s: State, seat: int) -> None:
    require_round(s)
    if not s.seats[seat].active:
        raise EngineError(E.NOT_IN_ROUND, "you have left this game")


def require_house_rule(s: State, rule: str) -> None:
    """An action of house rule ``rule`` (an option name) is refused in a game without it."""
    if not s.options.get(rule):
        name = rule.replace("_", " ")
        raise EngineError(E.HOUSE_RULE_OFF, f"{name} is not a house rule of this game")


def await_choice(s: State, seat: int, card: str, effect: str, reason: str, **more: Any) -> None:
    """Play waits (phase ``choose``) for ``seat`` to choose what ``card`` needs (a target, a
    colour: ``effect``), for ``reason`` (an opening card, a blind play, a Roulette)."""
    s.phase = CHOOSE
    s.pending = {"seat": seat, "card": card, "effect": effect, "reason": reason, **more}


_TURN_PHASES = (PLAY, DRAWN, STACK)


def turn_seat(s: State, action: Action) -> int:
    """The seat taking a turn action: in the round, its turn, no target left to choose."""
    seat = action.seat
    if seat == s.current and s.phase in _TURN_PHASES and s.seats[seat].active:
        return seat  # the usual case, accepted at once (each check below would pass)
    seat = seat_of(s, action)
    require_player(s, seat)
    if seat != s.current:
        raise EngineError(E.NOT_YOUR_TURN, f"it is seat {s.current}'s turn")
    if s.phase == CHOOSE:
        raise EngineError(E.CHOICE_PENDING, "choose a target for the card on the table first")
    return seat


def chooser(s: State, action: Action, what: str) -> int:
    """The seat making the open choice of ``what`` (a target, a colour) for a card on the table."""
    seat = seat_of(s, action)
    require_player(s, seat)
    if s.phase != CHOOSE or not s.pending:
        raise EngineError(E.NO_CHOICE_PENDING, f"there is no {what} to choose")
    if s.pending["seat"] != seat:
        raise EngineError(E.NOT_YOUR_TURN, f"seat {s.pending['seat']} chooses the {what}")
    return seat
