"""Playing: an action applied under the game lock, saved with its move, round results and
standings (the one place game state is written), and the service's own system actions.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config import error_codes as codes
from config import metrics
from config.errors import ServiceError
from games import signals
from games.engine import EngineError, registry
from games.engine.interface import Game as Rules
from games.engine.interface import places_by
from games.engine.moves import apply_move
from games.kinds import registry as kinds
from games.models import Game, Move, RoundResult, Seat
from games.services import base
from games.services.base import (
    DEFAULT_TURN_SECONDS,
    SEAT_CONTROL_FIELDS,
    TURN_STARTING_MOVES,
    Played,
    announce,
    atomic_unless_in_one,
    engine_error,
    give_back,
    lock_game,
    lock_game_with_seats,
    rules_of,
    seat_of_user,
)
from games.services.turns import schedule_bots, set_deadline
from players.models import ApiToken, User


def act(
    *,
    user: User,
    game_id: Any,
    action: dict[str, Any],
    expected_version: int | None,
) -> Played:
    """Apply one player action (its JSON body) and return what it did (``Played``). Raises
    ServiceError: invalid_request / invalid_action (400) when the game has no such action or its
    fields are wrong, version_conflict (409) when the client's view is stale, the engine's code
    (422) when the rules refuse it.

    The action's shape is checked here, once, by the game's adapter (``kinds.check_action``):
    only the locked row tells the game's kind, and reading it first would cost a query. The
    game's ``action_from_dict`` then makes the engine's action of it."""
    with atomic_unless_in_one():
        game, seats = lock_game_with_seats(game_id)
        seat = seat_of_user(game, user, seats)
        rules = rules_of(game)
        data = kinds.check_action(game.kind, action)
        if game.status == Game.LOBBY:
            raise ServiceError(codes.GAME_NOT_STARTED, "The game has not started yet.")
        if game.status != Game.ACTIVE:
            raise ServiceError(codes.GAME_OVER, "This game is over.")
        if expected_version is not None and expected_version != game.version:
            raise ServiceError(
                codes.VERSION_CONFLICT,
                "The game has changed since you last saw it; reload and try again.",
                current_version=game.version,
            )
        if seat.left_at is not None:
            raise ServiceError(codes.NOT_IN_GAME, "You have left this game.")
        try:
            parsed = rules.action_from_dict({**data, "seat": seat.position})
        except EngineError as exc:
            raise ServiceError(codes.INVALID_ACTION, exc.message) from exc
        # A player back at a seat a bot has been playing for them takes it back by acting.
        reclaimed = [give_back(seat)] if seat.taken_over else []
        played = apply_action(
            game, parsed, seat=seat.position, seats=seats, extra_events=reclaimed, rules=rules
        )
        if seat.timeouts_in_row or reclaimed:
            seat.timeouts_in_row = 0
            seat.save(update_fields=SEAT_CONTROL_FIELDS)
    return played


def system_action(*, game_id: Any, action: Any, expected_version: int | None = None) -> Game:
    """Apply a system action (the game's timeout or leave action) for moderators."""
    with transaction.atomic():
        game = lock_game(game_id)
        rules = rules_of(game)
        if rules.action_to_dict(action)["type"] in rules.action_types:
            raise ServiceError(codes.INVALID_ACTION, "This is not a system action.")
        if game.status != Game.ACTIVE:
            raise ServiceError(codes.GAME_OVER, "This game is not in progress.")
        if expected_version is not None and expected_version != game.version:
            raise ServiceError(codes.VERSION_CONFLICT, "The game has moved on.")
        apply_action(game, action, seat=None)
    return game


def apply_action(
    game: Game,
    action: Any,
    *,
    seat: int | None,
    now: datetime | None = None,
    seats: list[Seat] | None = None,
    extra_events: list[dict[str, Any]] | None = None,
    rules: Rules[Any, Any] | None = None,
) -> Played:
    """Run the engine and save; returns what the move did. Caller holds the game lock.

    ``extra_events`` are platform events logged with the move (a bot took a seat over, a player
    took theirs back): the engine never sees them, and a replay skips them like every event that
    is not a chance outcome. ``rules``: the game's, when the caller has them already."""
    rules = rules or rules_of(game)
    state = rules.state_from_dict(game.state)
    try:
        new, events = apply_move(rules, state, action, base.new_rng())
    except EngineError as exc:
        raise engine_error(exc) from exc
    if extra_events:
        events = [*extra_events, *events]
    metrics.after_commit(metrics.MOVES.labels(kind=game.kind))
    return save_state(
        game, new, rules.action_to_dict(action), seat, events, seats, now=now, rules=rules
    )


def save_state(
    game: Game,
    state: Any,
    action: dict[str, Any],
    seat: int | None,
    events: list[dict[str, Any]],
    seats: list[Seat] | None,
    *,
    now: datetime | None = None,
    rules: Rules[Any, Any] | None = None,
) -> Played:
    """Save ``state`` as the game's next version with its move, round results, standings and
    clock; announce it after the commit and queue the bots. Caller holds the game lock."""
    now = now or timezone.now()
    rules = rules or rules_of(game)
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
        signals.match_finished.send(sender=Game, game=game, seats=seats, state=state)
        Seat.objects.bulk_update(seats, ["final_score", "place", "rating_change"])
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
            set_deadline(game, current, now)
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
    over = game.status == Game.FINISHED
    turn = None if over else rules.to_move(state)
    actors = [] if over else sorted(rules.actors(state))
    announce(game, move=move, seats=seats, turn=turn, actors=actors)
    schedule_bots(game, state, seats)
    return Played(game=game, move=move, seats=seats, state=state)


def _record_standings(rules: Rules[Any, Any], state: Any, seats: list[Seat]) -> None:
    """Each seat's score and place (set, not saved): the game's own places (``Game.places``)
    for those who played to the end; below them everyone who gave up (left, or whose seat a bot
    took over after timeouts and kept), the earlier lower: the engine cannot tell those apart."""
    scores = rules.scores(state)
    places = rules.places(state)
    seated = [seat for seat in seats if seat.position is not None]
    keys = [_standing_key(seat, places[seat.position]) for seat in seated]
    for seat, place in zip(seated, places_by(keys), strict=True):
        seat.final_score = scores[seat.position]
        seat.place = place


def _standing_key(seat: Seat, place: int) -> tuple[int, float]:
    gave_up = seat.left_at or (seat.taken_over_at if seat.taken_over else None)
    if gave_up is None:
        return (0, place)
    # Seats given up at the same moment (the bots leaving a table no person is left at) share a
    # place.
    return (1, -gave_up.timestamp())


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
        save_state(game, state, {"type": "load"}, None, [], seats)
    return game, players


def bots_leave_alone(game: Game, seats: list[Seat], *, now: datetime | None = None) -> None:
    """When no person is left at a running table (a seat a bot plays for someone still counts:
    they may come back), the bots leave one by one and the last one wins, as when people leave.
    Caller holds the lock."""
    if game.status != Game.ACTIVE or any(s.user_id and s.left_at is None for s in seats):
        return
    now = now or timezone.now()
    rules = rules_of(game)
    for seat in seats:
        if game.status != Game.ACTIVE:
            break
        if seat.left_at is not None or seat.position is None:
            continue
        seat.left_at = now
        seat.save(update_fields=["left_at"])
        leave = rules.leave_action(seat.position)
        apply_action(game, leave, seat=None, now=now, seats=seats, rules=rules)
