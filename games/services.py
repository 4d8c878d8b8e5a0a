"""Every change to a game: create, join, leave, start, act, time out, rematch, expire.

Each public function is one transaction. Those that touch a running game lock its row
(``SELECT … FOR UPDATE``), check the expected version, ask the engine, then save the new state,
the move and the round results before committing. Nothing else writes game state.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from config.errors import ServiceError
from games import engine, live
from games.engine import Action, EngineError, State
from games.engine.actions import NEXT_ROUND, PLAYER_ACTIONS, SYSTEM_ACTIONS
from games.engine.state import MATCH_OVER, ROUND_OVER
from games.models import Game, Move, RoundResult, Seat
from moderation.selectors import is_blocked
from notifications import outbox
from notifications.services import notify_invited
from players.models import ApiToken, User

# Lowered only by tests and demos (TURN_SECONDS_MIN) that want to watch a turn time out.
MIN_TURN_SECONDS: int = getattr(settings, "TURN_SECONDS_MIN", 30)
# Actions after which the next turn starts, even when it is the same player's (2-player Skip).
TURN_ENDING_ACTIONS = frozenset({"play", "play_drawn", "pass", "timeout", "start", "load"})
MAX_TURN_SECONDS = 14 * 24 * 3600
DEFAULT_TURN_SECONDS = 24 * 3600


def _rng() -> secrets.SystemRandom:
    return secrets.SystemRandom()


def _lobby_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "LOBBY_TTL_SECONDS", 7 * 24 * 3600))


def _invite_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "INVITE_TTL_SECONDS", 7 * 24 * 3600))


def _locked(game_id: Any) -> Game:
    """The game row, locked until the transaction ends. Caller holds transaction.atomic()."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise ServiceError("not_found", "No such game.", 404) from exc


def _bump_version(game: Game) -> None:
    """A lobby change: a new version, announced to live clients once it is committed."""
    game.version += 1
    transaction.on_commit(partial(live.publish, game.pk, game.version))


def _engine_error(exc: EngineError) -> ServiceError:
    return ServiceError(exc.code, exc.message, 422)


# ---------------------------------------------------------------------------------------------
# Lobby


def create_game(
    *,
    host: User,
    preset: str = "standard",
    max_players: int = 4,
    target_score: int = 500,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
    visibility: str = Game.PRIVATE,
    options: dict[str, bool] | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """A new lobby with the host in the first seat."""
    if preset not in engine.cards.PRESETS:
        raise ServiceError("invalid_setup", f"Unknown preset {preset!r}.", 400)
    if not 2 <= max_players <= 10:
        raise ServiceError("invalid_setup", "A game has 2 to 10 seats.", 400)
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise ServiceError("invalid_setup", "The turn time limit is 30 s to 14 days.", 400)
    try:
        opts = engine.validate_options(options or {})
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message, 400) from exc
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            host=host,
            preset=preset,
            options=opts,
            max_players=max_players,
            target_score=target_score,
            turn_seconds=turn_seconds,
            visibility=visibility,
            invite_expires_at=now + _invite_ttl(),
            lobby_expires_at=now + _lobby_ttl(),
            rematch_of=rematch_of,
        )
        Seat.objects.create(game=game, user=host)
    return game


def _may_join_without_code(game: Game, user: User) -> bool:
    if game.visibility == Game.PUBLIC:
        return True
    original = game.rematch_of
    return original is not None and original.seats.filter(user=user).exists()


def join_game(*, user: User, game_id: Any = None, invite_code: str | None = None) -> Game:
    """Take a seat in a lobby: public games by id, private ones by invite code.

    The game starts by itself when the last seat is taken.
    """
    with transaction.atomic():
        if invite_code is not None:
            found = Game.objects.filter(invite_code=invite_code).values_list("pk", flat=True)
            if not found:
                raise ServiceError("invalid_invite", "This invite code does not exist.", 404)
            game = _locked(found[0])
            if game.invite_expires_at and game.invite_expires_at <= timezone.now():
                raise ServiceError("invite_expired", "This invite has expired.", 410)
        else:
            game = _locked(game_id)
            if not _may_join_without_code(game, user):
                # A private game is invisible without its code.
                raise ServiceError("not_found", "No such game.", 404)
        seats = list(game.seats.select_related("user"))
        if any(seat.user_id == user.pk for seat in seats):
            raise ServiceError("already_joined", "You already have a seat in this game.", 409)
        # A full lobby starts at once, so "full" is checked first: it is the more useful answer.
        if len(seats) >= game.max_players:
            raise ServiceError("game_full", "Every seat is taken.", 409)
        if game.status != Game.LOBBY:
            raise ServiceError("game_already_started", "This game is no longer open.", 409)
        if game.visibility == Game.PRIVATE and is_blocked([s.user_id for s in seats], user):
            raise ServiceError("join_refused", "You cannot join this private game.", 403)
        Seat.objects.create(game=game, user=user)
        _bump_version(game)
        game.save(update_fields=["version"])
        if len(seats) + 1 == game.max_players:
            _start(game)
    return game


def leave_game(*, user: User, game_id: Any) -> Game:
    """Leave a lobby (the seat is freed) or a game in progress (the engine's ``leave``)."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _seat_of(game, user)
        if game.status == Game.LOBBY:
            seat.delete()
            rest = list(game.seats.order_by("joined_at"))
            if not rest:
                game.status = Game.EXPIRED
                game.finished_at = timezone.now()
            elif game.host_id == user.pk:
                game.host = rest[0].user  # the longest-waiting player hosts from now on
            _bump_version(game)
            game.save()
        elif game.status == Game.ACTIVE:
            if seat.left_at is not None:
                raise ServiceError("not_in_game", "You have already left this game.", 409)
            seat.left_at = timezone.now()
            seat.save(update_fields=["left_at"])
            _apply(game, Action(engine.actions.LEAVE, seat.position), seat=None)
        else:
            raise ServiceError("game_over", "This game is over.", 409)
    return game


def start_game(*, user: User, game_id: Any) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        _seat_of(game, user)
        if game.status != Game.LOBBY:
            raise ServiceError("game_already_started", "This game has already started.", 409)
        if game.host_id != user.pk:
            raise ServiceError("not_host", "Only the host can start the game.", 403)
        if game.seats.count() < 2:
            raise ServiceError("not_enough_players", "A game needs at least 2 players.", 409)
        _start(game)
    return game


def _start(game: Game) -> None:
    """Shuffle the seat order, deal round 1. Caller holds the game lock."""
    seats = list(game.seats.select_related("user"))
    _rng().shuffle(seats)
    for position, seat in enumerate(seats):
        seat.position = position
    Seat.objects.bulk_update(seats, ["position"])
    state, events = engine.new_game(
        players=len(seats),
        rng=_rng(),
        preset=game.preset,
        options=game.options,
        target_score=game.target_score,
    )
    game.status = Game.ACTIVE
    game.started_at = timezone.now()
    game.invite_expires_at = game.started_at  # the invite link dies with the lobby
    _save_state(game, state, {"type": "start"}, None, events, seats)


def regenerate_invite(*, user: User, game_id: Any) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        _seat_of(game, user)
        if game.host_id != user.pk:
            raise ServiceError("not_host", "Only the host can renew the invite.", 403)
        if game.status != Game.LOBBY:
            raise ServiceError("game_already_started", "This game has already started.", 409)
        game.invite_code = secrets.token_urlsafe(12)
        game.invite_expires_at = timezone.now() + _invite_ttl()
        _bump_version(game)
        game.save(update_fields=["invite_code", "invite_expires_at", "version"])
    return game


def expire_lobbies(*, now: Any = None) -> int:
    """Close lobbies that never started. Returns how many were closed."""
    now = now or timezone.now()
    # The version moves too, so clients polling with If-None-Match see the lobby close.
    return Game.objects.filter(status=Game.LOBBY, lobby_expires_at__lte=now).update(
        status=Game.EXPIRED, finished_at=now, version=F("version") + 1
    )


def rematch(*, user: User, game_id: Any) -> Game:
    """A new lobby with the same settings that the finished game's players may join by id."""
    with transaction.atomic():
        game = _locked(game_id)
        _seat_of(game, user)
        if game.status != Game.FINISHED:
            raise ServiceError("game_not_finished", "A rematch needs a finished game.", 409)
        existing = game.rematches.filter(status__in=[Game.LOBBY, Game.ACTIVE]).first()
        if existing is not None:
            if not existing.seats.filter(user=user).exists():
                return join_game(user=user, game_id=existing.pk)
            return existing
        new = create_game(
            host=user,
            preset=game.preset,
            max_players=game.seats.count(),
            target_score=game.target_score,
            turn_seconds=game.turn_seconds,
            visibility=Game.PRIVATE,
            options=game.options,
            rematch_of=game,
        )
        # The other players of the finished game are invited: they may join it by its id.
        for seat in game.seats.select_related("user"):
            if seat.user is not None and seat.user_id != user.pk:
                notify_invited(user=seat.user, game=new, by=user)
        return new


# ---------------------------------------------------------------------------------------------
# Turns


def _seat_of(game: Game, user: User, seats: list[Seat] | None = None) -> Seat:
    if seats is None:
        seats = list(game.seats.select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        # Same answer as a game that does not exist: a stranger learns nothing.
        raise ServiceError("not_found", "No such game.", 404)
    return seat


def act(*, user: User, game_id: Any, action: dict[str, Any], expected_version: int | None) -> Game:
    """Apply one player action. Raises ServiceError: version_conflict (409) when the client's
    view is stale, the engine's code (422) when the rules refuse it."""
    kind = action.get("type")
    if kind not in PLAYER_ACTIONS:
        raise ServiceError("invalid_action", f"Unknown action type {kind!r}.", 400)
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.select_related("user"))
        seat = _seat_of(game, user, seats)
        if game.status == Game.LOBBY:
            raise ServiceError("game_not_started", "The game has not started yet.", 409)
        if game.status != Game.ACTIVE:
            raise ServiceError("game_over", "This game is over.", 409)
        if expected_version is not None and expected_version != game.version:
            raise ServiceError(
                "version_conflict",
                "The game has changed since you last saw it; reload and try again.",
                409,
                current_version=game.version,
            )
        if seat.left_at is not None:
            raise ServiceError("not_in_game", "You have left this game.", 409)
        try:
            parsed = Action.from_dict({**action, "seat": seat.position})
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message, 400) from exc
        _apply(game, parsed, seat=seat.position, seats=seats)
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0
            seat.save(update_fields=["timeouts_in_row"])
    return game


def system_action(*, game_id: Any, action: Action, expected_version: int | None = None) -> Game:
    """Apply a system action (timeout, leave) for the timer sweep and moderators."""
    if action.type not in SYSTEM_ACTIONS:
        raise ServiceError("invalid_action", f"{action.type} is not a system action.", 400)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.ACTIVE:
            raise ServiceError("game_over", "This game is not in progress.", 409)
        if expected_version is not None and expected_version != game.version:
            raise ServiceError("version_conflict", "The game has moved on.", 409)
        _apply(game, action, seat=None)
    return game


def sweep_expired_turns(*, now: datetime | None = None, limit: int = 200) -> int:
    """Time out every turn past its deadline. Returns how many were timed out.

    Safe to run late, twice or in several workers at once: each game is claimed under its row
    lock with the version it was found at, so a game that moved on meanwhile is left alone.
    """
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.ACTIVE, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "version")[:limit]
    )
    return sum(timeout_turn(game_id=pk, version=version, now=now) for pk, version in due)


def timeout_turn(*, game_id: Any, version: int, now: datetime | None = None) -> bool:
    """Apply the engine's timeout to the seat whose turn is overdue, if it still is.

    After ``max_timeouts`` timeouts in a row the player is taken out of the game (RULES.md:
    leaving) so one absent player cannot stall the table.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # SKIP LOCKED: a game another sweeper is handling right now is that sweeper's.
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.ACTIVE, version=version, turn_deadline__lte=now)
            .first()
        )
        if game is None:
            return False
        position = State.from_dict(game.state).current
        seats = list(game.seats.select_related("user"))
        seat = next(s for s in seats if s.position == position)
        # One clock for the whole sweep: the next turn's deadline counts from the sweep's `now`.
        _apply(game, Action(engine.actions.TIMEOUT, position), seat=None, now=now, seats=seats)
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= game.max_timeouts and game.status == Game.ACTIVE:
            seat.left_at = now
            _apply(game, Action(engine.actions.LEAVE, position), seat=None, now=now, seats=seats)
        seat.save(update_fields=["timeouts_in_row", "left_at"])
    return True


def _apply(
    game: Game,
    action: Action,
    *,
    seat: int | None,
    now: datetime | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Run the engine and save. Caller holds the game lock."""
    state = State.from_dict(game.state)
    try:
        new, events = engine.apply(state, action, _rng())
    except EngineError as exc:
        raise _engine_error(exc) from exc
    if new.phase == ROUND_OVER:
        # Rounds follow each other without anyone having to ask: deal the next one now.
        new, more = engine.apply(new, Action(NEXT_ROUND), _rng())
        events = events + more
    _save_state(game, new, action.to_dict(), seat, events, seats, now=now)


def _save_state(
    game: Game,
    state: State,
    action: dict[str, Any],
    seat: int | None,
    events: list[dict[str, Any]],
    seats: list[Seat] | None,
    *,
    now: datetime | None = None,
) -> None:
    now = now or timezone.now()
    game.version += 1
    game.state = state.to_dict()
    move = Move.objects.create(
        game=game, number=game.version, seat=seat, action=action, events=events, created_at=now
    )
    results = [e for e in events if e["type"] == "round_over"]
    if results:
        RoundResult.objects.bulk_create(
            RoundResult(
                game=game,
                round=r["round"],
                winner_position=r["winner"],
                points=r["points"],
                hands=r["hands"],
                scores=r["scores"],
            )
            for r in results
        )
    if seats is None:
        seats = list(game.seats.select_related("user"))
    by_position = {s.position: s for s in seats}
    turn_passed = False
    if state.phase == MATCH_OVER:
        game.status = Game.FINISHED
        game.finished_at = now
        game.current_user = None
        game.turn_deadline = None
        _record_standings(state, seats)
    else:
        current = by_position.get(state.current)
        turn_passed = (
            current is None
            or game.current_user_id != current.user_id
            or action["type"] in TURN_ENDING_ACTIONS
            or game.turn_deadline is None
        )
        game.current_user_id = current.user_id if current else None
        if turn_passed:
            # A free action (UNO, a catch) or a draw mid-turn leaves the clock running. A player
            # on vacation gets a clock that starts when the vacation ends.
            away = current.user.vacation_until if current and current.user else None
            start = max(now, away) if away else now
            game.turn_deadline = start + timedelta(seconds=game.turn_seconds)
    game.save()
    # Notifications are rows in this same transaction (the outbox); delivery and live updates
    # happen only once the move is committed.
    outbox.record_move(
        game=game, move=move, state=state, events=events, seats=seats, turn_passed=turn_passed
    )
    transaction.on_commit(partial(live.publish, game.pk, game.version))


def _record_standings(state: State, seats: list[Seat]) -> None:
    # The winner first, then players who stayed by score, then those who left.
    ranked = sorted(
        range(len(state.seats)),
        key=lambda i: (i != state.winner, not state.seats[i].active, -state.seats[i].score),
    )
    places = {position: place for place, position in enumerate(ranked, 1)}
    for seat in seats:
        if seat.position is None:
            continue
        seat.final_score = state.seats[seat.position].score
        seat.place = places[seat.position]
    Seat.objects.bulk_update(seats, ["final_score", "place"])


def load_position(
    *, state: State, names: list[str], turn_seconds: int = DEFAULT_TURN_SECONDS
) -> tuple[Game, list[tuple[User, str]]]:
    """A running game in exactly ``state``, with a new player (and play token) per seat.

    For reproducing a position (``manage.py scenario load``): the move log starts at this state.
    """
    with transaction.atomic():
        players = []
        for name in names:
            username = name
            while User.objects.filter(username=username).exists():
                username = f"{name}-{secrets.token_hex(3)}"
            user = User.objects.create_user(username=username, display_name=name)
            user.set_unusable_password()
            user.save(update_fields=["password"])
            _, raw = ApiToken.issue(user, name="scenario", scope=ApiToken.SCOPE_PLAY)
            players.append((user, raw))
        game = Game.objects.create(
            host=players[0][0],
            preset=state.preset,
            options=state.options,
            max_players=len(names),
            target_score=state.target_score,
            turn_seconds=turn_seconds,
            status=Game.ACTIVE,
            started_at=timezone.now(),
        )
        seats = [
            Seat.objects.create(game=game, user=user, position=position)
            for position, (user, _) in enumerate(players)
        ]
        _save_state(game, state, {"type": "load"}, None, [], seats)
    return game, players


# ---------------------------------------------------------------------------------------------
# Vacation: a bank of days per month during which a player's turn clocks stand still.


def _vacation_bank() -> timedelta:
    return timedelta(days=getattr(settings, "VACATION_DAYS_PER_MONTH", 7))


def _used_this_month(user: User, now: datetime) -> timedelta:
    return user.vacation_used if user.vacation_month == now.strftime("%Y-%m") else timedelta()


def vacation_left(*, user: User, now: datetime | None = None) -> timedelta:
    now = now or timezone.now()
    return max(_vacation_bank() - _used_this_month(user, now), timedelta())


def start_vacation(*, user: User, days: float, now: datetime | None = None) -> User:
    """Pause the player's clocks for ``days`` (from the bank of this month).

    Every running turn of theirs gets its deadline pushed back by the vacation, and turns that
    reach them during it start counting when it ends (see ``_save_state``).
    """
    now = now or timezone.now()
    length = timedelta(days=days)
    if length <= timedelta():
        raise ServiceError("invalid_request", "A vacation lasts more than 0 days.", 400)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_until and user.vacation_until > now:
            raise ServiceError("already_on_vacation", "You are on vacation already.", 409)
        if length > vacation_left(user=user, now=now):
            raise ServiceError(
                "vacation_bank_exhausted",
                "Not enough vacation left this month.",
                409,
                days_left=vacation_left(user=user, now=now).total_seconds() / 86400,
            )
        user.vacation_month = now.strftime("%Y-%m")
        user.vacation_used = _used_this_month(user, now) + length
        user.vacation_until = now + length
        user.save(update_fields=["vacation_month", "vacation_used", "vacation_until"])
        for game in Game.objects.select_for_update().filter(
            current_user=user, status=Game.ACTIVE, turn_deadline__isnull=False
        ):
            game.turn_deadline += length
            _bump_version(game)
            game.save(update_fields=["turn_deadline", "version"])
    return user


def end_vacation(*, user: User, now: datetime | None = None) -> User:
    """Come back early: unused vacation returns to the bank; waiting turns get a full clock."""
    now = now or timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.vacation_until or user.vacation_until <= now:
            raise ServiceError("not_on_vacation", "You are not on vacation.", 409)
        user.vacation_used = max(user.vacation_used - (user.vacation_until - now), timedelta())
        user.vacation_until = None
        user.save(update_fields=["vacation_used", "vacation_until"])
        for game in Game.objects.select_for_update().filter(current_user=user, status=Game.ACTIVE):
            game.turn_deadline = now + timedelta(seconds=game.turn_seconds)
            _bump_version(game)
            game.save(update_fields=["turn_deadline", "version"])
    return user


__all__ = [
    "act",
    "create_game",
    "expire_lobbies",
    "join_game",
    "leave_game",
    "load_position",
    "regenerate_invite",
    "rematch",
    "end_vacation",
    "start_game",
    "start_vacation",
    "vacation_left",
    "sweep_expired_turns",
    "system_action",
    "timeout_turn",
]
