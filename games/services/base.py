"""What every change to a game shares: the row lock, the rules of the game's kind, the version
bump and its announcement after the commit, the RNG, and the result of an action.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, Subquery

from config import error_codes as codes
from config.errors import ServiceError
from games.engine import EngineError, registry
from games.engine.interface import Game as Rules
from games.models import Game, Move, Seat
from games.selectors import move_news
from live.announce import publish, user_key
from players.models import User

# Lowered only by tests and demos (TURN_SECONDS_MIN) that want to watch a turn time out.
MIN_TURN_SECONDS: int = getattr(settings, "TURN_SECONDS_MIN", 30)


# The service's own moves after which a turn starts (the game's are its turn_ending_actions).
TURN_STARTING_MOVES = frozenset({"start", "load"})


MAX_TURN_SECONDS = 14 * 24 * 3600


DEFAULT_TURN_SECONDS = 24 * 3600


# Speed mode's turn limit (RULES.md: "a short limit (default 5 s)").
DEFAULT_SPEED_SECONDS = 5


MIN_SPEED_SECONDS = 3


MAX_SPEED_SECONDS = 60


MAX_BOTS = 9


logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Played:
    """What a move did, as saved: the game, the move it logged, and the seats and state it left
    (so the answer is built from them without reading them back)."""

    game: Game
    move: Move
    seats: list[Seat]
    state: Any


def new_rng() -> secrets.SystemRandom:
    return secrets.SystemRandom()


def lock_game(game_id: Any) -> Game:
    """The game row, locked until the transaction ends. Caller holds transaction.atomic()."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise ServiceError(codes.NOT_FOUND, "No such game.") from exc


def lock_game_with_seats(game_id: Any) -> tuple[Game, list[Seat]]:
    """The game row, locked until the transaction ends, and its seats with their users, in one
    query (``lock_game`` and then the seats was two). Caller holds transaction.atomic(). No seats:
    no such game (every game has its host's seat, or a seat of a player who left).

    Only the game row is locked (``FOR UPDATE OF``), as ``lock_game`` does. On PostgreSQL a query
    that waited for that lock returns the game row as the lock holder committed it, but the seats
    and users as they were when the query started: whoever held the lock may have changed them
    (a timeout's takeover, a leave, the last join that started the game). ``seen_version`` is the
    game's version in that same starting snapshot; when it differs from the locked row's, the
    seats are read again, as the two-query path would have read them. SQLite has no row locks
    (its writers take turns), and there the two never differ.
    """
    snapshot_version = Game.objects.filter(pk=OuterRef("game_id")).order_by().values("version")[:1]
    try:
        seats = list(
            Seat.objects.filter(game_id=game_id)
            .select_related("game", "user")
            .select_for_update(of=("game",))
            .annotate(seen_version=Subquery(snapshot_version))
        )
    except (ValidationError, ValueError, TypeError) as exc:
        raise ServiceError(codes.NOT_FOUND, "No such game.") from exc
    if not seats:
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    game = seats[0].game
    if seats[0].seen_version != game.version:  # type: ignore[attr-defined]
        # Waited for another transaction on this game: its seats as they are now.
        return game, list(game.seats.select_related("user"))
    for seat in seats:
        # One Game instance for all: the move saves it, and every seat must see that.
        seat.game = game
    return game, seats


def atomic_unless_in_one() -> AbstractContextManager[Any]:
    """``transaction.atomic()`` when no transaction is open; inside a caller's transaction (an
    action with an Idempotency-Key runs in the key's) nothing, not even a savepoint. For functions
    that refuse only before their first write: there is nothing of theirs to roll back then, and
    a savepoint and its release are two round trips. An error after a write still takes
    everything with it, as it leaves the caller's transaction."""
    return nullcontext() if transaction.get_connection().in_atomic_block else transaction.atomic()


def bump_version(game: Game) -> None:
    """A lobby change: a new version, announced to live clients once it is committed."""
    game.version += 1
    announce(game)


def announce(
    game: Game,
    *,
    move: Move | None = None,
    seats: list[Seat] | None = None,
    turn: int | None = None,
    actors: list[int] | None = None,
) -> None:
    """Live clients hear of the new version once it is committed: no Redis call inside the
    transaction, and never an announcement of a version that was rolled back.

    The announcement carries the public news of the change (``selectors.move_news``: ``move``,
    or none when the version moved without one), so that streams forward it without reading
    the game back; ``seats`` name the positions whose own view of the move may differ, and
    ``actors`` those who may act now (streams that carry views send them theirs)."""
    positions = [s.position for s in seats or () if s.position is not None]
    news = move_news(game, move, positions, turn, actors)
    transaction.on_commit(partial(publish, game.pk, game.version, news))


def announce_to(user_ids: Iterable[Any]) -> None:
    """After the commit, tell these players' "My games" that their list changed though no game
    they wait on moved (a new game with them in it, an invitation): ``publish(user_key(id))``."""
    for user_id in user_ids:
        transaction.on_commit(partial(publish, user_key(user_id)))


def engine_error(exc: EngineError) -> ServiceError:
    return ServiceError(codes.refused_by_rules(exc.code), exc.message)


def rules_of(game: Game) -> Rules[Any, Any]:
    """The rules of ``game``'s kind: every rule of a game is asked of them, and of nothing else."""
    return registry.get_game(game.kind)


def seat_of_user(game: Game, user: User, seats: list[Seat] | None = None) -> Seat:
    if seats is None:
        seats = list(game.seats.select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        # Same answer as a game that does not exist: a stranger learns nothing.
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    return seat


def check_host(game: Game, user: User, may: str) -> None:
    """Refused with ``not_host`` unless ``user`` hosts ``game``; ``may``: what only the host may
    do ("start the game")."""
    if game.host_id != user.pk:
        raise ServiceError(codes.NOT_HOST, f"Only the host can {may}.")


def check_lobby(game: Game) -> None:
    """Refused with ``game_already_started`` once ``game`` has left its lobby."""
    if game.status != Game.LOBBY:
        raise ServiceError(codes.GAME_ALREADY_STARTED, "This game has already started.")


def take_over(
    seat: Seat, *, now: datetime, reason: str, level: str | None = None
) -> dict[str, Any]:
    """Hand a person's seat to a bot (the caller saves the seat). Returns the event to log."""
    level = level or settings.BOT_TAKEOVER_LEVEL
    seat.bot_level = level
    seat.taken_over_at = now
    seat.timeouts_in_row = 0
    return {"type": "bot_took_over", "seat": seat.position, "level": level, "reason": reason}


def give_back(seat: Seat) -> dict[str, Any]:
    """The person plays their seat again (the caller saves the seat)."""
    seat.bot_level = ""
    seat.taken_over_at = None
    seat.timeouts_in_row = 0
    return {"type": "seat_reclaimed", "seat": seat.position}


SEAT_CONTROL_FIELDS = ["bot_level", "taken_over_at", "timeouts_in_row"]
