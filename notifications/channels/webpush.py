"""Web Push (RFC 8030) to the browsers a player subscribed, signed with VAPID (RFC 8292) and
encrypted for each browser (RFC 8291, ``aes128gcm``) by ``pywebpush``.

The payload is what the service worker (web/templates/web/sw.js) shows: ``title``, ``body``,
``url`` (opened on tap), ``event_id`` (the notification's tag, so a retried push replaces the
one shown instead of adding a second), ``kind`` and ``language``. Push services cap a payload at
about 4 KB, so a collapsed message names its games' event ids, not their texts.

One message goes to every subscription of the player. It counts as sent when at least one
browser's push service accepted it: the player has been told. Push service answers:

- 201/202: accepted. 404/410 (and 403, a subscription made with another VAPID key): that
  subscription is gone; it is deleted.
- 429, 5xx, no answer: temporary; when no browser accepted the message, the relay retries it with
  backoff, under the same event id.
- any other 4xx (a payload too large, a malformed request): cannot succeed; when no browser
  accepted the message, the delivery fails for good.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from pywebpush import WebPushException, webpush

from notifications import kinds as k
from notifications import vapid
from notifications.channels import register
from notifications.channels.addresses import AddressNotAllowed, check_url, loopback_allowed
from notifications.channels.base import Channel, Message, PermanentDeliveryError
from notifications.channels.outbound import pinned_session
from notifications.models import PushSubscription

if TYPE_CHECKING:
    from players.models import User

logger = logging.getLogger(__name__)

# How long a push service keeps a message for a browser that is offline: a day, the default
# turn time (after that the inbox has it anyway).
TTL_SECONDS = 24 * 3600
GONE = frozenset({403, 404, 410})
MAX_BODY = 1000  # characters of a body (a moderator's message may be long)


class PushUnavailable(Exception):
    """No VAPID key pair: Web Push is off on this server."""


def push_payload(message: Message) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "event_id": message.event_id,
        "kind": message.kind,
        "title": message.title,
        "body": message.body[:MAX_BODY],
        "url": message.url,
        "language": message.language,
        "collapsed": message.collapsed,
    }
    if len(message.items) == 1 and message.items[0].game_id:
        payload["game_id"] = message.items[0].game_id
    if message.collapsed:
        payload["items"] = [item.event_id for item in message.items]
    topic = push_topic(message)
    if topic:
        payload["topic"] = topic
    return payload


# A collapsed "your turn in N games" replaces the previous one on the device.
DIGEST_TOPIC = "your-turn-digest"


def push_topic(message: Message) -> str | None:
    """The Web Push ``Topic`` (RFC 8030 §5.4) of a turn message: one per game, so the push
    service (and the device, which uses it as the notification's tag) keeps only the newest
    "your turn" of a game instead of stacking them. At most 32 URL-safe characters: a game's
    UUID in hex is exactly 32. Other kinds (caught, match over ...) each say something new and
    get no topic."""
    if message.kind not in k.TURN_KINDS:
        return None
    games = {item.game_id for item in message.items}
    if len(games) != 1 or None in games:
        return DIGEST_TOPIC
    return uuid.UUID(str(next(iter(games)))).hex


def subscription_info(subscription: PushSubscription) -> dict[str, Any]:
    return {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }


def push(
    subscription: PushSubscription,
    data: bytes,
    keys: vapid.VapidKeys,
    *,
    urgent: bool = False,
    topic: str | None = None,
) -> requests.Response:
    """One encrypted, signed POST to the subscription's push service. Raises WebPushException
    for an answer other than 2xx (``.response`` has it; a redirect is one: it is not followed),
    requests' errors for no answer and ``AddressNotAllowed`` when the endpoint's name now
    resolves to a refused address. The connection goes to the address checked (outbound.py)."""
    with pinned_session() as session:
        return _push(session, subscription, data, keys, urgent=urgent, topic=topic)


def _push(
    session: requests.Session,
    subscription: PushSubscription,
    data: bytes,
    keys: vapid.VapidKeys,
    *,
    urgent: bool,
    topic: str | None,
) -> requests.Response:
    response = webpush(
        subscription_info=subscription_info(subscription),
        data=data.decode(),
        vapid_private_key=keys.vapid,
        # A new dict for every call: pywebpush fills in `aud` (the endpoint's origin) and `exp`.
        vapid_claims={"sub": settings.VAPID_SUBJECT},
        content_encoding="aes128gcm",
        ttl=TTL_SECONDS,
        timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
        headers={"Urgency": "high" if urgent else "normal", **({"Topic": topic} if topic else {})},
        requests_session=session,
    )
    assert isinstance(response, requests.Response)
    return response


class WebPushChannel(Channel):
    name = "webpush"
    default_kinds = (
        k.YOUR_TURN,
        k.REMINDER,
        k.CAUGHT,
        k.TARGETED,
        k.SWAPPED,
        k.MATCH_OVER,
        k.INVITED,
        k.CHALLENGED,
        k.PAIRED,
        k.MODERATION,
    )
    collapses = True
    # A player looking at the game live sees the move there; a push about it is noise.
    skip_while_watching = True
    # Its rows set User.has_channel_targets (notifications.signals).
    targets_flagged_on_user = True

    def reachable(self, user: User) -> bool:
        return self.reachable_among([user]) == {user.pk}

    def reachable_rows(self, users: Collection[User]) -> QuerySet[PushSubscription]:
        # Without a VAPID key nothing is reachable: no deliveries are written that could never
        # be sent.
        if vapid.current() is None:
            return PushSubscription.objects.none()
        return PushSubscription.objects.filter(user_id__in=[u.pk for u in users if u.is_active])

    def send(self, message: Message) -> None:
        keys = vapid.current()
        if keys is None:
            raise PermanentDeliveryError("Web Push is not configured (no VAPID key)")
        subscriptions = list(PushSubscription.objects.filter(user_id=message.user.pk))
        if not subscriptions:
            raise PermanentDeliveryError("the player has no push subscription any more")
        data = json.dumps(push_payload(message), separators=(",", ":")).encode()
        accepted = 0
        temporary: list[str] = []
        permanent: list[str] = []
        for subscription in subscriptions:
            try:
                check_endpoint(subscription.endpoint)
                push(
                    subscription,
                    data,
                    keys,
                    urgent=message.kind in k.TURN_KINDS,
                    topic=push_topic(message),
                )
            except AddressNotAllowed as exc:
                PushSubscription.objects.filter(pk=subscription.pk).delete()
                permanent.append(f"subscription {subscription.pk}: {exc}, deleted")
            except WebPushException as exc:
                status = exc.status_code
                if status in GONE:
                    # The browser unsubscribed, or the subscription expired: forget it.
                    PushSubscription.objects.filter(pk=subscription.pk).delete()
                    permanent.append(f"subscription {subscription.pk}: {status}, deleted")
                elif status is not None and (status == 429 or status >= 500):
                    temporary.append(f"subscription {subscription.pk}: {status}")
                else:
                    permanent.append(f"subscription {subscription.pk}: {status}")
            except requests.RequestException as exc:
                temporary.append(f"subscription {subscription.pk}: {exc.__class__.__name__}")
            else:
                accepted += 1
                PushSubscription.objects.filter(pk=subscription.pk).update(
                    last_success_at=timezone.now()
                )
        if accepted:
            return
        if temporary:
            raise PushFailed("; ".join(temporary + permanent))
        raise PermanentDeliveryError("; ".join(permanent))


class PushFailed(Exception):
    """No push service accepted the message, and some may later: retried by the relay."""


webpush_channel = register(WebPushChannel())


# ---------------------------------------------------------------------------------------------
# Subscribing (the API's services)

MAX_SUBSCRIPTIONS = 20  # per player; subscribing once more forgets the oldest


def check_keys(p256dh: str, auth: str) -> dict[str, str]:
    """Field errors of a subscription's keys (empty when they are a P-256 point and a 16-byte
    secret, base64url), so a bad subscription is refused now rather than failing every push."""
    errors: dict[str, str] = {}
    try:
        point = vapid.b64url_decode(p256dh)
        if len(point) != 65 or point[0] != 4:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        errors["p256dh"] = "Not an uncompressed P-256 public key (base64url)."
    try:
        if len(vapid.b64url_decode(auth)) != 16:
            raise ValueError
    except ValueError:
        errors["auth"] = "Not a 16-byte auth secret (base64url)."
    return errors


def check_endpoint(url: str) -> str:
    """The push service URL, if pushes may be sent there (``AddressNotAllowed`` otherwise):
    https, public addresses; http and loopback only where webhooks may use loopback (tests,
    development)."""
    if not url.startswith("https://") and not loopback_allowed():
        raise AddressNotAllowed("push services are reached over https")
    return check_url(url)


def subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> tuple[PushSubscription, bool]:
    """Save a browser's subscription for ``user`` (the same endpoint again replaces its keys and
    owner: the browser now belongs to whoever subscribed last). Returns it and whether it is new."""
    with transaction.atomic():
        subscription, created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "user_agent": user_agent[:300],
            },
        )
        stale = list(
            PushSubscription.objects.filter(user=user)
            .order_by("-created_at", "-pk")
            .values_list("pk", flat=True)[MAX_SUBSCRIPTIONS:]
        )
        if stale:
            PushSubscription.objects.filter(pk__in=stale).delete()
    return subscription, created


def unsubscribe(*, user: User, endpoint: str) -> bool:
    """Forget ``user``'s subscription with this endpoint. Returns whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)
