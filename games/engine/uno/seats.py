"""Leaving a game in progress (a platform rule).

A player who leaves is out: their hand goes face down under the draw pile; their seat is skipped
for turns, passes, targets and the deal; if it was their turn, play passes on and any stack they
owed is cancelled. When one player is left, that player wins the match (the round scores nothing).
"""

from __future__ import annotations

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import Action
from .calls import close_catch_windows
from .state import CHOOSE, DRAWN, MATCH_OVER, PLAY, STACK, State
from .turns import advance, seat_of


def retire(s: State, seat: int, ev: list[Event]) -> None:
    """``seat`` is out: its hand goes face down under the draw pile (the ``left`` event shows it
    to moderators only), and it holds no UNO call and owes no lost turns."""
    me = s.seats[seat]
    # A new list, not extend: a copied state may share its draw pile with the one it came from.
    # The hand's order under it is nobody's business.
    s.draw_pile = [*s.draw_pile, *me.hand]
    ev.append(
        {
            "type": "left",
            "seat": seat,
            "count": len(me.hand),
            "secret": {"cards": list(me.hand)},
            "to": None,
        }
    )
    me.hand = []
    me.active = False
    me.uno = me.exposed = False
    me.skips = 0


def do_leave(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = seat_of(s, a)
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    me = s.seats[seat]
    if not me.active:
        raise EngineError(E.NOT_IN_ROUND, "that seat has already left")
    had_turn = s.phase in (PLAY, DRAWN, CHOOSE, STACK) and s.current == seat
    retire(s, seat, ev)
    if s.pending and s.pending["seat"] == seat:
        s.pending = None
        if s.phase == CHOOSE:
            s.phase = PLAY
    if had_turn and s.phase == STACK:
        ev.append({"type": "stack_cancelled", "seat": seat, "total": s.stack})
        s.stack = 0
        s.phase = PLAY
    remaining = s.active_seats()
    if len(remaining) == 1:
        last_player_wins(s, remaining[0], ev)
        return
    if had_turn:
        advance(s, ev)


def last_player_wins(s: State, winner: int, ev: list[Event]) -> None:
    """Everyone else has left: ``winner`` wins the match and the round scores nothing."""
    s.winner = winner
    s.phase = MATCH_OVER
    s.drawn_card = None
    s.pending = None
    s.stack = 0
    close_catch_windows(s)
    ev.append({"type": "match_over", "winner": s.winner, "reason": "last_player_left"})
