"""Every change moderation makes: reports and blocks (players), sanctions and report decisions
(moderators). Game-side interventions live in ``moderation.interventions``.

Functions take keyword-only arguments and refuse with a ``ServiceError`` carrying a stable code.
Each moderator act is one transaction that also writes its audit entry (``moderation.audit``)
and the player's moderation notice (a notification row, delivered after commit). Permission to
act is checked by the caller (the admin); the rules that hold whoever calls are checked here: a
reason is required, nobody sanctions themselves, only administrators sanction staff.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from config import error_codes as codes
from config.errors import ServiceError
from games import services as game_services
from games.models import Game, Seat
from moderation import audit
from moderation.models import Block, Report, Sanction
from notifications.services import notify_moderation
from players.models import User
from players.services import revoke_all_tokens

logger = logging.getLogger(__name__)

# Report decisions a moderator can take from the queue (the admin's buttons, in this order).
DISMISS = "dismiss"
WARN = "warn"
SUSPEND = "suspend"
BAN = "ban"
RESET_NAME = "reset_name"
REPORT_ACTIONS = (DISMISS, WARN, SUSPEND, BAN, RESET_NAME)
MAX_DETAILS = 2000


def notify_player(user: User, message: str, game: Any = None) -> None:
    """The player's moderation notice (a notification of kind ``moderation``, written in the
    caller's transaction, delivered after commit). The one call site for notifications: every
    moderation act, game interventions included, notifies through here."""
    notify_moderation(user=user, message=message, game=game)


def required_reason(reason: str) -> str:
    """The moderator's reason, trimmed: every moderation act writes one into the audit log."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(
            codes.REASON_REQUIRED, gettext_noop("Give a reason: it goes into the audit log.")
        )
    return reason


def player_or_404(user_id: Any, *, lock: bool = False) -> User:
    """The player a moderation act is about (locked for an act that changes them)."""
    qs = User.objects.select_for_update() if lock else User.objects
    try:
        return qs.get(pk=user_id)
    except (User.DoesNotExist, ValueError, TypeError) as exc:
        raise ServiceError(codes.NOT_FOUND, gettext_noop("No such player.")) from exc


def player_to_sanction(moderator: User, user_id: Any) -> User:
    """The player ``moderator`` acts on, locked: nobody moderates their own account, and only an
    administrator sanctions staff."""
    user = player_or_404(user_id, lock=True)
    if moderator.pk == user.pk:
        raise ServiceError(codes.NOT_ALLOWED, gettext_noop("You cannot moderate your own account."))
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise ServiceError(
            codes.NOT_ALLOWED, gettext_noop("Only an administrator can sanction a staff account.")
        )
    return user


# ---------------------------------------------------------------------------------------------
# Players: reports and blocks


def file_report(
    *,
    reporter: User | None,
    player_id: Any,
    reason: str,
    details: str = "",
    game_id: Any = None,
) -> tuple[Report, bool]:
    """Report a player. Returns the report and whether it was merged into an open one.

    A second report of the same player while the first is still open adds to it (the reasons,
    the text, the game if none was given) instead of queueing a duplicate for the moderators.
    ``reporter=None`` is the service's own report (the chat's word filter): nobody to check
    against the player or the game, and one open report per player from it, as per reporter.
    """
    if reason not in dict(Report.REASONS):
        raise ServiceError(codes.INVALID_REQUEST, f"Unknown reason {reason!r}.")
    reported = player_or_404(player_id)
    if reporter is not None:
        if reported.pk == reporter.pk:
            raise ServiceError(
                codes.CANNOT_REPORT_YOURSELF, gettext_noop("You cannot report yourself.")
            )
        if game_id is not None:
            _check_both_seated(reporter, reported, game_id)
    details = details.strip()[:MAX_DETAILS]
    for _ in range(2):
        with transaction.atomic():
            filed = _merge_or_open(reporter, reported, reason, details, game_id)
            if filed is not None:
                return filed
    raise ServiceError(codes.CONFLICT, gettext_noop("Please try again."))


def _check_both_seated(reporter: User, reported: User, game_id: Any) -> None:
    seated = set(
        Seat.objects.filter(game_id=game_id, user__in=[reporter, reported]).values_list(
            "user_id", flat=True
        )
    )
    if reporter.pk not in seated:
        # Same answer as a game that does not exist: a stranger's game stays invisible.
        raise ServiceError(codes.NOT_FOUND, gettext_noop("No such game."))
    if reported.pk not in seated:
        raise ServiceError(
            codes.PLAYER_NOT_IN_GAME, gettext_noop("That player was not in this game.")
        )


def _merge_or_open(
    reporter: User | None, reported: User, reason: str, details: str, game_id: Any
) -> tuple[Report, bool] | None:
    """One attempt, in the caller's transaction: add to the open report of ``reporter`` about
    ``reported`` (row locked) or open one. None when a concurrent report opened it first (the
    unique open report per pair refused ours): the caller tries again, and merges."""
    now = timezone.now()
    report = (
        Report.objects.select_for_update()
        .filter(reporter=reporter, reported=reported, status=Report.OPEN)
        .first()
    )
    if report is not None:
        report.times = F("times") + 1
        report.reasons = [*report.reasons, reason]
        if details:
            stamp = now.strftime("%Y-%m-%d %H:%M")
            extra = f"[{stamp}, {reason}] {details}"
            report.details = f"{report.details}\n\n{extra}".strip()[: MAX_DETAILS * 5]
        report.game_id = report.game_id or game_id
        report.last_reported_at = now
        report.save()
        report.refresh_from_db()
        return report, True
    try:
        with transaction.atomic():
            report = Report.objects.create(
                reporter=reporter,
                reported=reported,
                reason=reason,
                reasons=[reason],
                details=details,
                game_id=game_id,
                created_at=now,
                last_reported_at=now,
            )
    except IntegrityError:
        return None
    return report, False


def block(*, user: User, player_id: Any) -> tuple[Block, bool]:
    """``user`` blocks a player. Returns the block and whether it is new (blocking twice is
    harmless)."""
    blocked = player_or_404(player_id)
    if blocked.pk == user.pk:
        raise ServiceError(codes.CANNOT_BLOCK_YOURSELF, gettext_noop("You cannot block yourself."))
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=user, blocked=blocked), True
    except IntegrityError:
        return Block.objects.get(blocker=user, blocked=blocked), False


def unblock(*, user: User, player_id: Any) -> None:
    deleted, _ = Block.objects.filter(blocker=user, blocked_id=player_id).delete()
    if not deleted:
        raise ServiceError(codes.NOT_FOUND, gettext_noop("You have not blocked this player."))


# ---------------------------------------------------------------------------------------------
# Moderators: sanctions


def _sanction(
    moderator: User, user: User, kind: str, reason: str, report: Report | None, **details: Any
) -> Sanction:
    """The sanction row and its audit entry (``details`` beside the action). Caller holds the
    transaction and the player's lock, and tells the player."""
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, created_by=moderator, report=report
    )
    audit.record(actor=moderator, reason=reason, target_user=user, report=report, **details)
    return sanction


def warn(*, moderator: User, user_id: Any, reason: str, report: Report | None = None) -> Sanction:
    reason = required_reason(reason)
    with transaction.atomic():
        user = player_to_sanction(moderator, user_id)
        sanction = _sanction(
            moderator, user, Sanction.WARNING, reason, report, action=audit.PLAYER_WARNED
        )
        notify_player(user, f"A moderator warned you: {reason}")
    return sanction


def reset_display_name(
    *, moderator: User, user_id: Any, reason: str, report: Report | None = None
) -> Sanction:
    """Replace the display name with a neutral one. The username may be what offended, so the
    name does not fall back to it."""
    reason = required_reason(reason)
    with transaction.atomic():
        user = player_to_sanction(moderator, user_id)
        old = user.display_name
        user.display_name = f"Player {user.pk}"
        user.save(update_fields=["display_name"])
        sanction = _sanction(
            moderator,
            user,
            Sanction.NAME_RESET,
            reason,
            report,
            action=audit.NAME_RESET,
            old_display_name=old,
            new_display_name=user.display_name,
        )
        notify_player(
            user, f"A moderator reset your display name to {user.display_name!r}: {reason}"
        )
    return sanction


def suspend(
    *,
    moderator: User,
    user_id: Any,
    reason: str,
    until: datetime | None,
    ban: bool = False,
    report: Report | None = None,
) -> Sanction:
    """Suspend (until a date) or ban (optionally until a date) a player.

    In one transaction: the account turns inactive (log-in, sessions and the API all refuse an
    inactive account), every token is revoked, the sanction, the audit entry and the notice are
    written. Then, each game in its own transaction with that game locked, a bot takes over the
    player's seat in every running game (the others play on; the player may reclaim the seat
    once the account is open again) and the player leaves every lobby, as if they had left.
    """
    reason = required_reason(reason)
    with transaction.atomic():
        sanction, user, game_ids = _restrict(moderator, user_id, reason, until, ban, report)
    _leave_games(user, game_ids)
    return sanction


def _restrict(
    moderator: User,
    user_id: Any,
    reason: str,
    until: datetime | None,
    ban: bool,
    report: Report | None,
) -> tuple[Sanction, User, list[Any]]:
    """The account side of a suspension or ban; returns the games to leave once committed.
    Caller holds a transaction."""
    now = timezone.now()
    if not ban and until is None:
        raise ServiceError(codes.UNTIL_REQUIRED, gettext_noop("A suspension needs an end date."))
    if until is not None and until <= now:
        raise ServiceError(codes.INVALID_UNTIL, gettext_noop("The end date must be in the future."))
    user = player_to_sanction(moderator, user_id)
    game_ids = _open_seats(user)
    sanction = Sanction.objects.create(
        user=user,
        kind=Sanction.BAN if ban else Sanction.SUSPENSION,
        reason=reason,
        until=until,
        created_by=moderator,
        report=report,
    )
    user.is_active = False
    user.save(update_fields=["is_active"])
    revoked = revoke_all_tokens(user=user)
    audit.record(
        actor=moderator,
        action=audit.PLAYER_BANNED if ban else audit.PLAYER_SUSPENDED,
        reason=reason,
        target_user=user,
        report=report,
        until=until.isoformat() if until else None,
        tokens_revoked=revoked,
        games_left=[str(game_id) for game_id in game_ids],
    )
    word = "banned" if ban else "suspended"
    end = f" until {until:%Y-%m-%d %H:%M} UTC" if until else ""
    notify_player(user, f"Your account is {word}{end}: {reason}")
    return sanction, user, game_ids


def _open_seats(user: User) -> list[Any]:
    return list(
        Seat.objects.filter(
            user=user, left_at__isnull=True, game__status__in=[Game.LOBBY, Game.ACTIVE]
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )


def _leave_games(user: User, game_ids: list[Any]) -> None:
    for game_id in game_ids:
        try:
            game_services.hand_seat_to_bot(game_id, user, reason="moderation")
            continue
        except ServiceError as exc:
            if exc.error is not codes.GAME_NOT_ACTIVE:
                logger.info("no bot for suspended player %s in game %s: %s", user.pk, game_id, exc)
                continue
        # A lobby: nothing to play yet, so the seat is freed for someone else.
        try:
            game_services.leave_game(user=user, game_id=game_id)
        except ServiceError as exc:
            # The game ended meanwhile: nothing to leave. Otherwise the turn clock and the
            # timeout policy take the seat out in the end.
            logger.info("suspended player %s could not leave game %s: %s", user.pk, game_id, exc)


def unban(*, moderator: User, user_id: Any, reason: str) -> User:
    """Lift every suspension and ban in force. Tokens stay revoked: the player logs in again."""
    reason = required_reason(reason)
    now = timezone.now()
    with transaction.atomic():
        user = player_to_sanction(moderator, user_id)
        lifted = Sanction.objects.filter(
            user=user, kind__in=Sanction.RESTRICTING, lifted_at__isnull=True
        ).update(lifted_at=now, lifted_by=moderator)
        if not lifted and user.is_active:
            raise ServiceError(
                codes.NOT_RESTRICTED, gettext_noop("This player is not suspended or banned.")
            )
        user.is_active = True
        user.save(update_fields=["is_active"])
        audit.record(actor=moderator, action=audit.PLAYER_UNBANNED, reason=reason, target_user=user)
        notify_player(user, f"Your account is open again: {reason}")
    return user


def end_expired_suspension(*, username: str) -> bool:
    """Reopen the account if its suspensions have all run out. Called at log-in, before the
    password check, so a player whose suspension ended can sign in again; returns whether it did.

    Only accounts made inactive by a sanction are touched: one query for everybody else.
    """
    return _reopen_if_expired(
        Sanction.objects.filter(user__username__iexact=username), timezone.now()
    )


def end_expired_suspensions() -> int:
    """Reopen every account whose suspensions have all run out (a periodic job), so that a
    player's status, the admin and their reclaimable seats do not wait for their next log-in.
    Returns how many accounts it reopened."""
    now = timezone.now()
    due = (
        Sanction.objects.filter(
            user__is_active=False,
            kind__in=Sanction.RESTRICTING,
            lifted_at__isnull=True,
            until__lte=now,
        )
        .values_list("user_id", flat=True)
        .distinct()
    )
    return sum(
        _reopen_if_expired(Sanction.objects.filter(user_id=user_id), now) for user_id in list(due)
    )


def _reopen_if_expired(sanctions: QuerySet[Sanction], now: datetime) -> bool:
    """Reopen the one account ``sanctions`` belong to if none of its open restrictions is still
    running; returns whether it did. Safe against a concurrent log-in doing the same."""
    open_sanctions = list(
        sanctions.filter(
            user__is_active=False,
            kind__in=Sanction.RESTRICTING,
            lifted_at__isnull=True,
        ).values_list("pk", "until", "user_id")
    )
    if not open_sanctions or any(until is None or until > now for _, until, _ in open_sanctions):
        return False
    user_id = open_sanctions[0][2]
    with transaction.atomic():
        user = player_or_404(user_id, lock=True)
        changed = Sanction.objects.filter(
            pk__in=[pk for pk, _, _ in open_sanctions], lifted_at__isnull=True
        ).update(lifted_at=now)
        if not changed:
            return False  # a concurrent log-in reopened it
        user.is_active = True
        user.save(update_fields=["is_active"])
        audit.record(
            actor=None,
            action=audit.SUSPENSION_EXPIRED,
            reason=gettext_noop("The suspension ran out."),
            target_user=user,
        )
    return True


# ---------------------------------------------------------------------------------------------
# Moderators: the report queue


def resolve_report(
    *,
    moderator: User,
    report_id: Any,
    action: str,
    reason: str,
    until: datetime | None = None,
) -> Report:
    """Take one of ``REPORT_ACTIONS`` on a report's player and close the report, in one
    transaction (the report row is locked: two moderators cannot both act on it)."""
    if action not in REPORT_ACTIONS:
        raise ServiceError(codes.INVALID_ACTION, f"Unknown report action {action!r}.")
    reason = required_reason(reason)
    user: User | None = None
    game_ids: list[Any] = []
    with transaction.atomic():
        try:
            report = Report.objects.select_for_update().get(pk=report_id)
        except (Report.DoesNotExist, ValueError, TypeError) as exc:
            raise ServiceError(codes.NOT_FOUND, gettext_noop("No such report.")) from exc
        if report.status != Report.OPEN:
            raise ServiceError(
                codes.REPORT_CLOSED, gettext_noop("This report has already been closed.")
            )
        player = report.reported_id
        if action == DISMISS:
            audit.record(
                actor=moderator,
                action=audit.REPORT_DISMISSED,
                reason=reason,
                target_user=report.reported,
                report=report,
                target=f"report #{report.pk}",
            )
        elif action == WARN:
            warn(moderator=moderator, user_id=player, reason=reason, report=report)
        elif action == RESET_NAME:
            reset_display_name(moderator=moderator, user_id=player, reason=reason, report=report)
        else:
            _, user, game_ids = _restrict(moderator, player, reason, until, action == BAN, report)
        report.status = Report.DISMISSED if action == DISMISS else Report.ACTIONED
        report.resolution = action
        report.resolution_reason = reason
        report.resolved_by = moderator
        report.resolved_at = timezone.now()
        report.save()
    if user is not None:
        # Each game in its own transaction, once the account side is committed (see suspend()).
        _leave_games(user, game_ids)
    return report
