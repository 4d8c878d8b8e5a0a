"""Every change to a game: create, join, leave, start, act, time out, rematch, expire.

Each public function is one transaction. Those that touch a running game lock its row
(``SELECT … FOR UPDATE``), check the expected version, ask the engine, then save the new state,
the move and the round results before committing. Nothing else writes game state.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.utils import timezone

from config.celery import app as celery_app
from config.celery import task_named
from config.errors import ServiceError
from games import bots, signals
from games.announce import publish
from games.bots import schedule
from games.engine import EngineError, registry
from games.engine.interface import Game as Rules
from games.models import Game, Move, RoundResult, Seat
from players.models import ApiToken, User

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


def _locked_with_seats(game_id: Any) -> tuple[Game, list[Seat]]:
    """The game row, locked until the transaction ends, and its seats with their users, in one
    query (``_locked`` and then the seats was two). Caller holds transaction.atomic(). No seats:
    no such game (every game has its host's seat, or a seat of a player who left).

    Only the game row is locked (``FOR UPDATE OF``), as ``_locked`` does. On PostgreSQL a query
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
        raise ServiceError("not_found", "No such game.", 404) from exc
    if not seats:
        raise ServiceError("not_found", "No such game.", 404)
    game = seats[0].game
    if seats[0].seen_version != game.version:  # type: ignore[attr-defined]
        # Waited for another transaction on this game: its seats as they are now.
        return game, list(game.seats.select_related("user"))
    for seat in seats:
        # One Game instance for all: the move saves it, and every seat must see that.
        seat.game = game
    return game, seats


def _atomic_unless_in_one() -> AbstractContextManager[Any]:
    """``transaction.atomic()`` when no transaction is open; inside a caller's transaction (an
    action with an Idempotency-Key runs in the key's) nothing, not even a savepoint. For functions
    that refuse only before their first write: there is nothing of theirs to roll back then, and
    a savepoint and its release are two round trips. An error after a write still takes
    everything with it, as it leaves the caller's transaction."""
    return nullcontext() if transaction.get_connection().in_atomic_block else transaction.atomic()


def _bump_version(game: Game) -> None:
    """A lobby change: a new version, announced to live clients once it is committed."""
    game.version += 1
    announce(game)


def announce(game: Game) -> None:
    """Live clients hear of the new version once it is committed: no Redis call inside the
    transaction, and never an announcement of a version that was rolled back."""
    transaction.on_commit(partial(publish, game.pk, game.version))


def _engine_error(exc: EngineError) -> ServiceError:
    return ServiceError(exc.code, exc.message, 422)


def rules_of(game: Game) -> Rules[Any, Any]:
    """The rules of ``game``'s kind: every rule of a game is asked of them, and of nothing else."""
    return registry.get_game(game.kind)


# ---------------------------------------------------------------------------------------------
# Lobby


def create_game(
    *,
    host: User,
    kind: str = registry.DEFAULT_KIND,
    preset: str | None = None,
    max_players: int = 4,
    target_score: int | None = None,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
    visibility: str = Game.PRIVATE,
    options: dict[str, bool] | None = None,
    rematch_of: Game | None = None,
    speed_seconds: int = DEFAULT_SPEED_SECONDS,
) -> Game:
    """A new lobby with the host in the first seat. ``speed_seconds`` is the turn limit when the
    speed_mode house rule is on (``turn_seconds`` is then unused). ``kind`` names the game
    (games.engine.registry); its preset, seats, target and options are checked by that game."""
    try:
        rules = registry.get_game(kind)
    except EngineError as exc:
        raise ServiceError(exc.code, f"Unknown game {kind!r}.", 400) from exc
    preset = rules.default_preset if preset is None else preset
    target_score = rules.default_target if target_score is None else target_score
    if preset not in rules.presets:
        raise ServiceError("invalid_setup", f"Unknown preset {preset!r}.", 400)
    if not rules.min_players <= max_players <= rules.max_players:
        raise ServiceError(
            "invalid_setup",
            f"A game has {rules.min_players} to {rules.max_players} seats.",
            400,
        )
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise ServiceError("invalid_setup", "The turn time limit is 30 s to 14 days.", 400)
    if not MIN_SPEED_SECONDS <= speed_seconds <= MAX_SPEED_SECONDS:
        raise ServiceError("invalid_setup", "The speed mode turn limit is 3 to 60 s.", 400)
    try:
        opts = rules.validate_options(options or {})
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message, 400) from exc
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            host=host,
            kind=rules.kind,
            preset=preset,
            options=opts,
            max_players=max_players,
            target_score=target_score,
            turn_seconds=turn_seconds,
            speed_seconds=speed_seconds,
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
            # Starting a game ends its invite, but a started game is not an expired invite:
            # "expired" sends the player to ask the host for a new code, which cannot exist.
            if game.started_at is not None:
                raise ServiceError("game_already_started", "This game has already started.", 409)
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
        if game.visibility == Game.PRIVATE:
            # Blocks are moderation's (a layer above): it refuses through the signal by raising
            # ServiceError("join_refused").
            signals.joining_private_game.send(sender=Game, game=game, seats=seats, user=user)
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
        seats = list(game.seats.select_related("user"))
        seat = _seat_of(game, user, seats)
        if game.status == Game.LOBBY:
            seat.delete()
            # Bots wait for people: a lobby with bots only closes.
            rest = sorted((s for s in seats if s.pk != seat.pk and not s.is_bot), key=_joined)
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
            leave = rules_of(game).leave_action(seat.position)
            _apply(game, leave, seat=None, seats=seats)
            _bots_leave_alone(game, seats)
        else:
            raise ServiceError("game_over", "This game is over.", 409)
    return game


def _joined(seat: Seat) -> datetime:
    return seat.joined_at


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
    state, events = rules_of(game).new_game(
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
            kind=game.kind,
            preset=game.preset,
            max_players=game.seats.count(),
            target_score=game.target_score,
            turn_seconds=game.turn_seconds,
            speed_seconds=game.speed_seconds,
            visibility=Game.PRIVATE,
            options=game.options,
            rematch_of=game,
        )
        # The other players of the finished game are invited: they may join it by its id.
        for seat in game.seats.select_related("user"):
            if seat.user is not None and seat.user_id != user.pk:
                signals.player_invited.send(sender=Game, user=seat.user, game=new, by=user)
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


def act(
    *,
    user: User,
    game_id: Any,
    action: dict[str, Any],
    expected_version: int | None,
    parse: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
) -> Played:
    """Apply one player action and return what it did (``Played``). Raises ServiceError:
    version_conflict (409) when the client's view is stale, the engine's code (422) when the
    rules refuse it.

    ``parse(kind, action)`` checks the action's shape for the game's kind before anything else
    (the API's request serializers: only the locked row tells the kind, and reading it first
    would cost a query); the game's ``action_from_dict`` checks it again either way."""
    with _atomic_unless_in_one():
        game, seats = _locked_with_seats(game_id)
        seat = _seat_of(game, user, seats)
        rules = rules_of(game)
        if parse is not None:
            action = parse(game.kind, action)
        kind = action.get("type")
        if kind not in rules.action_types:
            raise ServiceError("invalid_action", f"Unknown action type {kind!r}.", 400)
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
            parsed = rules.action_from_dict({**action, "seat": seat.position})
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message, 400) from exc
        # A player back at a seat a bot has been playing for them takes it back by acting.
        reclaimed = [_give_back(seat)] if seat.taken_over else []
        played = _apply(game, parsed, seat=seat.position, seats=seats, extra_events=reclaimed)
        if seat.timeouts_in_row or reclaimed:
            seat.timeouts_in_row = 0
            seat.save(update_fields=_SEAT_CONTROL_FIELDS)
    return played


def system_action(*, game_id: Any, action: Any, expected_version: int | None = None) -> Game:
    """Apply a system action (the game's timeout or leave action) for moderators."""
    with transaction.atomic():
        game = _locked(game_id)
        rules = rules_of(game)
        if rules.action_to_dict(action)["type"] in rules.action_types:
            raise ServiceError("invalid_action", "This is not a system action.", 400)
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

    The game's timeout policy acts after ``max_timeouts`` timeouts in a row, so one absent
    player cannot stall the table: a bot takes the seat over (``bot``, the default; the player
    takes it back by acting) or the player is taken out of the game (``leave``, RULES.md).

    A bot's turn past its deadline is the bot's move, not a timeout: its task was lost (a worker
    restarted) or never queued (no broker), and the sweep asks the bot instead.
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
        rules = rules_of(game)
        state = rules.state_from_dict(game.state)
        position = rules.to_move(state)
        if position is None:
            return False
        seats = list(game.seats.select_related("user"))
        seat = next(s for s in seats if s.position == position)
        if seat.is_bot:
            if not _bot_act(game, state, seats, only=position, now=now):
                # A bot always has a move on its turn; if it ever had none, the table goes on.
                timeout = rules.timeout_action(state, position)
                _apply(game, timeout, seat=None, now=now)
            return True
        extra: list[dict[str, Any]] = []
        # A speed-mode turn of a few seconds runs out all the time: that is the game, not an
        # absent player, so it does not count toward the timeout policy (RULES.md).
        if not game.options.get("speed_mode"):
            seat.timeouts_in_row += 1
        give_up = seat.timeouts_in_row >= game.max_timeouts
        # No bot plays this game: the player leaves instead.
        policy = game.timeout_policy if game.kind in BOT_KINDS else Game.POLICY_LEAVE
        if give_up and policy == Game.POLICY_BOT:
            extra.append(_take_over(seat, now=now, reason="timeouts"))
        # One clock for the whole sweep: the next turn's deadline counts from the sweep's `now`.
        _apply(
            game,
            rules.timeout_action(state, position),
            seat=None,
            now=now,
            seats=seats,
            extra_events=extra,
        )
        if give_up and policy == Game.POLICY_LEAVE and game.status == Game.ACTIVE:
            seat.left_at = now
            _apply(game, rules.leave_action(position), seat=None, now=now, seats=seats)
            _bots_leave_alone(game, seats, now=now)
        seat.save(
            update_fields=["timeouts_in_row", "left_at", "bot_level", "bot_name", "taken_over_at"]
        )
    return True


def _apply(
    game: Game,
    action: Any,
    *,
    seat: int | None,
    now: datetime | None = None,
    seats: list[Seat] | None = None,
    extra_events: list[dict[str, Any]] | None = None,
) -> Played:
    """Run the engine and save; returns what the move did. Caller holds the game lock.

    ``extra_events`` are platform events logged with the move (a bot took a seat over, a player
    took theirs back): the engine never sees them, and a replay skips them like every event that
    is not a chance outcome."""
    rules = rules_of(game)
    state = rules.state_from_dict(game.state)
    try:
        new, events = rules.apply(state, action, _rng())
    except EngineError as exc:
        raise _engine_error(exc) from exc
    if rules.is_round_over(new):
        # Rounds follow each other without anyone having to ask: deal the next one now.
        new, more = rules.apply(new, rules.next_round_action(), _rng())
        events = events + more
    if extra_events:
        events = [*extra_events, *events]
    return _save_state(game, new, rules.action_to_dict(action), seat, events, seats, now=now)


def _save_state(
    game: Game,
    state: Any,
    action: dict[str, Any],
    seat: int | None,
    events: list[dict[str, Any]],
    seats: list[Seat] | None,
    *,
    now: datetime | None = None,
) -> Played:
    now = now or timezone.now()
    rules = rules_of(game)
    game.version += 1
    game.state = rules.state_to_dict(state)
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
    if rules.is_match_over(state):
        game.status = Game.FINISHED
        game.finished_at = now
        game.current_user = None
        game.turn_deadline = None
        _record_standings(rules, state, seats)
    else:
        current = by_position.get(rules.to_move(state))
        # A seat a bot plays has no one to wait for: no current user ("your turn" lists and
        # notifications skip it), and a bot's short clock instead of the game's.
        mover = current.user_id if current is not None and not current.is_bot else None
        turn_passed = (
            current is None
            or game.current_user_id != mover
            or action["type"] in TURN_STARTING_MOVES
            or action["type"] in rules.turn_ending_actions
            or game.turn_deadline is None
        )
        game.current_user_id = mover
        if turn_passed:
            _set_deadline(game, current, now)
    game.save()
    # Notifications are rows in this same transaction (the outbox, written by the notifications
    # app's receiver); delivery and live updates happen only once the move is committed.
    signals.move_applied.send(
        sender=Game,
        game=game,
        move=move,
        state=state,
        events=events,
        seats=seats,
        turn_passed=turn_passed,
    )
    announce(game)
    _schedule_bots(game, state, seats)
    return Played(game=game, move=move, seats=seats, state=state)


def _set_deadline(game: Game, current: Seat | None, now: datetime) -> None:
    """A fresh clock for the seat on turn. A free action (UNO, a catch) or a draw mid-turn
    leaves the clock running, so callers call this only when the turn passed."""
    if current is not None and current.is_bot:
        game.turn_deadline = now + timedelta(seconds=_bot_deadline_seconds(game))
        return
    # A player on vacation gets a clock that starts when the vacation ends.
    away = current.user.vacation_until if current and current.user else None
    start = max(now, away) if away else now
    game.turn_deadline = start + timedelta(seconds=turn_limit_seconds(game))


def turn_limit_seconds(game: Game) -> int:
    """A player's time for one turn: the speed-mode limit when that house rule is on."""
    return game.speed_seconds if game.options.get("speed_mode") else game.turn_seconds


def _record_standings(rules: Rules[Any, Any], state: Any, seats: list[Seat]) -> None:
    # The winner first, then players who stayed by score, then those who left.
    scores = rules.scores(state)
    winner = rules.match_winner(state)
    active = set(rules.active_seats(state))
    ranked = sorted(
        range(len(scores)),
        key=lambda i: (i != winner, i not in active, -scores[i]),
    )
    places = {position: place for place, position in enumerate(ranked, 1)}
    for seat in seats:
        if seat.position is None:
            continue
        seat.final_score = scores[seat.position]
        seat.place = places[seat.position]
    Seat.objects.bulk_update(seats, ["final_score", "place"])


def load_position(
    *,
    state: Any,
    names: list[str],
    kind: str = registry.DEFAULT_KIND,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    target_score: int | None = None,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
) -> tuple[Game, list[tuple[User, str]]]:
    """A running game of ``kind`` in exactly ``state`` (set up with ``preset``, ``options`` and
    ``target_score``, the game's defaults when None), with a new player (and play token) per
    seat. For reproducing a position (``manage.py scenario load``): the move log starts at this
    state."""
    rules = registry.get_game(kind)
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
            kind=rules.kind,
            preset=rules.default_preset if preset is None else preset,
            options=rules.validate_options(options or {}),
            max_players=len(names),
            target_score=rules.default_target if target_score is None else target_score,
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
# Bots: seat fillers, takeovers, and their moves.
#
# A bot acts through the same path as a person: decide from the seat's view and visible events
# (games.bots.decide), then _apply under the game's lock. Its moves are queued as a Celery task
# after each move that leaves a bot something to do, with a short, natural delay; and a bot on
# turn gets a short deadline, so the timer sweep moves it if the task is lost (worker restart,
# broker down) or when there is no broker at all (embedded mode and tests run tasks inline,
# where one task per bot move would recurse through a table of bots: the sweep loops instead).

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "Claude", "Radia")
# Moves of the current round a bot is shown (the events its seat may see).
HISTORY_MOVES = 300


def _bot_delay_seconds(game: Game) -> float:
    """How long a bot "thinks" before its move: a short, natural pause; none in speed mode."""
    if game.options.get("speed_mode"):
        return 0.0
    low, high = settings.BOT_DELAY_SECONDS
    return secrets.SystemRandom().uniform(low, high)


def _tasks_run_inline() -> bool:
    return bool(celery_app.conf.task_always_eager)


def _bot_deadline_seconds(game: Game) -> float:
    """The clock of a bot's turn. With a broker the task moves the bot after its delay and the
    deadline is only the safety net, a little later; without one the sweep is what moves it."""
    grace = 0.0 if _tasks_run_inline() else settings.BOT_GRACE_SECONDS
    return _bot_delay_seconds(game) + grace


def _bots_to_ask(state: Any, seats: list[Seat]) -> list[tuple[Seat, frozenset[str] | None]]:
    """Bot seats to ask now and what each may do (games.bots.schedule: a bot holding one card
    says UNO first, bots off turn may catch, then the bot on turn moves)."""
    by_position = {
        s.position: s for s in seats if s.is_bot and s.position is not None and s.left_at is None
    }
    if not by_position:
        return []
    return [(by_position[p], allowed) for p, allowed in schedule.to_ask(state, by_position)]


def _schedule_bots(game: Game, state: Any, seats: list[Seat]) -> None:
    """Queue the bots' next move once this one is committed (caller holds the game lock)."""
    if game.status != Game.ACTIVE or _tasks_run_inline():
        return
    if not _bots_to_ask(state, seats):
        return
    countdown = _bot_delay_seconds(game)
    transaction.on_commit(partial(_queue_bot_move, game.pk, game.version, countdown))


def _queue_bot_move(game_id: Any, version: int, countdown: float) -> None:
    try:
        # Capped: a delayed message waits in the broker, and only short waits are safe there.
        task_named("games.tasks.bot_move").apply_async(
            (str(game_id), version), countdown=min(countdown, 10)
        )
    except Exception:  # the broker is down: the sweep moves a bot on turn at its deadline
        logger.warning("could not queue a bot move for game %s", game_id, exc_info=True)


def bot_move(*, game_id: Any, version: int, now: datetime | None = None) -> bool:
    """Let a bot of ``game_id`` act, if the game is still at ``version``. Returns whether one
    did. For the Celery task: a late or repeated task finds another version and does nothing."""
    with transaction.atomic():
        # SKIP LOCKED: whoever holds the game (a player's move, the sweep) moves it on, and
        # that move queues the bots again.
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.ACTIVE, version=version)
            .first()
        )
        if game is None:
            return False
        seats = list(game.seats.select_related("user"))
        return _bot_act(game, rules_of(game).state_from_dict(game.state), seats, now=now)


def _bot_act(
    game: Game,
    state: Any,
    seats: list[Seat],
    *,
    only: int | None = None,
    now: datetime | None = None,
) -> bool:
    """One bot action: the first bot seat (or seat ``only``) that wants to act now acts.

    Caller holds the game lock. The decision is made under it too: it is CPU work bounded by
    the level's time budget (BOT_BUDGET_MS), and deciding on the locked state means the action
    can never be stale."""
    rules = rules_of(game)
    history: list[dict[str, Any]] | None = None
    for seat, allowed in _bots_to_ask(state, seats):
        position = seat.position
        assert position is not None
        if only is not None and position != only:
            continue
        view = rules.view(state, position)
        if not view["legal_actions"]:
            continue
        if history is None:
            history = _round_events(game)
        choice = bots.decide(
            view,
            [e for e in (rules.visible_event(e, position) for e in history) if e is not None],
            level=seat.bot_level,
            rng=random.Random(_rng().getrandbits(64)),
            budget_ms=settings.BOT_BUDGET_MS,
        )
        if choice is None or (allowed is not None and choice["type"] not in allowed):
            continue
        _apply(
            game,
            rules.action_from_dict({**choice, "seat": position}),
            seat=position,
            now=now,
            seats=seats,
        )
        return True
    return False


def _round_events(game: Game) -> list[dict[str, Any]]:
    """The events of the current round (all of them: callers filter per seat)."""
    newest_first = Move.objects.filter(game=game).order_by("-number")[:HISTORY_MOVES]
    out: list[dict[str, Any]] = []
    for events in newest_first.values_list("events", flat=True):
        out[0:0] = events
        starts = [i for i, e in enumerate(events) if e.get("type") == "round_started"]
        if starts:
            return out[starts[-1] :]
    return out


def _bot_name(seats: list[Seat]) -> str:
    taken = {s.bot_name for s in seats}
    return next((n for n in BOT_NAMES if n not in taken), f"Bot {len(seats) + 1}")


# The games games.bots plays (its deciders read All Wild's view).
BOT_KINDS = frozenset({registry.DEFAULT_KIND})


def _check_bots_play(kind: str) -> None:
    if kind not in BOT_KINDS:
        raise ServiceError("invalid_setup", f"No bots play {kind!r} games yet.", 400)


def _check_level(level: str) -> None:
    if level not in bots.LEVELS:
        raise ServiceError(
            "invalid_bot_level", f"Bot levels are {', '.join(bots.LEVELS)}; not {level!r}.", 400
        )


def add_bot(*, user: User, game_id: Any, level: str = bots.DEFAULT_LEVEL) -> Game:
    """The host puts a bot in a free seat of the lobby. A full lobby starts, as when a person
    takes the last seat."""
    _check_level(level)
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.select_related("user"))
        _seat_of(game, user, seats)
        if game.host_id != user.pk:
            raise ServiceError("not_host", "Only the host can add bots.", 403)
        _check_bots_play(game.kind)
        # As for joining: a full lobby has started, and "full" is the more useful answer.
        if len(seats) >= game.max_players:
            raise ServiceError("game_full", "Every seat is taken.", 409)
        if game.status != Game.LOBBY:
            raise ServiceError("game_already_started", "This game has already started.", 409)
        Seat.objects.create(game=game, bot_level=level, bot_name=_bot_name(seats))
        _bump_version(game)
        game.save(update_fields=["version"])
        if len(seats) + 1 == game.max_players:
            _start(game)
    return game


def remove_bot(*, user: User, game_id: Any, seat_id: int) -> Game:
    """The host frees a bot's seat in the lobby."""
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.select_related("user"))
        _seat_of(game, user, seats)
        if game.status != Game.LOBBY:
            raise ServiceError("game_already_started", "This game has already started.", 409)
        if game.host_id != user.pk:
            raise ServiceError("not_host", "Only the host can remove bots.", 403)
        seat = next((s for s in seats if s.pk == seat_id and s.is_bot and not s.user_id), None)
        if seat is None:
            raise ServiceError("bot_not_found", "This game has no such bot seat.", 404)
        seat.delete()
        _bump_version(game)
        game.save(update_fields=["version"])
    return game


def play_vs_computer(
    *,
    user: User,
    bots_count: int = 1,
    level: str = bots.DEFAULT_LEVEL,
    kind: str = registry.DEFAULT_KIND,
    preset: str | None = None,
    target_score: int | None = None,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
    options: dict[str, bool] | None = None,
    speed_seconds: int = DEFAULT_SPEED_SECONDS,
) -> Game:
    """A private game against ``bots_count`` bots, started at once (one transaction)."""
    _check_level(level)
    _check_bots_play(kind)
    if not 1 <= bots_count <= MAX_BOTS:
        raise ServiceError("invalid_setup", f"Play against 1 to {MAX_BOTS} bots.", 400)
    with transaction.atomic():
        created = create_game(
            host=user,
            kind=kind,
            preset=preset,
            max_players=bots_count + 1,
            target_score=target_score,
            turn_seconds=turn_seconds,
            visibility=Game.PRIVATE,
            options=options,
            speed_seconds=speed_seconds,
        )
        game = _locked(created.pk)
        names = list(BOT_NAMES)
        Seat.objects.bulk_create(
            Seat(game=game, bot_level=level, bot_name=names[i]) for i in range(bots_count)
        )
        _start(game)
    return game


def _take_over(
    seat: Seat, *, now: datetime, reason: str, level: str | None = None
) -> dict[str, Any]:
    """Hand a person's seat to a bot (the caller saves the seat). Returns the event to log."""
    level = level or settings.BOT_TAKEOVER_LEVEL
    seat.bot_level = level
    seat.taken_over_at = now
    seat.timeouts_in_row = 0
    return {"type": "bot_took_over", "seat": seat.position, "level": level, "reason": reason}


def _give_back(seat: Seat) -> dict[str, Any]:
    """The person plays their seat again (the caller saves the seat)."""
    seat.bot_level = ""
    seat.taken_over_at = None
    seat.timeouts_in_row = 0
    return {"type": "seat_reclaimed", "seat": seat.position}


_SEAT_CONTROL_FIELDS = ["bot_level", "taken_over_at", "timeouts_in_row"]


def _seat_control_changed(game: Game, seats: list[Seat], *, now: datetime) -> None:
    """A seat changed hands (person <-> bot) outside a move: if it is on turn, its clock and
    the game's current user follow; live clients and the bots hear of it. Caller holds the
    lock. No move is logged: the move log replays through the engine, which knows no seat
    owners; the takeover that follows timeouts is logged with the timeout's move."""
    rules = rules_of(game)
    state = rules.state_from_dict(game.state)
    position = rules.to_move(state)
    current = next((s for s in seats if position is not None and s.position == position), None)
    mover = current.user_id if current is not None and not current.is_bot else None
    if mover != game.current_user_id:
        game.current_user_id = mover
        _set_deadline(game, current, now)
    _bump_version(game)
    game.save(update_fields=["current_user", "turn_deadline", "version"])
    _schedule_bots(game, state, seats)


def hand_seat_to_bot(
    game_id: Any, user: User, *, level: str | None = None, reason: str = "moderation"
) -> Game:
    """A bot plays ``user``'s seat from now on (for moderation: a banned or absent player).

    The player may take the seat back (``reclaim_seat``, or simply by acting). Refused with
    ``not_found`` when the user has no seat, ``game_not_active`` when the game is not running
    and ``not_in_game`` when they have left; a seat a bot already plays is left as it is."""
    if level is not None:
        _check_level(level)
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.select_related("user"))
        seat = _seat_of(game, user, seats)
        if game.status != Game.ACTIVE:
            raise ServiceError("game_not_active", "This game is not in progress.", 409)
        if seat.left_at is not None:
            raise ServiceError("not_in_game", "This player has left the game.", 409)
        if seat.is_bot:
            return game
        _check_bots_play(game.kind)
        _take_over(seat, now=now, reason=reason, level=level)
        seat.save(update_fields=_SEAT_CONTROL_FIELDS)
        _seat_control_changed(game, seats, now=now)
    return game


def reclaim_seat(*, user: User, game_id: Any) -> Game:
    """Take back a seat a bot has been playing for you."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.select_related("user"))
        seat = _seat_of(game, user, seats)
        if game.status != Game.ACTIVE:
            raise ServiceError("game_over", "This game is not in progress.", 409)
        if seat.left_at is not None:
            raise ServiceError("not_in_game", "You have left this game.", 409)
        if not seat.taken_over:
            raise ServiceError("not_taken_over", "You are playing this seat already.", 409)
        _give_back(seat)
        seat.save(update_fields=_SEAT_CONTROL_FIELDS)
        _seat_control_changed(game, seats, now=now)
    return game


def _bots_leave_alone(game: Game, seats: list[Seat], *, now: datetime | None = None) -> None:
    """When no person is left at a running table (a seat a bot plays for someone still counts:
    they may come back), the bots leave one by one and the last one wins, as when people leave.
    Caller holds the lock."""
    if game.status != Game.ACTIVE or any(s.user_id and s.left_at is None for s in seats):
        return
    now = now or timezone.now()
    for seat in seats:
        if game.status != Game.ACTIVE:
            break
        if seat.left_at is not None or seat.position is None:
            continue
        seat.left_at = now
        seat.save(update_fields=["left_at"])
        _apply(game, rules_of(game).leave_action(seat.position), seat=None, now=now, seats=seats)


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
    "Played",
    "act",
    "add_bot",
    "bot_move",
    "create_game",
    "expire_lobbies",
    "hand_seat_to_bot",
    "join_game",
    "leave_game",
    "load_position",
    "play_vs_computer",
    "reclaim_seat",
    "regenerate_invite",
    "remove_bot",
    "rematch",
    "end_vacation",
    "start_game",
    "start_vacation",
    "vacation_left",
    "sweep_expired_turns",
    "system_action",
    "timeout_turn",
]
