"""Bots and seats: bot moves, adding and removing bots, games against the computer, and a seat
handed to a bot and taken back.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import error_codes as codes
from config import metrics
from config.errors import ServiceError
from games import bots
from games.engine import registry
from games.kinds import registry as kinds
from games.models import Game, Move, Seat
from games.services import base
from games.services.base import (
    MAX_BOTS,
    SEAT_CONTROL_FIELDS,
    bump_version,
    check_host,
    check_lobby,
    give_back,
    lock_game,
    rules_of,
    seat_of_user,
    take_over,
)
from games.services.lobby import create_game, deal_first_round
from games.services.play import apply_action
from games.services.turns import bots_to_ask, schedule_bots, set_deadline
from players.models import User

# Moves of the current round a bot is shown (the events its seat may see).
HISTORY_MOVES = 300


BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "Claude", "Radia")


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
        return bot_act(game, rules_of(game).state_from_dict(game.state), seats, now=now)


def bot_act(
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
    for seat, allowed in bots_to_ask(state, seats):
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
            rng=random.Random(base.new_rng().getrandbits(64)),
            budget_ms=settings.BOT_BUDGET_MS,
        )
        if choice is None or (allowed is not None and choice["type"] not in allowed):
            continue
        apply_action(
            game,
            rules.action_from_dict({**choice, "seat": position}),
            seat=position,
            now=now,
            seats=seats,
            rules=rules,
        )
        metrics.after_commit(metrics.BOT_MOVES.labels(kind=game.kind))
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


def _check_bots_play(kind: str) -> None:
    # The games games.bots plays (its deciders read these games' views): each adapter says.
    if not kinds.plays_bots(kind):
        raise ServiceError(codes.INVALID_SETUP, f"No bots play {kind!r} games yet.")


def _check_level(level: str) -> None:
    if level not in bots.LEVELS:
        raise ServiceError(
            codes.INVALID_BOT_LEVEL, f"Bot levels are {', '.join(bots.LEVELS)}; not {level!r}."
        )


def add_bot(*, user: User, game_id: Any, level: str = bots.DEFAULT_LEVEL) -> Game:
    """The host puts a bot in a free seat of the lobby, which makes it unrated. A full lobby
    starts, as when a person takes the last seat."""
    _check_level(level)
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seats.select_related("user"))
        seat_of_user(game, user, seats)
        check_host(game, user, "add bots")
        _check_bots_play(game.kind)
        # As for joining: a full lobby has started, and "full" is the more useful answer.
        if len(seats) >= game.max_players:
            raise ServiceError(codes.GAME_FULL, "Every seat is taken.")
        check_lobby(game)
        Seat.objects.create(game=game, bot_level=level, bot_name=_bot_name(seats))
        bump_version(game)
        # A rated game rates people against people (docs/ratings.md): a bot makes the lobby
        # unrated, for good (its lobby view says so before anyone plays).
        game.rated = False
        game.save(update_fields=["version", "rated"])
        if len(seats) + 1 == game.max_players:
            deal_first_round(game)
    return game


def remove_bot(*, user: User, game_id: Any, seat_id: int) -> Game:
    """The host frees a bot's seat in the lobby."""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seats.select_related("user"))
        seat_of_user(game, user, seats)
        check_lobby(game)
        check_host(game, user, "remove bots")
        seat = next((s for s in seats if s.pk == seat_id and s.is_bot and not s.user_id), None)
        if seat is None:
            raise ServiceError(codes.BOT_NOT_FOUND, "This game has no such bot seat.")
        seat.delete()
        bump_version(game)
        game.save(update_fields=["version"])
    return game


def play_vs_computer(
    *,
    user: User,
    bots_count: int = 1,
    level: str = bots.DEFAULT_LEVEL,
    kind: str = registry.DEFAULT_KIND,
    spectating: str = Game.WATCH_PRIVATE,
    **settings: Any,
) -> Game:
    """A private game against ``bots_count`` bots, started at once (one transaction); nobody
    watches it unless ``spectating`` says otherwise. ``settings``: the rest of ``create_game``'s
    (preset, target score, turn and speed seconds, options, spectator delay), checked there."""
    _check_level(level)
    _check_bots_play(kind)
    if not 1 <= bots_count <= MAX_BOTS:
        raise ServiceError(codes.INVALID_SETUP, f"Play against 1 to {MAX_BOTS} bots.")
    with transaction.atomic():
        created = create_game(
            host=user,
            kind=kind,
            max_players=bots_count + 1,
            visibility=Game.PRIVATE,
            rated=False,
            spectating=spectating,
            **settings,
        )
        game = lock_game(created.pk)
        names = list(BOT_NAMES)
        Seat.objects.bulk_create(
            Seat(game=game, bot_level=level, bot_name=names[i]) for i in range(bots_count)
        )
        deal_first_round(game)
    return game


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
        set_deadline(game, current, now)
    bump_version(game)
    game.save(update_fields=["current_user", "turn_deadline", "version"])
    schedule_bots(game, state, seats)


def _seat_in_play(
    game_id: Any, user: User, not_running: codes.ErrorCode, left: str
) -> tuple[Game, list[Seat], Seat]:
    """The game (locked), its seats and ``user``'s seat, which must be in a running game and not
    left: refused with the code ``not_running`` or ``not_in_game`` (its message ``left``).
    Caller holds a transaction."""
    game = lock_game(game_id)
    seats = list(game.seats.select_related("user"))
    seat = seat_of_user(game, user, seats)
    if game.status != Game.ACTIVE:
        raise ServiceError(not_running, "This game is not in progress.")
    if seat.left_at is not None:
        raise ServiceError(codes.NOT_IN_GAME, left)
    return game, seats, seat


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
        game, seats, seat = _seat_in_play(
            game_id, user, codes.GAME_NOT_ACTIVE, "This player has left the game."
        )
        if seat.is_bot:
            return game
        _check_bots_play(game.kind)
        take_over(seat, now=now, reason=reason, level=level)
        seat.save(update_fields=SEAT_CONTROL_FIELDS)
        _seat_control_changed(game, seats, now=now)
    return game


def reclaim_seat(*, user: User, game_id: Any) -> Game:
    """Take back a seat a bot has been playing for you."""
    now = timezone.now()
    with transaction.atomic():
        game, seats, seat = _seat_in_play(
            game_id, user, codes.GAME_OVER, "You have left this game."
        )
        if not seat.taken_over:
            raise ServiceError(codes.NOT_TAKEN_OVER, "You are playing this seat already.")
        give_back(seat)
        seat.save(update_fields=SEAT_CONTROL_FIELDS)
        _seat_control_changed(game, seats, now=now)
    return game
