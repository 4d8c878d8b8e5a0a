"""Every change to notifications: write them (inbox rows and outbox rows), mark them read, save
preferences, and hand deliveries to the relay once committed.

``write`` is the one place that creates notifications. The move hook (``outbox.record_move``),
the reminder sweep and ``notify`` (invitations, moderation notices) all go through it, inside the
caller's transaction, so a notification exists exactly when its cause committed.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import DateTimeField, F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from config import error_codes as codes
from config.celery import task_named
from config.errors import ServiceError
from live import presence
from live.announce import publish, user_key
from notifications import channels, kinds
from notifications.models import Delivery, Notification, Preference
from notifications.preferences import preferences_of, quiet_until, wants

if TYPE_CHECKING:
    from games.models import Game
    from players.models import User

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Planned:
    """A notification to write: to whom, what, and the unique key of its cause (optional)."""

    user: User
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    key: str | None = None


def write(
    planned: Sequence[Planned],
    *,
    game: Game | None = None,
    now: datetime | None = None,
    users_current: bool = True,
) -> list[Notification]:
    """Write the inbox rows and, by each player's preferences, their deliveries.

    Caller holds a transaction (the move's, with the game locked, for moves). The same number
    of queries whatever the number of players: the inbox rows, one (a UNION) for the channels
    whose targets have a table of their own (push subscriptions, webhook endpoints) when any of
    the players has such a target (``User.has_channel_targets``; none otherwise), the
    preferences of players any external channel can reach, and the deliveries. No network: the
    relay is queued on commit. The flag is read from the planned User objects: pass
    ``users_current=False`` when they may have been loaded before their owner added a target
    (then the query asks about every player, whatever their flag says).
    """
    if not planned:
        return []
    now = now or timezone.now()
    notifications = Notification.objects.bulk_create(
        Notification(
            user=p.user,
            kind=p.kind,
            game=game,
            data=p.data,
            key=p.key,
            created_at=now,
            # A stream-only fact is never in the inbox: written withdrawn and read.
            cleared_at=now if p.kind in kinds.STREAM_ONLY else None,
            read_at=now if p.kind in kinds.STREAM_ONLY else None,
        )
        for p in planned
    )
    # The account event streams (notifications.api.events) of these players read their new rows
    # once they are committed: wake them then, on each player's own key.
    transaction.on_commit(partial(_announce_to, sorted({p.user.pk for p in planned})), robust=True)
    deliveries = _deliveries(notifications, planned, now, users_current)
    watched = [(n.pk, n.user_id, n.game_id) for n in notifications if n.kind in kinds.GAME_KINDS]
    if game is not None and watched:
        # Registered before the relay's hook, so it runs first: a notice withdrawn here is
        # never sent. Presence lives in the cache (a network call with Redis): after commit.
        delivered = {d.notification.pk for d in deliveries}
        transaction.on_commit(partial(withdraw_watched, watched, delivered), robust=True)
    if deliveries:
        Delivery.objects.bulk_create(deliveries)
        due = [d.pk for d in deliveries if d.status == Delivery.PENDING]
        if due:
            # robust: whatever happens to the relay, the move's other on-commit work still runs.
            transaction.on_commit(partial(queue_relay, due), robust=True)
    return notifications


def _announce_to(user_ids: list[int]) -> None:
    for user_id in user_ids:
        publish(user_key(user_id))


def _deliveries(
    notifications: Sequence[Notification],
    planned: Sequence[Planned],
    now: datetime,
    users_current: bool,
) -> list[Delivery]:
    """The deliveries of ``notifications`` (not saved), by each player's channels and
    preferences: none, without a query for the preferences, when no channel reaches anyone."""
    users = {p.user.pk: p.user for p in planned}.values()
    reachable = channels.reachable(users, use_flags=users_current)
    if not reachable:
        return []
    prefs = preferences_of({uid for uid, _ in reachable})
    deliveries = []
    for notification, p in zip(notifications, planned, strict=True):
        if p.kind in kinds.STREAM_ONLY:
            continue  # the account event stream's alone
        pref = prefs.get(p.user.pk)
        for channel in channels.all_channels():
            if (p.user.pk, channel.name) not in reachable or not wants(pref, channel.name, p.kind):
                continue
            held_until = quiet_until(pref, p.user.time_zone, now)
            deliveries.append(
                Delivery(
                    notification=notification,
                    channel=channel.name,
                    status=Delivery.HELD if held_until else Delivery.PENDING,
                    next_attempt_at=held_until or now,
                    created_at=now,
                )
            )
    return deliveries


def withdraw_watched(
    notices: Sequence[tuple[int, int, Any]], delivered: Collection[int] | None = None
) -> int:
    """Withdraw the game notices whose player has that game open and visible right now
    (``live.presence``): they see the move at the table, so no inbox entry, no mail, no push.
    Decided after the commit, when the notices exist and the live connections are current.
    Their deliveries still due are skipped (``delivered``: the notices that have deliveries,
    when the caller knows; the others need no query for theirs); returns how many notices were
    withdrawn."""
    ids = [pk for pk, user_id, game_id in notices if presence.is_watching(user_id, game_id)]
    if not ids:
        return 0
    now = timezone.now()
    if delivered is None or any(pk in delivered for pk in ids):
        Delivery.objects.filter(notification_id__in=ids, status__in=Delivery.DUE).update(
            status=Delivery.SKIPPED, last_error="the player is watching the game live"
        )
    return Notification.objects.filter(pk__in=ids, cleared_at__isnull=True).update(
        cleared_at=now, read_at=Coalesce(F("read_at"), Value(now, output_field=DateTimeField()))
    )


def queue_relay(delivery_ids: list[int] | None = None) -> None:
    """Ask the relay to send these deliveries now. Never raises.

    With Redis down the broker refuses the task: that is logged and nothing more, because the
    deliveries are safe in the database and the periodic relay sweep sends them once Redis is
    back. Without Redis (embedded mode) the task runs inline, right here after the commit; its
    failure must not turn the request that caused it into an error either.
    """
    try:
        task_named("notifications.tasks.relay").apply_async(
            kwargs={"delivery_ids": delivery_ids}, retry=False
        )
    except Exception:
        logger.warning(
            "Could not queue the notification relay; the periodic sweep will send them",
            exc_info=True,
        )


# ---------------------------------------------------------------------------------------------
# Notifications that are not caused by a move


def notify(
    *,
    user: User,
    kind: str,
    game: Game | None = None,
    data: dict[str, Any] | None = None,
    key: str | None = None,
) -> Notification | None:
    """Notify one player (an invitation, a moderation notice). Joins the caller's transaction
    when there is one. With ``key``, a second call for the same key does nothing (returns None).
    """
    if kind not in kinds.all_kinds():
        raise ValueError(f"unknown notification kind {kind!r}")
    if key is not None and Notification.objects.filter(key=key).exists():
        return None
    try:
        with transaction.atomic():
            # The caller's User may be older than its owner's newest subscription or endpoint
            # (an invitation or a notice is rare: the query costs nothing worth saving here).
            (notification,) = write(
                [Planned(user, kind, dict(data or {}), key)], game=game, users_current=False
            )
    except IntegrityError:
        if key is None:
            raise
        return None  # a concurrent call with the same key won
    return notification


def notify_invited(*, user: User, game: Game, by: User) -> Notification | None:
    """``by`` invited ``user`` to ``game`` (once per game and player)."""
    return notify(
        user=user,
        kind=kinds.INVITED,
        game=game,
        data={"by": by.public_name},
        key=f"invited:{game.pk}:{user.pk}",
    )


def notify_challenged(*, user: User, by: User, challenge_id: int) -> Notification | None:
    """``by`` challenged ``user`` to a game (once per challenge). No game: until it is accepted
    the challenge's lobby is not ``user``'s to open."""
    return notify(
        user=user,
        kind=kinds.CHALLENGED,
        data={"by": by.public_name, "challenge": challenge_id},
        key=f"challenged:{challenge_id}",
    )


def notify_paired(*, game: Game, players: Sequence[User]) -> list[Notification]:
    """Quick pairing started ``game`` for ``players``: each hears of it with their opponents'
    names (once per game and player: a repeated call writes nothing new). One ``write`` for
    all of them."""
    keys = {f"paired:{game.pk}:{user.pk}": user for user in players}
    done = set(Notification.objects.filter(key__in=list(keys)).values_list("key", flat=True))
    planned = [
        Planned(
            user,
            kinds.PAIRED,
            {"opponents": [o.public_name for o in players if o.pk != user.pk]},
            key,
        )
        for key, user in keys.items()
        if key not in done
    ]
    try:
        with transaction.atomic():
            return write(planned, game=game, users_current=False)
    except IntegrityError:  # a concurrent call wrote them
        return []


def notify_followed(*, user: User, by: User) -> Notification | None:
    """``by`` started following ``user`` (once per pair, however often they unfollow and
    follow again: a follow is no way to ping someone)."""
    return notify(
        user=user,
        kind=kinds.FOLLOWED,
        data={"by": by.public_name, "username": by.username},
        key=f"followed:{by.pk}:{user.pk}",
    )


def notify_chat_mention(
    *, user: User, by: User, game: Game, message_id: int
) -> Notification | None:
    """``by`` named ``user`` (``@username``) in the chat of ``game`` (once per message)."""
    return notify(
        user=user,
        kind=kinds.CHAT_MENTION,
        game=game,
        data={"by": by.public_name, "message": message_id},
        key=f"chat_mention:{message_id}:{user.pk}",
    )


def notify_moderation(*, user: User, message: str, game: Game | None = None) -> Notification:
    """A moderator's message to one player, shown as written (not translated)."""
    notification = notify(user=user, kind=kinds.MODERATION, game=game, data={"message": message})
    assert notification is not None  # no key: always written
    return notification


# ---------------------------------------------------------------------------------------------
# The inbox


def mark_read(*, user: User, notification_id: int) -> Notification:
    """Mark one of ``user``'s notifications read (again: keeps the first time)."""
    notification = Notification.objects.filter(pk=notification_id, user=user).first()
    if notification is None:
        # Someone else's notification answers like one that does not exist.
        raise ServiceError(codes.NOT_FOUND, "No such notification.")
    if notification.read_at is None:
        notification.read_at = timezone.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(
            read_at=notification.read_at
        )
    return notification


def mark_all_read(*, user: User, up_to: int | None = None) -> int:
    """Mark every unread notification of ``user`` read (those with id <= ``up_to`` when given,
    so a client marks only what it has shown). Returns how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if up_to is not None:
        unread = unread.filter(pk__lte=up_to)
    return unread.update(read_at=timezone.now())


# ---------------------------------------------------------------------------------------------
# Preferences


def update_preferences(
    *,
    user: User,
    switches: dict[str, dict[str, bool]] | None = None,
    quiet_hours: tuple[time, time] | None | bool = False,
) -> Preference:
    """Change some switches and/or the quiet hours; what is not given stays as it was.

    ``switches`` maps a registered channel to {kind: on?}. ``quiet_hours`` is (start, end) in
    local time, None to switch them off, or False (the default) to leave them alone. Held
    deliveries follow the new quiet hours when the relay next looks at them.
    """
    with transaction.atomic():
        pref, _ = Preference.objects.select_for_update().get_or_create(user=user)
        if switches:
            saved = {name: dict(values) for name, values in (pref.switches or {}).items()}
            for name, values in switches.items():
                if channels.get(name) is None:
                    raise ServiceError(codes.INVALID_REQUEST, f"Unknown channel {name!r}.")
                for kind, on in values.items():
                    if kind not in kinds.all_kinds():
                        raise ServiceError(codes.INVALID_REQUEST, f"Unknown kind {kind!r}.")
                    saved.setdefault(name, {})[kind] = bool(on)
            pref.switches = saved
        if quiet_hours is None:
            pref.quiet_start = pref.quiet_end = None
        elif quiet_hours is not False:
            start, end = quiet_hours  # type: ignore[misc]
            if start == end:
                raise ServiceError(
                    codes.INVALID_REQUEST, "Quiet hours must start and end at different times."
                )
            pref.quiet_start, pref.quiet_end = start, end
        pref.save()
    return pref
