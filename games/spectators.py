"""Who may watch a game being played, and what a spectator sees of it.

A spectator is signed in, has no seat in the game, and is let in by the game's ``spectating``
(the host's choice: anyone, the host's friends, nobody) and by the apps above games, which answer
``signals.watching_game`` (social: no block either way with a seated player, the friends-only
check). A spectator sees what nobody seated would keep from them: the game's ``spectator_view``
(no hand, no pile order, no legal actions) and each move's events as a reader without a seat
(``selectors.events_for`` with reader -1).

With a delay of N moves (the host's ``spectator_delay``) a spectator sees the game as it was N
moves ago, so that a player's second account learns nothing before the table did: the position
then is replayed from the log (``records.replayed``). The view at a version holds nothing
personal, so every spectator shares one copy of it in the cache.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError

from config import error_codes as codes
from config.errors import ServiceError
from games import records, selectors, signals
from games.engine import registry
from games.models import Game, Move, Seat
from live import presence
from players.models import User

# A delay longer than this tells spectators nothing: the most a host may set.
MAX_DELAY = 50
# How long one public view at a version stays in the cache (it never changes).
VIEW_TTL_SECONDS = 3600
# Public games being played, listed per kind: at most this many, the newest first.
LIST_LIMIT = 100


@dataclass(frozen=True)
class Watched:
    """A game a spectator may watch: its row, its seats (with their users) and the version the
    spectator is shown (the game's own, less the delay's moves)."""

    game: Game
    seats: list[Seat]
    shown: int


def watched_game(user: User, game_id: Any) -> Watched:
    """The game if ``user`` may watch it now, or ``ServiceError``: ``not_found`` (no such game,
    nobody may watch it, or a block), ``game_not_started`` (a lobby: nothing to watch yet),
    ``seated_not_spectator`` (``user`` plays in it), ``spectators_friends_only``. Two queries
    besides the receivers': the seats with the game and their users, and the delay's moves."""
    game, seats = check_watching(user, game_id)
    return Watched(game, seats, shown_version(game))


def check_watching(user: User, game_id: Any) -> tuple[Game, list[Seat]]:
    """``watched_game``'s checks without the version shown: the game and its seats, or its
    refusal. One query besides the receivers' (blocks, friends)."""
    try:
        seats = list(Seat.objects.filter(game_id=game_id).select_related("game", "user"))
    except (ValidationError, ValueError, TypeError):
        seats = []
    if not seats or seats[0].game.spectating == Game.WATCH_PRIVATE:
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    game = seats[0].game
    for seat in seats:
        seat.game = game
    if any(seat.user_id == user.pk for seat in seats):
        raise ServiceError(codes.SEATED_NOT_SPECTATOR, "You play in this game.")
    if game.status == Game.LOBBY:
        raise ServiceError(codes.GAME_NOT_STARTED, "The game has not started yet.")
    if game.status not in (Game.ACTIVE, Game.FINISHED):
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    signals.watching_game.send(sender=Game, game=game, seats=seats, user=user)
    return game, seats


def game_for_count(user: User, game_id: Any) -> tuple[Game, list[Seat]]:
    """The game and its seats for its spectator count: to its players (one query), or to those
    who may watch it (``watched_game``, whose refusals it raises)."""
    seats = list(Seat.objects.filter(game_id=game_id).select_related("game"))
    if any(seat.user_id == user.pk for seat in seats):
        return seats[0].game, seats
    watched = watched_game(user, game_id)
    return watched.game, watched.seats


def shown_version(game: Game) -> int:
    """The version spectators see: the game's own, or that of the move ``spectator_delay``
    moves back (the deal at the earliest). A finished game hides nothing any longer."""
    delay = game.spectator_delay
    if not delay or game.status == Game.FINISHED:
        return game.version
    numbers = list(
        Move.objects.filter(game_id=game.pk)
        .order_by("-number")
        .values_list("number", flat=True)[: delay + 1]
    )
    return numbers[-1] if numbers else game.version


def spectator_progress(user: User, game_id: Any) -> selectors.Progress:
    """What a spectator's stream pages moves by: the shown version and the status (as
    ``watched_game``, whose refusals it raises)."""
    watched = watched_game(user, game_id)
    game = watched.game
    return selectors.Progress(game.pk, game.kind, watched.shown, game.status)


def public_table(game: Game, seats: list[Seat], shown: int) -> dict[str, Any] | None:
    """The game's ``spectator_view`` at version ``shown``: from its state when that is the
    game's own version, else replayed from the log (None for a game loaded from a position,
    whose log cannot be replayed). Cached per version, for every spectator alike."""
    key = f"games:spectator-view:{game.pk}:{shown}"
    table: dict[str, Any] | None = cache.get(key)
    if table is not None:
        return table
    rules = registry.get_game(game.kind)
    if shown == game.version and game.state is not None:
        table = rules.spectator_view(rules.state_from_dict(game.state))
    else:
        table = _replayed_view(rules, game, seats, shown)
    if table is not None:
        cache.set(key, table, VIEW_TTL_SECONDS)
    return table


def _seated(seats: Any) -> set[str]:
    return {str(seat.user_id) for seat in seats if seat.user_id is not None}


def _replayed_view(rules: Any, game: Game, seats: list[Seat], shown: int) -> dict[str, Any] | None:
    """The spectator view after the move numbered ``shown``, replayed from the log (one query)."""
    logged = list(Move.objects.filter(game_id=game.pk, number__lte=shown).order_by("number"))
    try:
        # Only the last state is wanted: the others are left behind as the replay goes.
        last = deque(records.replayed(rules, records.setup_of(game, seats), logged), maxlen=1)
    except records.RecordUnavailable:
        return None
    return rules.spectator_view(last[0][1]) if last else None


def spectator_count(game_id: Any, seats: list[Seat]) -> int:
    """How many players without a seat watch the game live now (``live.presence``)."""
    return len(presence.watchers(game_id) - _seated(seats))


def spectator_counts(games: list[Game]) -> dict[str, int]:
    """``spectator_count`` of each game (by its id as a string), in one cache read; the games'
    seats prefetched (``watchable_games``)."""
    watching = presence.watchers_many(str(game.pk) for game in games)
    return {
        str(game.pk): len(watching.get(str(game.pk), set()) - _seated(game.seats.all()))
        for game in games
    }


def spectator_view(watched: Watched, viewer: User) -> dict[str, Any]:
    """Everything a spectator may see of the game (``SpectatorView`` in the API). The count of
    spectators includes ``viewer``, who is watching by asking (before their stream opens)."""
    game, seats = watched.game, watched.seats
    watching = presence.watchers(game.pk) | {str(viewer.pk)}
    return {
        "id": str(game.pk),
        "status": game.status,
        "version": watched.shown,
        "game": game.kind,
        "preset": game.preset,
        "options": game.options,
        "max_players": game.max_players,
        "target_score": game.target_score,
        "rated": game.rated,
        "host_id": game.host_id,
        "spectating": game.spectating,
        "spectator_delay": game.spectator_delay,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "players": selectors.seat_summary(seats, None),
        "spectators": len(watching - _seated(seats)),
        "table": public_table(game, seats, watched.shown),
    }


def watchable_games(*, kind: str | None, hidden: set[Any]) -> list[Game]:
    """Games being played now that anyone may watch, newest first, at most ``LIST_LIMIT``, with
    their seats and players (two queries); none with a player of ``hidden`` (blocks) seated."""
    games = Game.objects.filter(status=Game.ACTIVE, spectating=Game.WATCH_PUBLIC)
    if kind is not None:
        games = games.filter(kind=kind)
    if hidden:
        games = games.exclude(seats__user_id__in=hidden)
    return list(games.order_by("-started_at").prefetch_related("seats__user")[:LIST_LIMIT])
