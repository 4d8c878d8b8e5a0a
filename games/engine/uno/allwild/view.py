"""What one seat of All Wild may see: its own hand, counts for the others, public facts and its
legal actions.

This is the only place that decides visibility. Other seats' card ids and the draw pile's order
never appear in a seat's view or in the events it receives (round-end reveals aside).
"""

from __future__ import annotations

from typing import Any

from ...errors import NOT_IN_ROUND, EngineError
from ..calls import catchable_seats
from ..cards import card_type
from ..state import CLOCKWISE, STACK, State
from ..view import copy_json
from .cards import PRESETS
from .house_rules.stacking import stackable_types
from .legal import legal_actions


def card(card_id: str) -> dict[str, str]:
    return {"id": card_id, "type": card_type(card_id)}


def view(state: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it (a JSON-ready dict)."""
    s = state
    if not 0 <= seat < len(s.seats):
        # Python would happily read seats[-1]: someone else's hand. Refuse instead.
        raise EngineError(NOT_IN_ROUND, f"there is no seat {seat} in this game")
    me = s.seats[seat]
    pending = None
    if s.pending:
        pending = {
            "seat": s.pending["seat"],
            "card": card(s.pending["card"]),
            "effect": s.pending["effect"],
            "reason": s.pending["reason"],
        }
    # Blind play: the hand is face down for its owner too; its size is in "seats".
    blind = s.option("blind_play")
    public = _public(s)
    # In TableSerializer's order, key for key: the API passes this dict through as it is.
    stack = public.pop("stack")
    return {
        **public,
        "you": seat,
        "hand": None if blind else [card(c) for c in me.hand],
        "hand_hidden": blind,
        "drawn_card": (
            card(s.drawn_card) if s.drawn_card and s.current == seat and not blind else None
        ),
        "pending_choice": pending,
        "stack": stack,
        "legal_actions": [a.to_dict() for a in legal_actions(s, seat)],
    }


def moderator_view(state: State) -> dict[str, Any]:
    """Everything, hands and draw pile order included: for moderators only."""
    s = state
    return {
        **_public(s),
        "state": s.to_dict(),
        "legal_actions": {
            str(i): [a.to_dict() for a in legal_actions(s, i)] for i in range(len(s.seats))
        },
    }


def _public(s: State) -> dict[str, Any]:
    catchable = set(catchable_seats(s))
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
        "seats": [
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
        ],
        # Stacking: the total owed and the seat that must stack on it or take it.
        "stack": (
            {"total": s.stack, "seat": s.current, "stackable": list(stackable_types(s))}
            if s.phase == STACK
            else None
        ),
        "discard_top": card(s.discard_pile[0]) if s.discard_pile else None,
        # Played cards lie face up: the discard pile is the public history of this round's plays.
        "discard_pile": [card(c) for c in s.discard_pile],
        "draw_size": len(s.draw_pile),
        "points": dict(PRESETS[s.preset].points),
        # Deep copies: a view is plain data that shares nothing with the state it came from.
        "round_results": [copy_json(r) for r in s.round_results],
        "winner": s.winner,
    }
