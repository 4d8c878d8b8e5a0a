"""Every read that builds what a player may see of a game.

Visibility itself is decided by the game's rules (``view`` / ``visible_event`` of the game's
kind in ``games.engine.registry``); this module only adds who sits where and the platform facts
(status, version, deadline).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce

from games.engine import registry
from games.models import Game, Move, Seat
from players.models import User


def _visible_to(user: User) -> Q:
    """Who may look at a game: its players (a seat, even one they left), anyone at a public
    lobby."""
    return Q(seats__user=user) | Q(visibility=Game.PUBLIC, status=Game.LOBBY)


def visible_games(user: User) -> QuerySet[Game]:
    """Games ``user`` may look at: their own, and public lobbies."""
    return Game.objects.filter(_visible_to(user)).distinct()


def get_game_for(user: User, game_id: Any) -> Game | None:
    """The game if ``user`` may see it; None (answered as 404) otherwise."""
    try:
        return visible_games(user).get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError):
        return None  # a malformed id is just another game that does not exist


def game_with_seats(user: User, game_id: Any) -> tuple[Game, list[Seat]] | None:
    """The game and its seats with their users, if ``user`` may see it (as ``get_game_for``);
    None otherwise. One query: the seats, each joined to the game and its user (every game has
    a seat, its host's or one a player left), in ``game_view``'s order."""
    try:
        seats = list(Seat.objects.filter(game_id=game_id).select_related("game", "user"))
    except (ValidationError, ValueError, TypeError):
        return None
    if not seats:
        return None
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one Game instance for all, as game.seats would give
    seated = any(seat.user_id == user.pk for seat in seats)
    if not seated and not (game.visibility == Game.PUBLIC and game.status == Game.LOBBY):
        return None
    return game, seats


@dataclass(frozen=True)
class Progress:
    """Where a game stands, without its engine state: all a live channel needs to page moves."""

    pk: Any
    kind: str
    version: int
    status: str


def progress_for(user: User, game_id: Any) -> Progress | None:
    """The game's progress if ``user`` may see it (as ``get_game_for``), None otherwise: one read
    by primary key of four columns. The streams read this after every move they are woken for,
    so it leaves the state (the largest column) and the ``DISTINCT`` of ``visible_games`` out."""
    try:
        found = (
            Game.objects.filter(_visible_to(user), pk=game_id)
            .order_by()
            .values_list("pk", "kind", "version", "status")[:1]
        )
        row = next(iter(found), None)
    except (ValidationError, ValueError, TypeError):
        return None
    return Progress(*row) if row is not None else None


def visible_game_version(user: User, game_id: Any) -> int | None:
    """The game's version if ``user`` may see it (as ``get_game_for``), None otherwise, without
    loading the game: one read by primary key, for a conditional GET of the game view."""
    try:
        found = (
            Game.objects.filter(_visible_to(user), pk=game_id)
            .order_by()
            .values_list("version", flat=True)[:1]
        )
        return next(iter(found), None)
    except (ValidationError, ValueError, TypeError):
        return None


def my_games(
    user: User, *, status: str | None = None, my_turn: bool | None = None
) -> QuerySet[Game]:
    """The user's games: those waiting for their move first (soonest deadline first), then the
    newest."""
    qs = Game.objects.filter(seats__user=user)
    if status:
        qs = qs.filter(status=status)
    your_turn = Q(current_user=user, status=Game.ACTIVE)
    if my_turn is True:
        qs = qs.filter(your_turn)
    elif my_turn is False:
        qs = qs.exclude(your_turn)
    return qs.annotate(
        turn_rank=Case(
            When(your_turn, then=Value(0)), default=Value(1), output_field=IntegerField()
        ),
        # Only my own deadlines order the games waiting for me; the rest go newest first.
        my_deadline=Case(When(your_turn, then=F("turn_deadline")), default=None),
    ).order_by("turn_rank", F("my_deadline").asc(nulls_last=True), "-created_at")


def invitations(user: User) -> QuerySet[Game]:
    """Lobbies ``user`` is invited to and has neither joined nor declined: the rematches of
    games they played (``services.rematch`` invites every player of the finished game, who may
    join by id), newest first."""
    return (
        Game.objects.filter(status=Game.LOBBY, rematch_of__seats__user=user)
        .exclude(seats__user=user)
        .exclude(declined_by=user)
        .order_by("-created_at")
    )


@dataclass(frozen=True)
class LiveGames:
    """What "My games" needs to know whether to reload (``games/live/``)."""

    stamp: str  # changes whenever any of the games below changes, or one joins or leaves them
    games_waiting: int  # games waiting for the player's move
    invitations: int  # lobbies the player is invited to (``invitations``)
    versions: tuple[tuple[str, int], ...]  # (game id, version) of all of these games


def live_games(user: User, *, limit: int) -> LiveGames:
    """The player's games in a lobby or in progress (those waiting for them first) and the
    lobbies they are invited to, in two queries of a few columns. A game that ends or an
    invitation answered leaves the set, so the stamp changes then too."""
    rows = list(
        my_games(user)
        .filter(status__in=(Game.LOBBY, Game.ACTIVE))
        .values_list("pk", "version", "status", "current_user_id")[:limit]
    )
    invited = list(invitations(user).values_list("pk", "version")[:limit])
    versions = tuple((str(pk), version) for pk, version, _, _ in rows)
    # Marked apart from my own games: joining an invitation moves a game from one set to the
    # other with the same version, and the stamp must change then.
    stamped = versions + tuple((f"invited:{pk}", version) for pk, version in invited)
    waiting = sum(
        1 for _, _, status, current in rows if status == Game.ACTIVE and current == user.pk
    )
    digest = hashlib.blake2s(repr(sorted(stamped)).encode(), digest_size=8).hexdigest()
    return LiveGames(
        stamp=digest,
        games_waiting=waiting,
        invitations=len(invited),
        versions=versions + tuple((str(pk), version) for pk, version in invited),
    )


def open_games() -> QuerySet[Game]:
    return Game.objects.filter(status=Game.LOBBY, visibility=Game.PUBLIC).order_by("-created_at")


def _seat_name(seat: Seat) -> str:
    if seat.user is not None:
        return seat.user.public_name
    return f"{seat.bot_name} (bot)" if seat.bot_level else "(deleted)"


def seat_summary(seats: list[Seat], me: User | None) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.position,
            "seat_id": s.pk,
            "user_id": s.user_id,
            "name": _seat_name(s),
            "left": s.left_at is not None,
            "you": me is not None and s.user_id == me.pk,
            "final_score": s.final_score,
            "place": s.place,
            "rating_change": s.rating_change,
            "bot_level": s.bot_level or None,
            "taken_over": s.taken_over,
        }
        for s in seats
    ]


def game_summary(game: Game, seats: list[Seat], user: User) -> dict[str, Any]:
    mine = next((s for s in seats if s.user_id == user.pk), None)
    return {
        "id": str(game.id),
        "status": game.status,
        "version": game.version,
        "game": game.kind,
        "preset": game.preset,
        "options": game.options,
        "max_players": game.max_players,
        "target_score": game.target_score,
        "turn_seconds": game.turn_seconds,
        "speed_seconds": game.speed_seconds,
        "visibility": game.visibility,
        "rated": game.rated,
        "host_id": game.host_id,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "turn_deadline": game.turn_deadline,
        "your_turn": game.status == Game.ACTIVE and game.current_user_id == user.pk,
        "your_seat": mine.position if mine else None,
        # Only the seated players get the invite code: it is the key to a private lobby.
        "invite_code": game.invite_code if mine and game.status == Game.LOBBY else None,
        "invite_expires_at": game.invite_expires_at if mine and game.status == Game.LOBBY else None,
        "rematch_of": str(game.rematch_of_id) if game.rematch_of_id else None,
        "players": seat_summary(seats, user),
    }


def game_view(
    game: Game, user: User, *, seats: list[Seat] | None = None, state: Any = None
) -> dict[str, Any]:
    """Everything ``user`` may see of ``game``: two queries whatever the game's length, none
    when the caller passes the ``seats`` (with their users) and the engine ``state`` a move has
    just saved (``services.Played``)."""
    if seats is None:
        seats = list(game.seats.select_related("user"))
    data = game_summary(game, seats, user)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    table = None
    if game.state is not None and mine is not None and mine.position is not None:
        rules = registry.get_game(game.kind)
        if state is None:
            state = rules.state_from_dict(game.state)
        table = rules.view(state, mine.position)
    data["table"] = table
    return data


def _move_for(move: Move, rules: Any, reader: int) -> dict[str, Any]:
    """One logged move with the events ``reader`` may see (-1: someone without a seat)."""
    return {
        "version": move.number,
        "seat": move.seat,
        # A play names its card, which lands face up: actions hold no secrets.
        "action": move.action,
        "created_at": move.created_at,
        "events": [
            e for e in (rules.visible_event(e, reader) for e in move.events) if e is not None
        ],
    }


# ``events_for``'s ``seat`` when the caller has not read it: read it.
UNKNOWN_SEAT: Any = object()


def events_for(
    game: Game | Progress,
    user: User,
    *,
    after: int,
    limit: int,
    seat: int | None = UNKNOWN_SEAT,
    upto: int | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Moves after version ``after`` (and up to ``upto``: a spectator's delay) with the events
    this user may see, and whether more exist.

    ``seat``: the user's position in the game (None: no seat), when the caller knows it; one
    query fewer."""
    if seat is UNKNOWN_SEAT:
        seat = (
            Seat.objects.filter(game_id=game.pk, user=user)
            .values_list("position", flat=True)
            .first()
        )
    found = Move.objects.filter(game_id=game.pk, number__gt=after)
    if upto is not None:
        found = found.filter(number__lte=upto)
    moves = list(found.order_by("number")[: limit + 1])
    more = len(moves) > limit
    rules = registry.get_game(game.kind)
    reader = seat if seat is not None else -1
    return [_move_for(move, rules, reader) for move in moves[:limit]], more


def seat_position(game_id: Any, user: User) -> int | None:
    """``user``'s position in the game (None: no seat, or not dealt one yet)."""
    return (
        Seat.objects.filter(game_id=game_id, user=user).values_list("position", flat=True).first()
    )


def move_news(
    game: Game,
    move: Move | None,
    positions: list[int],
    turn: int | None,
    actors: list[int] | None = None,
) -> dict[str, Any]:
    """What every seat may know of a change, for the live announcement (``live.announce``):
    the game's new version and status, whose turn (a seat position), who may act now
    (``actors``; None when not known: every seat may have something new to do), and the move
    with the events as someone without a seat sees them (``events_for`` with no seat).
    ``private`` lists the seats that see more of this move than that (a card they drew): their
    streams read their own events from the database. Nothing any one seat may not see goes in:
    the news is sent to every process, and forwarded to every stream of the game as it is.

    ``move`` None: the version moved without a move (a lobby change, a seat handed to a bot)."""
    moves: list[dict[str, Any]] = []
    private: list[int] = []
    if move is not None:
        rules = registry.get_game(game.kind)
        public = _move_for(move, rules, -1)
        moves.append(public)
        private = [p for p in positions if _move_for(move, rules, p)["events"] != public["events"]]
    return {
        "version": game.version,
        "status": game.status,
        "turn": turn,
        "actors": actors,
        "moves": moves,
        "private": private,
        # Who may watch, as of this change: a spectator's stream that follows the news goes to
        # the database (and its checks) when the host changed it (games/spectators.py).
        "watch": [game.spectating, game.spectator_delay],
    }


def player_stats(user: User) -> dict[str, int]:
    """Games played and won and points scored (finished games), and games in progress.

    A game counts as played once it has finished, including one the player left early: the engine
    still ranks and scores every seat. One query.
    """
    finished = Q(game__status=Game.FINISHED)
    return Seat.objects.filter(user=user).aggregate(
        games_played=Count("pk", filter=finished),
        games_won=Count("pk", filter=finished & Q(place=1)),
        points=Coalesce(Sum("final_score", filter=finished), 0),
        games_in_progress=Count("pk", filter=Q(game__status=Game.ACTIVE, left_at__isnull=True)),
    )


# Games read per chunk of the export: memory stays bounded however many games an account has.
EXPORT_CHUNK = 200


def export_games(user: User) -> Iterator[dict[str, Any]]:
    """``user``'s games for their data export (``players.selectors.export``), oldest first, read
    in chunks of ``EXPORT_CHUNK`` games: one query for the ids, then four per chunk (games,
    seats, their players, my moves).

    Other players appear only as the public name the user saw at the table. Moves are the
    user's own actions; actions hold no secrets (a played card lands face up), while the events
    log beside them holds other players' cards and is left out.
    """
    ids = list(
        dict.fromkeys(
            Seat.objects.filter(user=user)
            .order_by("game__created_at", "game_id")
            .values_list("game_id", flat=True)
        )
    )
    for start in range(0, len(ids), EXPORT_CHUNK):
        yield from _export_chunk(user, ids[start : start + EXPORT_CHUNK])


def _export_chunk(user: User, ids: list[Any]) -> Iterator[dict[str, Any]]:
    games = Game.objects.filter(pk__in=ids).prefetch_related("seats__user").order_by("created_at")
    # Both conditions in one filter() call refer to the same seat: the user's.
    moves = Move.objects.filter(
        game_id__in=ids, game__seats__user=user, seat=F("game__seats__position")
    ).order_by("game_id", "number")
    moves_by_game: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for move in moves:
        moves_by_game[move.game_id].append(
            {"number": move.number, "action": move.action, "created_at": move.created_at}
        )
    for game in games:
        seats = list(game.seats.all())
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        yield {
            "id": game.id,
            "preset": game.preset,
            "status": game.status,
            "visibility": game.visibility,
            "target_score": game.target_score,
            "was_host": game.host_id == user.pk,
            "created_at": game.created_at,
            "started_at": game.started_at,
            "finished_at": game.finished_at,
            "my_seat": {
                "position": mine.position,
                "joined_at": mine.joined_at,
                "left_at": mine.left_at,
                "final_score": mine.final_score,
                "place": mine.place,
            },
            "seats": [
                {
                    "position": seat.position,
                    "player": seat.user.public_name if seat.user else None,
                    "is_me": seat.user_id == user.pk,
                    "final_score": seat.final_score,
                    "place": seat.place,
                }
                for seat in seats
            ],
            "my_moves": moves_by_game.get(game.id, []),
        }


def versions_of(game_ids: list[str]) -> dict[str, int]:
    """The current versions of these games (one query): the live announcements' database
    re-check reads them through this (``live.announce.read_versions_with``)."""
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "version")
    return {str(pk): version for pk, version in rows}
