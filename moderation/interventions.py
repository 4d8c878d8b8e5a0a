"""Game-side changes made by moderators: abort a game, remove a player, force a turn to time out,
void a finished match's rating changes.

Each function is one transaction with the game row locked (``games.services.base.lock_game``),
like every other change to a game, and reuses the services' own rules: removing a player is that
player's ``leave_game``, a forced timeout is the timer sweep's ``timeout_turn`` (timeout policy
included). The audit entry and the players' notices are written in the same transaction.

A moderator who has a seat in the game may not intervene in it (nor replay it, see the admin).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from config import error_codes as codes
from config.errors import ServiceError
from games import services
from games.models import Game, Seat
from moderation import audit
from moderation.services import notify_player, required_reason
from players.models import User
from ratings import recompute

ABORT_NOTICE = "A moderator stopped this game. It ends without scores."


def check_not_seated(game: Game | Any, moderator: User) -> None:
    """Refuses a moderator who has (or had) a seat in the game."""
    game_id = getattr(game, "pk", game)
    if Seat.objects.filter(game_id=game_id, user_id=moderator.pk).exists():
        raise ServiceError(
            codes.SEATED_MODERATOR,
            gettext_noop("You play in this game: another moderator must handle it."),
        )


def _record(
    moderator: User,
    action: str,
    reason: str,
    game: Game,
    player: User | None = None,
    target: str = "",
    **details: Any,
) -> None:
    """The audit entry of a moderator's step on a game (and on ``player`` in it, named in
    ``target``), written in the step's transaction."""
    audit.record(
        actor=moderator,
        action=action,
        reason=reason,
        target_user=player,
        target_game=game,
        target=target,
        **details,
    )


def abort_game(*, moderator: User, game_id: Any, reason: str) -> Game:
    """End a lobby or a running game at once, with no scores and no winner."""
    reason = required_reason(reason)
    with transaction.atomic():
        game = services.base.lock_game(game_id)
        check_not_seated(game, moderator)
        if game.status not in (Game.LOBBY, Game.ACTIVE):
            raise ServiceError(codes.GAME_OVER, gettext_noop("This game is already over."))
        was = game.status
        now = timezone.now()
        game.status = Game.ABORTED
        game.finished_at = now
        game.current_user = None
        game.turn_deadline = None
        game.invite_expires_at = now
        game.version += 1
        game.save()
        seats = list(game.seats.select_related("user"))
        _record(moderator, audit.GAME_ABORTED, reason, game, was=was, version=game.version)
        for seat in seats:
            if seat.user is not None and seat.left_at is None:
                notify_player(seat.user, ABORT_NOTICE, game)
        # Live clients learn the new version (status aborted) once it is committed.
        services.base.announce(game)
    return game


def remove_player(*, moderator: User, game_id: Any, user_id: Any, reason: str) -> Game:
    """Take a player out of a lobby (the seat is freed) or a running game (RULES.md: leaving;
    their hand goes under the draw pile)."""
    reason = required_reason(reason)
    with transaction.atomic():
        game = services.base.lock_game(game_id)
        check_not_seated(game, moderator)
        seat = game.seats.select_related("user").filter(user_id=user_id).first()
        if seat is None or seat.user is None:
            raise ServiceError(
                codes.NOT_FOUND, gettext_noop("This player has no seat in this game.")
            )
        player = seat.user
        # The player's own leave, under the lock this transaction already holds.
        game = services.leave_game(user=player, game_id=game.pk)
        target = f"player {player.username} (#{player.pk}) in game {game.pk}"
        _record(moderator, audit.PLAYER_REMOVED, reason, game, player, target, seat=seat.position)
        notify_player(player, f"A moderator removed you from this game: {reason}", game)
    return game


def force_timeout(*, moderator: User, game_id: Any, reason: str) -> Game:
    """Time out the current turn now, exactly as the turn clock would (it counts toward the
    game's timeout policy, so a stalling player is taken out after ``max_timeouts``)."""
    reason = required_reason(reason)
    with transaction.atomic():
        game = services.base.lock_game(game_id)
        check_not_seated(game, moderator)
        if game.status != Game.ACTIVE:
            raise ServiceError(codes.GAME_OVER, gettext_noop("This game is not in progress."))
        now = timezone.now()
        player = game.current_user
        # The deadline is brought forward to now under the lock, so the sweep's own function
        # (which claims a game only when its deadline has passed) applies the timeout.
        game.turn_deadline = now
        game.save(update_fields=["turn_deadline"])
        if not services.timeout_turn(game_id=game.pk, version=game.version, now=now):
            raise ServiceError(codes.NO_TURN, gettext_noop("There is no turn to time out."))
        game.refresh_from_db()
        target = f"turn of {player.username if player else '?'} in game {game.pk}"
        _record(moderator, audit.TURN_TIMED_OUT, reason, game, player, target, version=game.version)
    return game


def void_ratings(*, moderator: User, game_id: Any, reason: str) -> recompute.Replayed:
    """Void a finished rated match's rating changes (cheating, collusion): they are removed, and
    every later match of its players is rated again in order (``ratings.recompute``). The
    audit entry says how far the recompute reached."""
    reason = required_reason(reason)
    with transaction.atomic():
        check_not_seated(game_id, moderator)
        game, done = recompute.void_match(game_id=game_id)
        _record(
            moderator,
            audit.RATINGS_VOIDED,
            reason,
            game,
            matches_rated_again=done.matches,
            changes_rewritten=done.changed,
            players=done.players,
        )
    return done
