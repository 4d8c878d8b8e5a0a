"""What one seat of All Wild may see: its own hand, counts for the others, public facts and its
legal actions.

This is the only place that decides visibility. Other seats' card ids and the draw pile's order
never appear in a seat's view or in the events it receives (round-end reveals aside).
"""

from __future__ import annotations

from typing import Any

from ...errors import NOT_IN_ROUND, EngineError
from .. import view as family_view
from ..cards import card_type
from ..state import State
from .cards import PRESETS
from .house_rules.stacking import RULES as STACKING
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
    return family_view.moderator_view(state, _public(state), legal_actions)


def spectator_view(state: State) -> dict[str, Any]:
    """The public position alone: what someone without a seat sees."""
    return _public(state)


def _public(s: State) -> dict[str, Any]:
    # Stacking: the total owed and the seat that must stack on it or take it.
    stack = STACKING.view(s)
    return family_view.public_view(s, card, PRESETS[s.preset].points, {"stack": stack})
