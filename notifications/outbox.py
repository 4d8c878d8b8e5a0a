"""The transactional outbox: notifications a move causes, written in the move's transaction.

``record_move`` is called by ``games.services`` inside the transaction that saves a move, with
the game row locked. It must only write rows (no network, no broker): delivery happens after
commit, by the relay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine import State
    from games.models import Game, Move, Seat


def record_move(
    *,
    game: Game,
    move: Move,
    state: State,
    events: list[dict[str, Any]],
    seats: list[Seat],
    turn_passed: bool,
) -> None:
    """Write the notification rows ``move`` causes. Caller holds the game lock."""
