"""Gin Rummy's actions: what a seat (or the system) asks the engine to do."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ..errors import INVALID_ACTION, EngineError, action_type

TAKE_UPCARD: Final = "take_upcard"  # the upcard offer: take it (that is the turn's draw)
PASS: Final = "pass"  # the upcard offer: pass it
DRAW: Final = "draw"  # draw from ``source``: "stock" or "discard"
DISCARD: Final = "discard"  # discard ``card`` face up: the turn ends
KNOCK: Final = "knock"  # discard ``card`` face down and end the round (gin when the rest all meld)
BIG_GIN: Final = "big_gin"  # all eleven cards meld: end the round without a discard
# System actions: applied by the service (timer sweep, leaving, dealing), never listed for players.
TIMEOUT: Final = "timeout"
LEAVE: Final = "leave"
NEXT_ROUND: Final = "next_round"

PLAYER_ACTIONS = (TAKE_UPCARD, PASS, DRAW, DISCARD, KNOCK, BIG_GIN)
SYSTEM_ACTIONS = (TIMEOUT, LEAVE, NEXT_ROUND)
ACTION_TYPES = PLAYER_ACTIONS + SYSTEM_ACTIONS
STOCK: Final = "stock"
DISCARD_PILE: Final = "discard"
SOURCES = (STOCK, DISCARD_PILE)
FIELDS = frozenset({"type", "seat", "card", "source"})


class Action(NamedTuple):
    type: str
    seat: int | None = None
    card: str | None = None
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, in their order (``type`` always is)."""
        return {name: value for name, value in self._asdict().items() if value is not None}

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """An action from JSON, refusing anything malformed with ``invalid_action``. Whether the
        card and source fit the type is the rules' business (``rules.apply``)."""
        kind = action_type(data, ACTION_TYPES, FIELDS)
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise EngineError(INVALID_ACTION, "seat must be a seat number")
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise EngineError(INVALID_ACTION, "card must be a card id string")
        source = data.get("source")
        if source is not None and source not in SOURCES:
            raise EngineError(INVALID_ACTION, "source is stock or discard")
        if (kind in (DISCARD, KNOCK)) != (card is not None):
            raise EngineError(INVALID_ACTION, "discard and knock name a card; nothing else does")
        if (kind == DRAW) != (source is not None):
            raise EngineError(INVALID_ACTION, "draw names its source; nothing else does")
        return cls(kind, seat, card, source)
