"""What every Uno game shows: its events as a seat sees them (``games.engine.events``), the
seats' public rows, the public part of the position and the moderators' view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..events import copy_json, visible_event
from ..interface import Event
from .actions import Action
from .calls import catchable_seats
from .state import CLOCKWISE, State

__all__ = ["copy_json", "visible_event"]


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    return [e for e in (visible_event(ev, seat) for ev in events) if e is not None]


def seat_rows(s: State) -> list[dict[str, Any]]:
    """What everyone sees of each seat: hand size, UNO, catchable, still in, lost turns, score."""
    catchable = set(catchable_seats(s))
    return [
        {
            "seat": i,
            "hand_size": len(seat.hand),
            "uno": seat.uno,
            "catchable": i in catchable,
            "active": seat.active,
            "skips_owed": seat.skips,
            "score": seat.score,
        }
        for i, seat in enumerate(s.seats)
    ]


def moderator_view(
    s: State, public: dict[str, Any], legal_actions: Callable[[State, int], list[Action]]
) -> dict[str, Any]:
    """Everything, hands and draw pile order included: for moderators only."""
    return {
        **public,
        "state": s.to_dict(),
        "legal_actions": {
            str(i): [a.to_dict() for a in legal_actions(s, i)] for i in range(len(s.seats))
        },
    }


def public_view(
    s: State,
    card: Callable[[str], dict[str, Any]],
    points: dict[str, int],
    own: dict[str, Any],
) -> dict[str, Any]:
    """What everyone at the table sees, with the game's ``own`` public keys after the seats (in
    this order: the API passes the dict through as it is). ``card`` describes a card."""
    return {
        "game": s.game,
        "preset": s.preset,
        "options": dict(s.options),
        "target_score": s.target_score,
        "round": s.round,
        "phase": s.phase,
        "current_seat": s.current,
        "direction": "clockwise" if s.direction == CLOCKWISE else "counterclockwise",
        "dealer": s.dealer,
        "seats": seat_rows(s),
        **own,
        "discard_top": card(s.discard_pile[0]) if s.discard_pile else None,
        # Played cards lie face up: the discard pile is the public history of this round's plays.
        "discard_pile": [card(c) for c in s.discard_pile],
        "draw_size": len(s.draw_pile),
        "points": dict(points),
        # Deep copies: a view is plain data that shares nothing with the state it came from.
        "round_results": [copy_json(r) for r in s.round_results],
        "winner": s.winner,
    }
