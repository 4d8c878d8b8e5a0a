"""Webhooks: a player's notifications POSTed as signed JSON to URLs their apps registered.

A notification goes to every live endpoint of its player (not switched off, its token, if any,
not revoked or expired, and wanting the kind). The body is ``Message.payload()`` plus ``type``
(``notification``, or ``test`` for the test event) and is the same bytes on every try. Headers::

    X-Uno-Event-Id: <event id>               the same on every retry: drop the ids you have seen
    X-Uno-Timestamp: <unix seconds>           when this try was signed
    X-Uno-Signature: t=<timestamp>,v1=<hex>   HMAC-SHA256(secret, f"{timestamp}.{body}")
    X-Uno-Attempt: <n>                        1 for the first try of the event at this endpoint
    X-Uno-Webhook-Id: <endpoint id>

A 2xx answer is success; anything else (a redirect too) or no answer within
``WEBHOOK_TIMEOUT_SECONDS`` is a failure, retried with backoff: notifications by the relay (the
``Delivery`` row), test events by ``send_due_tests`` (called by the relay's periodic sweep). An
endpoint that already took an event is not sent it again when another endpoint's failure makes
the relay retry. 410 Gone switches the endpoint off at once; ``WEBHOOK_MAX_FAILURES`` failures in a
row do too. Every request is logged as a ``WebhookAttempt`` (the owner's delivery log).

Addresses: URLs must be http(s) and resolve to public addresses only. Loopback (127.0.0.0/8, ::1)
is allowed when ``DEBUG`` or ``WEBHOOK_ALLOW_LOOPBACK`` is on; private, link-local and reserved
ranges never are. The check runs when an endpoint is created and again before every request
(a name may have moved); proxies from the environment are not used for webhooks.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from collections.abc import Collection
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from config import error_codes as codes
from config.celery import task_named
from config.errors import ServiceError
from notifications import kinds as k
from notifications import texts
from notifications.channels import register
from notifications.channels.addresses import AddressNotAllowed, check_url
from notifications.channels.base import Channel, Message, PermanentDeliveryError
from notifications.channels.outbound import pinned_session
from notifications.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from notifications.retries import backoff, claim_timeout, max_attempts

if TYPE_CHECKING:
    from players.models import User

logger = logging.getLogger(__name__)

EVENT_ID_HEADER = "X-Uno-Event-Id"
TIMESTAMP_HEADER = "X-Uno-Timestamp"
SIGNATURE_HEADER = "X-Uno-Signature"
ATTEMPT_HEADER = "X-Uno-Attempt"
WEBHOOK_ID_HEADER = "X-Uno-Webhook-Id"
USER_AGENT = "UnoAllWild-Webhooks/1"

TEST = "test"  # the kind (and type) of the test event


# ---------------------------------------------------------------------------------------------
# Signatures


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """Hex HMAC-SHA256 of ``f"{timestamp}.{body}"`` with the endpoint's secret."""
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(
    secret: str, header: str, body: bytes, *, now: float | None = None, tolerance: int = 300
) -> bool:
    """What a receiver does (documented, and used by the tests): the signature matches and the
    timestamp is within ``tolerance`` seconds of now."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    return hmac.compare_digest(parts.get("v1", ""), signature(secret, timestamp, body))


# ---------------------------------------------------------------------------------------------
# Payloads


def notification_payload(message: Message) -> dict[str, Any]:
    return {"type": WebhookDelivery.NOTIFICATION, **message.payload()}


def payload_for_test_event(endpoint: WebhookEndpoint, event_id: uuid.UUID) -> dict[str, Any]:
    """The test event: shaped like a notification, of kind ``test``, with no items."""
    user = endpoint.user
    return {
        "type": WebhookDelivery.TEST,
        "event_id": str(event_id),
        "kind": TEST,
        "user_id": user.pk,
        "language": user.language,
        "title": "Test event",
        "body": f"A test of webhook {endpoint.pk} ({endpoint.url}).",
        "url": texts.inbox_url(),
        "collapsed": False,
        "items": [],
    }


def encode(payload: dict[str, Any]) -> bytes:
    # Sorted keys: the payload comes back from a JSON column (jsonb reorders keys) on retries,
    # and every try must send the same bytes.
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode()


# ---------------------------------------------------------------------------------------------
# Endpoints


def live_endpoints(now: datetime | None = None) -> Any:
    """Endpoints that get notifications: on, and their token (if any) neither revoked nor
    expired. One query, joined with the token."""
    now = now or timezone.now()
    return WebhookEndpoint.objects.filter(active=True, user__is_active=True).filter(
        Q(token__isnull=True)
        | Q(token__revoked_at__isnull=True)
        & (Q(token__expires_at__isnull=True) | Q(token__expires_at__gt=now))
    )


def max_failures() -> int:
    return int(getattr(settings, "WEBHOOK_MAX_FAILURES", 10))


def _record_success(endpoint: WebhookEndpoint, now: datetime) -> None:
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failure_count=0, last_success_at=now)


def _record_failure(endpoint: WebhookEndpoint, now: datetime, gone: bool) -> bool:
    """Count one failure; switch the endpoint off after too many in a row (or at once when it
    answered 410 Gone). Returns whether it is now off."""
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        failure_count=F("failure_count") + 1, last_failure_at=now
    )
    switch_off = WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True)
    if gone:
        reason = "the receiver answered 410 Gone"
    else:
        switch_off = switch_off.filter(failure_count__gte=max_failures())
        reason = f"{max_failures()} deliveries in a row failed"
    if switch_off.update(active=False, disabled_at=now, disabled_reason=reason):
        logger.warning("Webhook %s switched off: %s", endpoint.pk, reason)
        return True
    return not WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).exists()


# ---------------------------------------------------------------------------------------------
# One request


OK, RETRY, OFF = "ok", "retry", "off"


def attempt(delivery: WebhookDelivery, endpoint: WebhookEndpoint) -> str:
    """POST ``delivery`` to ``endpoint`` once, log it, update the counters. Returns ``OK``,
    ``RETRY`` (worth trying again) or ``OFF`` (the endpoint is switched off now)."""
    number = delivery.attempts + 1
    body = encode(delivery.payload)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_ID_HEADER: str(delivery.event_id),
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature_header(endpoint.secret, timestamp, body),
        ATTEMPT_HEADER: str(number),
        WEBHOOK_ID_HEADER: str(endpoint.pk),
    }
    status_code: int | None = None
    error = ""
    started = time.monotonic()
    try:
        check_url(endpoint.url)
        # Connects to the addresses it checks and follows no redirect (outbound.py).
        with pinned_session() as session:
            response = session.post(
                endpoint.url, data=body, headers=headers, timeout=settings.WEBHOOK_TIMEOUT_SECONDS
            )
            status_code = response.status_code
            if not 200 <= status_code < 300:
                error = f"HTTP {status_code}"
    except AddressNotAllowed as exc:
        error = f"refused: {exc}"
    except requests.RequestException as exc:
        error = f"{exc.__class__.__name__}: {exc}"
    duration_ms = int((time.monotonic() - started) * 1000)
    now = timezone.now()
    ok = not error
    WebhookAttempt.objects.create(
        delivery=delivery,
        endpoint=endpoint,
        attempt=number,
        status_code=status_code,
        ok=ok,
        duration_ms=duration_ms,
        error=error[:500],
        at=now,
    )
    delivery.attempts = number
    delivery.last_error = error
    if ok:
        delivery.status = WebhookDelivery.SENT
        delivery.sent_at = now
        _record_success(endpoint, now)
        outcome = OK
    else:
        off = _record_failure(endpoint, now, gone=status_code == 410)
        outcome = OFF if off else RETRY
        if off:
            delivery.status = WebhookDelivery.FAILED
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=delivery.attempts,
        last_error=delivery.last_error,
        status=delivery.status,
        sent_at=delivery.sent_at,
    )
    return outcome


# ---------------------------------------------------------------------------------------------
# The channel


class WebhookFailed(Exception):
    """Some endpoint did not take the event yet: the relay retries (same event id)."""


class WebhookChannel(Channel):
    name = "webhook"
    # Apps decide for themselves what to show: every kind is on unless the player switches it
    # off (and an endpoint can ask for fewer, ``kinds``).
    default_kinds = k.KINDS
    collapses = False  # one event per notification: apps want them one by one
    skip_while_watching = False
    # Its rows set User.has_channel_targets (notifications.signals).
    targets_flagged_on_user = True

    def reachable(self, user: User) -> bool:
        return self.reachable_among([user]) == {user.pk}

    def reachable_rows(self, users: Collection[User]) -> QuerySet[WebhookEndpoint]:
        return live_endpoints().filter(user_id__in=[u.pk for u in users])

    def send(self, message: Message) -> None:
        endpoints = [
            e for e in live_endpoints().filter(user_id=message.user.pk) if e.wants(message.kind)
        ]
        if not endpoints:
            return  # none of the player's endpoints asks for this kind: nothing to send
        payload = notification_payload(message)
        last_try = message.attempt >= max_attempts()
        delivered = 0
        failed: list[str] = []
        for endpoint in endpoints:
            delivery, _ = WebhookDelivery.objects.get_or_create(
                endpoint=endpoint,
                event_id=message.event_id,
                defaults={
                    "type": WebhookDelivery.NOTIFICATION,
                    "kind": message.kind,
                    "payload": payload,
                },
            )
            if delivery.status == WebhookDelivery.SENT:
                delivered += 1  # an earlier try got it there: not again
                continue
            outcome = attempt(delivery, endpoint)
            if outcome == OK:
                delivered += 1
            elif outcome == RETRY:
                failed.append(f"webhook {endpoint.pk}: {delivery.last_error}")
                if last_try:
                    WebhookDelivery.objects.filter(pk=delivery.pk).update(
                        status=WebhookDelivery.FAILED
                    )
        if failed:
            raise WebhookFailed("; ".join(failed))
        if not delivered:
            raise PermanentDeliveryError("every endpoint was switched off")


webhook_channel = register(WebhookChannel())


# ---------------------------------------------------------------------------------------------
# Test events: queued by the API, sent after commit, retried by the relay's periodic sweep.


def create_test_event(endpoint: WebhookEndpoint) -> WebhookDelivery:
    event_id = uuid.uuid4()
    return WebhookDelivery.objects.create(
        endpoint=endpoint,
        event_id=event_id,
        type=WebhookDelivery.TEST,
        kind=TEST,
        payload=payload_for_test_event(endpoint, event_id),
        next_attempt_at=timezone.now(),
    )


def send_due_tests(
    *, ids: list[int] | None = None, now: datetime | None = None, limit: int = 100
) -> int:
    """Send the test events that are due (only ``ids`` when given). A test event is claimed with
    a compare-and-set, like the relay's deliveries; a claim older than the relay's claim timeout
    is due again. Returns how many were delivered."""
    now = now or timezone.now()
    due = Q(status=WebhookDelivery.PENDING, next_attempt_at__lte=now) | Q(
        status=WebhookDelivery.SENDING, claimed_at__lte=now - claim_timeout()
    )
    rows = WebhookDelivery.objects.filter(due, type=WebhookDelivery.TEST)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    sent = 0
    for pk in list(rows.order_by("next_attempt_at").values_list("pk", flat=True)[:limit]):
        if not WebhookDelivery.objects.filter(due, pk=pk).update(
            status=WebhookDelivery.SENDING, claimed_at=now
        ):
            continue  # another sender took it
        delivery = WebhookDelivery.objects.select_related("endpoint__user").get(pk=pk)
        outcome = attempt(delivery, delivery.endpoint)
        if outcome == OK:
            sent += 1
        elif outcome == RETRY:
            give_up = delivery.attempts >= max_attempts()
            WebhookDelivery.objects.filter(pk=pk, status=WebhookDelivery.SENDING).update(
                status=WebhookDelivery.FAILED if give_up else WebhookDelivery.PENDING,
                next_attempt_at=timezone.now() + backoff(delivery.attempts),
            )
    return sent


# ---------------------------------------------------------------------------------------------
# Managing endpoints (the API's services)

MAX_ENDPOINTS = 10  # per player
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def endpoints_of(user: User) -> list[WebhookEndpoint]:
    return list(WebhookEndpoint.objects.filter(user=user).select_related("token"))


def endpoint_of(user: User, endpoint_id: int) -> WebhookEndpoint:
    """One of ``user``'s endpoints; someone else's answers like one that does not exist."""
    endpoint = (
        WebhookEndpoint.objects.filter(pk=endpoint_id, user=user).select_related("token").first()
    )
    if endpoint is None:
        raise ServiceError(codes.NOT_FOUND, "No such webhook.")
    return endpoint


def create_endpoint(
    *,
    user: User,
    url: str,
    description: str = "",
    kinds: list[str] | None = None,
    token_id: int | None = None,
) -> WebhookEndpoint:
    """Register ``url`` for ``user`` (bound to one of their live tokens with ``token_id``), with
    a new secret. Checks the address (a DNS lookup): call outside a transaction."""
    try:
        check_url(url)
    except AddressNotAllowed as exc:
        raise ServiceError(
            codes.INVALID_REQUEST, "The request is not valid.", fields={"url": [str(exc)]}
        ) from None
    token = None
    if token_id is not None:
        token = next((t for t in user.tokens.filter(pk=token_id) if t.is_live), None)
        if token is None:
            raise ServiceError(
                codes.INVALID_REQUEST,
                "The request is not valid.",
                fields={"token_id": ["Not one of your live tokens."]},
            )
    with transaction.atomic():
        # Counted under the user's row lock, so two requests cannot both add the tenth.
        type(user).objects.select_for_update().filter(pk=user.pk).first()
        if WebhookEndpoint.objects.filter(user=user).count() >= MAX_ENDPOINTS:
            raise ServiceError(
                codes.TOO_MANY_WEBHOOKS,
                f"You have {MAX_ENDPOINTS} webhooks already; delete one first.",
            )
        return WebhookEndpoint.objects.create(
            user=user,
            token=token,
            url=url,
            description=description,
            kinds=list(dict.fromkeys(kinds or [])),
            secret=new_secret(),
        )


def update_endpoint(
    endpoint: WebhookEndpoint,
    *,
    active: bool | None = None,
    description: str | None = None,
    kinds: list[str] | None = None,
) -> WebhookEndpoint:
    """Switch on (which forgets past failures) or off, describe, choose kinds."""
    if active is True and not endpoint.active:
        endpoint.active = True
        endpoint.failure_count = 0
        endpoint.disabled_at = None
        endpoint.disabled_reason = ""
    elif active is False and endpoint.active:
        endpoint.active = False
        endpoint.disabled_at = timezone.now()
        endpoint.disabled_reason = "switched off by its owner"
    if description is not None:
        endpoint.description = description
    if kinds is not None:
        endpoint.kinds = list(dict.fromkeys(kinds))
    endpoint.save()
    return endpoint


def queue_test_event(endpoint: WebhookEndpoint) -> WebhookDelivery:
    """Write a test event for ``endpoint`` and send it once the caller's transaction commits
    (retried like any delivery when the receiver fails)."""
    with transaction.atomic():
        delivery = create_test_event(endpoint)
        transaction.on_commit(partial(_queue_tests, [delivery.pk]), robust=True)
    return delivery


def _queue_tests(ids: list[int]) -> None:
    try:
        task_named("notifications.tasks.send_webhook_tests").apply_async(
            kwargs={"ids": ids}, retry=False
        )
    except Exception:
        logger.warning(
            "Could not queue a webhook test event; the relay sweep sends it", exc_info=True
        )


def attempts_page(
    endpoint: WebhookEndpoint, *, before: int | None = None, limit: int = 50
) -> tuple[list[WebhookAttempt], bool]:
    """The endpoint's delivery log, newest first, and whether older entries exist."""
    limit = max(1, min(limit, 100))
    rows = WebhookAttempt.objects.filter(endpoint=endpoint).select_related("delivery")
    if before is not None:
        rows = rows.filter(pk__lt=before)
    page = list(rows.order_by("-pk")[: limit + 1])
    return page[:limit], len(page) > limit
