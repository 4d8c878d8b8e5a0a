"""What every Uno game shows of its events: a secret part (the cards drawn, a challenged hand)
goes only to the seat it is addressed to (``to``); chance outcomes go to moderators only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..interface import Event
from .actions import Action
from .calls import catchable_seats
from .state import CLOCKWISE, State


def visible_event(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it; ``None`` for a moderator (sees all).

    Returns None when the seat may not see the event at all (chance outcomes).
    """
    if seat is not None and event["type"] == "chance":
        return None
    out = {k: copy_json(v) for k, v in event.items() if k not in ("secret", "to")}
    if "secret" in event and (seat is None or event.get("to") == seat):
        out.update(copy_json(event["secret"]))
    return out


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (faster than copy.deepcopy for these small trees)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


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
