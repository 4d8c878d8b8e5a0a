"""What one seat of Gin Rummy may see, and what each event shows to whom.

This is the only place that decides visibility: the opponent's cards and the stock's order never
appear in a seat's view while the round is played; a card drawn from the stock reaches its drawer
alone (the draw event's secret); the knock discard and both hands are shown in the round result.
"""

from __future__ import annotations

from typing import Any

from ..errors import NOT_IN_ROUND, EngineError
from ..events import copy_json
from .cards import RANK, RANKS, SUIT, SUITS, VALUE, mask_of
from .melds import layout_dict, own_layout
from .rules import legal_actions
from .state import State


def card(card_id: str) -> dict[str, Any]:
    return {
        "id": card_id,
        "rank": RANKS[RANK[card_id]],
        "suit": SUITS[SUIT[card_id]],
        "value": VALUE[card_id],
    }


def view(s: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it (a JSON-ready dict)."""
    if seat not in (0, 1):
        raise EngineError(NOT_IN_ROUND, f"there is no seat {seat} in this game")
    hand = s.hands[seat]
    # The hand sorted into a minimum-deadwood arrangement, with its count, for the client to show.
    layout = layout_dict(own_layout(mask_of(hand)))
    return {
        **_public(s),
        "you": seat,
        "hand": [card(c) for c in hand],
        "melds": layout["melds"],
        "deadwood": layout["deadwood"],
        "deadwood_count": layout["count"],
        "legal_actions": [a.to_dict() for a in legal_actions(s, seat)],
    }


def moderator_view(s: State) -> dict[str, Any]:
    """Everything, hands and stock order included: for moderators only."""
    return {
        **_public(s),
        "state": s.to_dict(),
        "legal_actions": {str(i): [a.to_dict() for a in legal_actions(s, i)] for i in (0, 1)},
    }


def spectator_view(s: State) -> dict[str, Any]:
    """The public position alone: what someone without a seat sees."""
    return _public(s)


def _public(s: State) -> dict[str, Any]:
    return {
        "game": s.game,
        "preset": s.preset,
        "options": {},
        "target_score": s.target_score,
        "round": s.round,
        "phase": s.phase,
        "current_seat": s.current if s.phase not in ("round_over", "match_over") else None,
        "dealer": s.dealer,
        "seats": [
            {
                "seat": i,
                "hand_size": len(s.hands[i]),
                "score": s.scores[i],
                "rounds_won": s.rounds_won[i],
                "active": s.left != i,
            }
            for i in (0, 1)
        ],
        "upcard_passes": s.passes,
        "stock_size": len(s.stock),
        "discard_top": card(s.discard[0]) if s.discard else None,
        "discard_pile": [card(c) for c in s.discard],
        "taken": s.taken,
        "takes": [dict(t) for t in s.takes],
        "round_results": [copy_json(r) for r in s.round_results],
        "winner": s.winner,
    }
