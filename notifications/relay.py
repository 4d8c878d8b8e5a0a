"""The relay: sends due deliveries on their channels, at least once, outside any transaction.

Any number of relays may run at once (a worker's task after each commit, the periodic sweep, the
embedded background thread). Each claims rows with one compare-and-set ``UPDATE … WHERE <still
due>`` that stamps its own claim id, then works only on the rows that carry that id: a row due
for two relays is claimed by exactly one. A relay that dies after claiming leaves rows in
``sending``; once the claim is older than ``NOTIFY_CLAIM_TIMEOUT_SECONDS`` they are due again.
That, and a crash between sending and recording it, are why external channels are at-least-once:
every retry carries the same event id so receivers can drop duplicates.

Before sending, each delivery is checked again against the present (the relay may run hours after
the move): a "your turn" whose turn has been played, a kind the player has switched off since, a
game the player is watching live (push channels) are skipped; a delivery that falls into the
player's quiet hours is held until they end.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, Q
from django.utils import timezone

from config import metrics
from live import presence
from notifications import channels, kinds, texts
from notifications.channels.base import Channel, Item, Message, PermanentDeliveryError
from notifications.models import Delivery, Notification, Preference
from notifications.preferences import preferences_of, quiet_until, wants
from notifications.retries import backoff, claim_timeout, max_attempts
from notifications.selectors import games_waiting

logger = logging.getLogger(__name__)

# Collapsed messages get an id derived from their items' ids: the same batch, the same id.
COLLAPSED_NAMESPACE = uuid.UUID("6f1c2a57-3d4e-4b8a-9c71-0e5d2f7a8b90")


def due(now: datetime) -> Q:
    """Rows a relay may claim at ``now``: due ones, and claims abandoned by a dead relay."""
    return Q(status__in=Delivery.DUE, next_attempt_at__lte=now) | Q(
        status=Delivery.SENDING, claimed_at__lte=now - claim_timeout()
    )


def relay(
    *,
    delivery_ids: Iterable[int] | None = None,
    now: datetime | None = None,
    limit: int = 200,
    rounds: int = 10,
) -> int:
    """Send what is due (only ``delivery_ids`` when given), in rounds of at most ``limit``
    deliveries until nothing is left or ``rounds`` are done (a backlog after an outage drains
    without starving the other periodic jobs). Returns how many deliveries were sent.

    Must not be called inside a transaction: sending is slow I/O, and a rollback after a send
    would forget that it happened."""
    now = now or timezone.now()
    ids = None if delivery_ids is None else list(delivery_ids)
    sent = 0
    for _ in range(rounds):
        claimed, count = _relay_round(ids, now, limit)
        sent += count
        if ids is not None or claimed < limit:
            break
    return sent


def _relay_round(ids: list[int] | None, now: datetime, limit: int) -> tuple[int, int]:
    """One claim-and-send round: (how many rows were claimed, how many were sent)."""
    claim = uuid.uuid4()
    candidates = Delivery.objects.filter(due(now))
    if ids is not None:
        candidates = candidates.filter(pk__in=ids)
    pks = list(candidates.order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit])
    if not pks:
        return 0, 0
    stamp = {"status": Delivery.SENDING, "claim": claim, "claimed_at": now}
    claimed_count = Delivery.objects.filter(due(now), pk__in=pks).update(**stamp)
    if not claimed_count:
        return 0, 0
    claimed = _claimed(claim)
    # Other due "your turn" deliveries of the same players join the batch, so they go out as
    # one message now rather than one by one on later sweeps.
    collapsing = [c.name for c in channels.all_channels() if c.collapses]
    players = {
        d.notification.user_id
        for d in claimed
        if d.notification.kind in kinds.COLLAPSIBLE and d.channel in collapsing
    }
    if players and (
        Delivery.objects.filter(
            due(now),
            channel__in=collapsing,
            notification__kind__in=kinds.COLLAPSIBLE,
            notification__user_id__in=players,
        ).update(**stamp)
    ):
        claimed = _claimed(claim)
    return claimed_count, _process(claimed, claim, now)


def _claimed(claim: uuid.UUID) -> list[Delivery]:
    return list(
        Delivery.objects.filter(claim=claim, status=Delivery.SENDING)
        .select_related("notification__user", "notification__game")
        # The game is read for whose turn it is; its engine state (the big column) is not needed.
        .defer("notification__game__state")
        .order_by("notification__created_at", "pk")
    )


@dataclass
class _Batch:
    channel: Channel
    deliveries: list[Delivery]


def _process(claimed: list[Delivery], claim: uuid.UUID, now: datetime) -> int:
    prefs = preferences_of({d.notification.user_id for d in claimed})
    users = list({d.notification.user_id: d.notification.user for d in claimed}.values())
    used = [channels.get(name) for name in {d.channel for d in claimed}]
    reachable = channels.reachable(users, [c for c in used if c is not None])
    batches: dict[tuple[int, str, str], _Batch] = {}
    for delivery in claimed:
        notification = delivery.notification
        user = notification.user
        pref = prefs.get(user.pk)
        channel = channels.get(delivery.channel)
        if channel is None:
            _finish([delivery], claim, Delivery.FAILED, f"no channel {delivery.channel!r}")
            continue
        reason = _skip_reason(delivery, channel, pref, (user.pk, channel.name) in reachable)
        if reason:
            _finish([delivery], claim, Delivery.SKIPPED, reason)
            continue
        held_until = quiet_until(pref, user.time_zone, now)
        if held_until is not None:
            _hold(delivery, claim, held_until)
            continue
        group = (
            notification.kind
            if channel.collapses and notification.kind in kinds.COLLAPSIBLE
            else f"one:{delivery.pk}"
        )
        batch = batches.setdefault((user.pk, channel.name, group), _Batch(channel, []))
        batch.deliveries.append(delivery)
    return sum(_send(batch, claim) for batch in batches.values())


def _skip_reason(
    delivery: Delivery, channel: Channel, pref: Preference | None, reachable: bool
) -> str:
    notification = delivery.notification
    user = notification.user
    if not reachable:
        return "not reachable on this channel"
    if notification.cleared_at is not None:
        # Replaced by a newer notice, made moot by the player's move, or seen at the table.
        return "the notice was withdrawn"
    if not wants(pref, channel.name, notification.kind):
        return "switched off by the player"
    if notification.kind in kinds.TURN_KINDS and not _turn_still_theirs(notification):
        return "the turn is over"
    if (
        channel.skip_while_watching
        and notification.game_id is not None
        and presence.is_watching(user.pk, notification.game_id)
    ):
        return "the player is watching the game live"
    return ""


def _turn_still_theirs(notification: Notification) -> bool:
    game = notification.game
    if game is None or game.status != game.ACTIVE or game.current_user_id != notification.user_id:
        return False
    if notification.kind == kinds.REMINDER:
        # A reminder names the time left on one clock; a new clock makes it wrong.
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        return deadline == notification.data.get("deadline")
    return True


def _message(batch: _Batch) -> Message:
    deliveries = batch.deliveries
    first = deliveries[0].notification
    user = first.user
    with texts.in_language(user.language):
        items = []
        for delivery in deliveries:
            n = delivery.notification
            title, body = texts.render(n.kind, n.data)
            items.append(
                Item(
                    event_id=str(n.event_id),
                    kind=n.kind,
                    game_id=str(n.game_id) if n.game_id else None,
                    data=n.data,
                    created_at=n.created_at,
                    title=title,
                    body=body,
                    url=texts.url_for(n.kind, n.game_id),
                )
            )
        attempt = max(d.attempts for d in deliveries) + 1
        waiting = games_waiting(user.pk) if first.kind == kinds.YOUR_TURN else 0
        if len(items) == 1 and waiting > 1:
            # The digest: this game and others wait for the player ("your turn in 3 games").
            item = items[0]
            title, _ = texts.render_collapsed(waiting)
            return Message(
                event_id=item.event_id,
                kind=item.kind,
                user=user,
                language=user.language,
                title=title,
                body=item.body,
                url=texts.games_url(),
                items=tuple(items),
                attempt=attempt,
                waiting=waiting,
            )
        if len(items) == 1:
            item = items[0]
            return Message(
                event_id=item.event_id,
                kind=item.kind,
                user=user,
                language=user.language,
                title=item.title,
                body=item.body,
                url=item.url,
                items=tuple(items),
                attempt=attempt,
            )
        title, body = texts.render_collapsed(max(len(items), waiting))
        ids = ",".join(sorted(item.event_id for item in items))
        return Message(
            event_id=str(uuid.uuid5(COLLAPSED_NAMESPACE, ids)),
            kind=first.kind,
            user=user,
            language=user.language,
            title=title,
            body=body,
            url=texts.games_url(),
            items=tuple(items),
            attempt=attempt,
            waiting=waiting,
        )


def _send(batch: _Batch, claim: uuid.UUID) -> int:
    message = _message(batch)
    try:
        batch.channel.send(message)
    except PermanentDeliveryError as exc:
        logger.warning(
            "%s delivery %s failed for good: %s", batch.channel.name, message.event_id, exc
        )
        _finish(batch.deliveries, claim, Delivery.FAILED, _describe(exc))
        return 0
    except Exception as exc:
        logger.warning(
            "%s delivery %s failed (attempt %d), will retry",
            batch.channel.name,
            message.event_id,
            message.attempt,
            exc_info=True,
        )
        _retry(batch.deliveries, claim, _describe(exc))
        return 0
    return _finish(batch.deliveries, claim, Delivery.SENT, "")


def _describe(exc: BaseException) -> str:
    return f"{exc.__class__.__name__}: {exc}"[:2000]


def _finish(deliveries: list[Delivery], claim: uuid.UUID, status: str, error: str) -> int:
    """Record the outcome, but only while this relay still holds the claim (a relay that took
    so long that another reclaimed the rows must not overwrite that one's outcome)."""
    now = timezone.now()
    changes: dict[str, object] = {"status": status, "last_error": error, "claim": None}
    if status in (Delivery.SENT, Delivery.FAILED):
        changes["attempts"] = F("attempts") + 1
    if status == Delivery.SENT:
        changes["sent_at"] = now
    done = Delivery.objects.filter(
        pk__in=[d.pk for d in deliveries], claim=claim, status=Delivery.SENDING
    ).update(**changes)
    metrics.DELIVERIES.labels(channel=deliveries[0].channel, outcome=status).inc(done)
    return done


def _retry(deliveries: list[Delivery], claim: uuid.UUID, error: str) -> None:
    now = timezone.now()
    for delivery in deliveries:
        attempts = delivery.attempts + 1
        give_up = attempts >= max_attempts()
        done = Delivery.objects.filter(pk=delivery.pk, claim=claim, status=Delivery.SENDING).update(
            status=Delivery.FAILED if give_up else Delivery.PENDING,
            attempts=attempts,
            next_attempt_at=now + backoff(attempts),
            last_error=error,
            claim=None,
        )
        outcome = Delivery.FAILED if give_up else "retry"
        metrics.DELIVERIES.labels(channel=delivery.channel, outcome=outcome).inc(done)


def _hold(delivery: Delivery, claim: uuid.UUID, until: datetime) -> None:
    Delivery.objects.filter(pk=delivery.pk, claim=claim, status=Delivery.SENDING).update(
        status=Delivery.HELD, next_attempt_at=until, claim=None
    )
