"""Spectators, as the social app sees them: who may watch a game (its answer to
``games.signals.watching_game``) and the list of public games being played now, each with no
player blocked either way by the reader."""

from __future__ import annotations

from typing import Any

from config import error_codes as codes
from config.errors import ServiceError
from games import spectators
from games.models import Game, Seat
from players.models import User
from social import selectors


def refuse_spectator(*, game: Game, seats: list[Seat], user: User, **kwargs: Any) -> None:
    """Refuse ``user`` a game whose players or host block them or are blocked by them (as if
    it did not exist), or a friends-only game whose host is not their friend. Two queries at
    most: the blocks, the follows between ``user`` and the host."""
    players = {seat.user_id for seat in seats if seat.user_id is not None}
    if game.host_id is not None:
        players.add(game.host_id)
    if players & selectors.blocked_ids(user.pk):
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    if game.spectating != Game.WATCH_FRIENDS:
        return
    host = next((seat.user for seat in seats if seat.user_id == game.host_id), None)
    if host is None or selectors.relation(user=user, other=host) != (True, True):
        raise ServiceError(
            codes.SPECTATORS_FRIENDS_ONLY, "Only the host's friends may watch this game."
        )


def public_games(*, user: User, kind: str | None = None) -> list[Game]:
    """Games being played now that anyone may watch, newest first; none that ``user`` plays in
    or where a player blocked either way sits. Three queries: the blocks, the games, their
    seats with their players."""
    hidden = selectors.blocked_ids(user.pk) | {user.pk}
    return spectators.watchable_games(kind=kind, hidden=hidden)
