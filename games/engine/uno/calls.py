"""Saying UNO and catching.

A player who comes to hold one card must say UNO; any other player still in the round may catch
one who has not, until the next turn action closes the window. The caught player draws 2 (or what
is left), which settles that one-card stint. A player whose own card still waits for a choice
cannot be caught until it resolves (unless a game rules that choice another player's own turn
action: No Mercy's Roulette).
"""

from __future__ import annotations

from operator import attrgetter

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import Action
from .piles import draw
from .state import State
from .turns import require_player, seat_of

_EXPOSED = attrgetter("exposed")


def say_uno(s: State, seat: int, ev: list[Event]) -> None:
    """The word counts only when the seat holds one card (after the effect of a play)."""
    me = s.seats[seat]
    if len(me.hand) == 1 and not me.uno:
        me.uno = True
        me.exposed = False
        ev.append({"type": "uno", "seat": seat})


def catchable_seats(s: State) -> list[int]:
    """Seats any other player may catch now: one card, no UNO, window open, no open choice."""
    if not any(map(_EXPOSED, s.seats)):  # the usual case: no window open
        return []
    # The seat whose card still waits on the table: the chooser, or the card's owner when another
    # seat owes the answer (a Wild Draw Four's response). An answer that is the other seat's own
    # turn action shields nobody (``shields_owner`` False: No Mercy's Roulette, whose colour the
    # victim names).
    pending = s.pending
    shielded = (
        pending.get("owner", pending["seat"])
        if pending and pending.get("shields_owner", True)
        else None
    )
    return [
        i
        for i, seat in enumerate(s.seats)
        if seat.exposed and seat.active and not seat.uno and len(seat.hand) == 1 and i != shielded
    ]


def close_catch_windows(s: State) -> None:
    for seat in s.seats:
        seat.exposed = False


def do_uno(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = seat_of(s, a)
    require_player(s, seat)
    me = s.seats[seat]
    if len(me.hand) != 1 or me.uno:
        why = "you already said it" if me.uno else "you do not hold exactly one card"
        raise EngineError(E.UNO_NOT_ALLOWED, f"UNO not allowed: {why}")
    say_uno(s, seat, ev)


def do_catch(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = seat_of(s, a)
    require_player(s, seat)
    target = a.target
    if target is None:
        raise EngineError(E.TARGET_REQUIRED, "name the seat you catch")
    if target == seat or not 0 <= target < len(s.seats):
        raise EngineError(E.INVALID_TARGET, "you can catch another player only")
    if target not in catchable_seats(s):
        raise EngineError(
            E.NOTHING_TO_CATCH,
            f"seat {target} cannot be caught: they said UNO, do not hold exactly one card,"
            " or the chance to catch them has passed",
        )
    ev.append({"type": "caught", "seat": seat, "target": target})
    draw(s, target, 2, rng, ev, "caught")
    s.seats[target].exposed = False  # settles this one-card stint, even if nothing was drawn
