"""Every change of the social app: follows, settings, challenges.

A challenge's game is the games app's: sending one creates a private two-seat lobby through
``games.services.create_game`` (its validation of the options, its cap on games in progress),
accepting one joins it through ``join_game`` (which starts it once both are seated), and a
challenge that closes unaccepted has its challenger leave the lobby (``leave_game``), which
closes it.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from config import error_codes as codes
from config.errors import ServiceError
from games import services as games
from games.models import Game
from notifications import services as notifications
from players.models import User
from social import selectors
from social.models import Challenge, Follow, Profile

logger = logging.getLogger(__name__)


def player_named(username: str) -> User:
    """An active player by username (any case); a missing one is ``not_found``."""
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise ServiceError(codes.NOT_FOUND, "No such player.")
    return user


def follow(*, user: User, other: User) -> bool:
    """``user`` follows ``other`` (again: nothing changes). Returns whether they are now
    friends. ``other`` hears of a first follow on their notification channels."""
    if other.pk == user.pk:
        raise ServiceError(codes.CANNOT_FOLLOW_SELF, "You cannot follow yourself.")
    if selectors.is_blocked_between(user, other):
        raise ServiceError(codes.FOLLOW_REFUSED, "You cannot follow this player.")
    with transaction.atomic():
        _, created = Follow.objects.get_or_create(follower=user, followee=other)
        if created:
            notifications.notify_followed(user=other, by=user)
    return selectors.relation(user=user, other=other) == (True, True)


def unfollow(*, user: User, other: User) -> None:
    """``user`` stops following ``other`` (not following: nothing to do)."""
    Follow.objects.filter(follower=user, followee=other).delete()


def profile_of(user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_settings(
    *, user: User, hide_presence: bool | None = None, challenges_from: str | None = None
) -> Profile:
    profile = profile_of(user)
    if hide_presence is not None:
        profile.hide_presence = hide_presence
    if challenges_from is not None:
        profile.challenges_from = challenges_from
    profile.save(update_fields=["hide_presence", "challenges_from"])
    if hide_presence is not None:  # the friends' lists that show this player's presence
        selectors.forget_friends(
            Follow.objects.filter(followee=user).values_list("follower_id", flat=True)
        )
    return profile


def _challenge_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "CHALLENGE_TTL_SECONDS", 3 * 24 * 3600))


def _check_may_challenge(challenger: User, challenged: User) -> None:
    if challenged.pk == challenger.pk:
        raise ServiceError(codes.CANNOT_CHALLENGE_SELF, "You cannot challenge yourself.")
    if selectors.is_blocked_between(challenger, challenged):
        raise ServiceError(codes.CHALLENGE_REFUSED, "This player takes no challenges from you.")
    allowed = profile_of(challenged).challenges_from
    if allowed == Profile.NOBODY or (
        allowed == Profile.FRIENDS
        and selectors.relation(user=challenger, other=challenged) != (True, True)
    ):
        raise ServiceError(codes.CHALLENGE_REFUSED, "This player takes no challenges from you.")


def send_challenge(*, challenger: User, challenged: User, **game_options: Any) -> Challenge:
    """Challenge ``challenged`` to a two-player game with ``game_options`` (those of
    ``games.services.create_game``: checked there). ``challenged`` is notified."""
    _check_may_challenge(challenger, challenged)
    # A game between two who know each other: their friends may watch it, unless they say.
    game_options.setdefault("spectating", Game.WATCH_FRIENDS)
    try:
        with transaction.atomic():
            game = games.create_game(
                host=challenger, max_players=2, visibility=Game.PRIVATE, **game_options
            )
            challenge = Challenge.objects.create(
                challenger=challenger,
                challenged=challenged,
                game=game,
                expires_at=timezone.now() + _challenge_ttl(),
            )
            notifications.notify_challenged(
                user=challenged, by=challenger, challenge_id=challenge.pk
            )
    except IntegrityError as exc:  # one_pending_challenge_per_pair: the lobby rolled back too
        raise ServiceError(
            codes.ALREADY_CHALLENGED, "You have already challenged this player."
        ) from exc
    return challenge


def _locked(user: User, challenge_id: Any) -> Challenge:
    """Caller holds a transaction: the challenge's row stays locked until it ends."""
    challenge = selectors.challenge_of(user=user, challenge_id=challenge_id)
    if challenge is None:
        raise ServiceError(codes.NOT_FOUND, "No such challenge.")
    # Only the challenge's row: the game is locked by the games services that change it, and
    # PostgreSQL refuses FOR UPDATE on the nullable side of the outer join to it anyway.
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged", "game")
        .get(pk=challenge.pk)
    )
    if challenge.status != Challenge.PENDING:
        raise ServiceError(codes.CHALLENGE_CLOSED, f"This challenge is {challenge.status}.")
    return challenge


def _close(challenge: Challenge, status: str) -> None:
    """End a pending challenge unaccepted: its challenger leaves the lobby, which closes it."""
    challenge.status = status
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    if challenge.game_id is None:
        return
    try:
        games.leave_game(user=challenge.challenger, game_id=challenge.game_id)
    except ServiceError as exc:  # the challenger left or started it meanwhile: nothing to close
        logger.info("challenge %s: lobby %s not closed: %s", challenge.pk, challenge.game_id, exc)


def accept_challenge(*, user: User, challenge_id: Any) -> Game:
    """The challenged player takes the second seat: the game starts. Returns it."""
    with transaction.atomic():
        challenge = _locked(user, challenge_id)
        if challenge.challenged_id != user.pk:
            raise ServiceError(codes.NOT_CHALLENGED, "Only the challenged player may accept.")
        expired = challenge.expires_at <= timezone.now()
        if expired:  # before the job came by: close it now (and commit that, then refuse)
            _close(challenge, Challenge.EXPIRED)
    if expired:
        raise ServiceError(codes.CHALLENGE_CLOSED, "This challenge has expired.")
    with transaction.atomic():
        challenge = _locked(user, challenge_id)
        if selectors.is_blocked_between(user, challenge.challenger) or challenge.game is None:
            raise ServiceError(codes.CHALLENGE_REFUSED, "This challenge cannot be accepted.")
        game = games.join_game(user=user, invite_code=challenge.game.invite_code)
        challenge.status = Challenge.ACCEPTED
        challenge.answered_at = timezone.now()
        challenge.save(update_fields=["status", "answered_at"])
    return game


def decline_challenge(*, user: User, challenge_id: Any) -> Challenge:
    """The challenged player says no (the challenger, withdrawing, cancels)."""
    with transaction.atomic():
        challenge = _locked(user, challenge_id)
        mine = challenge.challenger_id == user.pk
        _close(challenge, Challenge.CANCELLED if mine else Challenge.DECLINED)
    return challenge


def expire_challenges() -> int:
    """Close every pending challenge past its expiry; safe to run late, twice or concurrently
    (each row is claimed by a compare-and-set on its status)."""
    now = timezone.now()
    due = Challenge.objects.filter(status=Challenge.PENDING, expires_at__lte=now)
    closed = 0
    for challenge_id in list(due.values_list("pk", flat=True)[:1000]):
        with transaction.atomic():
            claimed = Challenge.objects.filter(pk=challenge_id, status=Challenge.PENDING).update(
                status=Challenge.EXPIRED, answered_at=now
            )
            if claimed != 1:
                continue  # answered or expired by someone else meanwhile
            challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
            _close(challenge, Challenge.EXPIRED)
            closed += 1
    return closed
