"""Webhooks, end to end against a receiver on localhost.

The receiver does what a third-party app should: recompute the HMAC-SHA256 of
``f"{timestamp}.{body}"`` with the endpoint's secret, refuse a timestamp more than 5 minutes off,
and remember event ids. A real move (``games.services.act``) makes the notifications; the relay
sends them. Retries after a 500 carry the same ``X-Uno-Event-Id`` and the same body; every
request is in the endpoint's delivery log; too many failures in a row switch the endpoint off.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings
from django.utils import timezone
from jsonschema import Draft4Validator
from rest_framework.throttling import ScopedRateThrottle

from games.models import Game
from notifications import relay, services, tasks
from notifications.channels import webhook
from notifications.models import (
    Delivery,
    Notification,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from players.models import ApiToken
from tests.games.conftest import Player, make_player
from tests.local_http import QuietHandler, serving
from tests.notifications.conftest import clear_outbox, pass_turn, started
from tests.notifications.dns import FakeDNS

pytestmark = pytest.mark.django_db

API = "/api/v1/notifications/webhooks/"
LATER = timedelta(hours=2)  # past any retry's backoff


# ---------------------------------------------------------------------------------------------
# The receiver


@dataclass
class Hit:
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    verified: bool
    status: int

    @property
    def event_id(self) -> str:
        return self.headers["x-uno-event-id"]

    def json(self) -> dict[str, Any]:
        payload: dict[str, Any] = json.loads(self.body)
        return payload


@dataclass
class Receiver:
    """A third party's webhook receiver on 127.0.0.1. Answers with the next of ``answers``
    (200 when they run out); a request whose signature does not verify gets 401."""

    secrets: dict[str, str] = field(default_factory=dict)  # path -> secret
    answers: list[int] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    port: int = 0

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def verify(self, path: str, headers: dict[str, str], body: bytes) -> bool:
        secret = self.secrets.get(path)
        if secret is None:
            return False
        parts = dict(p.split("=", 1) for p in headers.get("x-uno-signature", "").split(","))
        timestamp = int(parts.get("t", "0"))
        if abs(time.time() - timestamp) > 300 or headers.get("x-uno-timestamp") != parts["t"]:
            return False
        expected = hmac.new(
            secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256
        ).hexdigest()
        return hmac.compare_digest(expected, parts.get("v1", ""))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(QuietHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            verified = state.verify(self.path, headers, body)
            status = (state.answers.pop(0) if state.answers else 200) if verified else 401
            state.hits.append(Hit(self.path, headers, body, verified, status))
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    with serving(Handler) as server:
        state.port = server.server_address[1]
        yield state


@pytest.fixture(autouse=True)
def webhook_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Loopback receivers allowed; a throttle cache of the test's own."""
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache(f"t-{uuid.uuid4()}", {}))
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=True, WEBHOOK_TIMEOUT_SECONDS=5):
        yield


def register(
    player: Player, receiver: Receiver, path: str = "/hook", **body: Any
) -> dict[str, Any]:
    response = player.post(API, {"url": receiver.url(path), **body})
    assert response.status_code == 201, response.content
    created: dict[str, Any] = response.json()
    receiver.secrets[path] = created["secret"]
    return created


def turn_passes(
    alice: Player, bob: Player, receiver: Receiver | None = None, **hook: Any
) -> tuple[Game, Player, Notification]:
    """A real move gives the turn to the player who registered a webhook (when ``receiver``)
    before it. Returns the game, that player and their "your turn"."""
    game, mover, (waiting,) = started(alice, bob)
    if receiver is not None:
        register(waiting, receiver, **hook)
    clear_outbox()
    pass_turn(mover, game)
    notice = Notification.objects.get(user=waiting.user, kind="your_turn")
    return game, waiting, notice


def relayed_once_answering(
    alice: Player, bob: Player, receiver: Receiver, status: int
) -> tuple[Game, Player, Notification]:
    """``turn_passes``, then one relay run to which the receiver answers ``status``."""
    passed = turn_passes(alice, bob, receiver)
    receiver.answers = [status]
    relay.relay()
    return passed


def webhook_delivery(player: Player) -> Delivery:
    return Delivery.objects.get(notification__user=player.user, channel="webhook")


def attempts(player: Player, endpoint_id: int) -> list[dict[str, Any]]:
    response = player.get(f"{API}{endpoint_id}/attempts/")
    assert response.status_code == 200, response.content
    results: list[dict[str, Any]] = response.json()["results"]
    return results


# ---------------------------------------------------------------------------------------------
# Delivery


def test_a_move_is_posted_signed_and_a_500_is_retried_with_the_same_event_id(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    game, waiting, notice = relayed_once_answering(alice, bob, receiver, 500)
    delivery = webhook_delivery(waiting)
    assert delivery.status == Delivery.PENDING and delivery.attempts == 1
    assert "HTTP 500" in delivery.last_error
    assert relay.relay() == 0  # the retry waits for its backoff

    relay.relay(now=timezone.now() + LATER)

    first, second = receiver.hits
    assert first.verified and second.verified
    assert (first.status, second.status) == (500, 200)
    assert first.event_id == second.event_id == str(notice.event_id)
    assert first.body == second.body  # the same bytes on every try
    assert (first.headers["x-uno-attempt"], second.headers["x-uno-attempt"]) == ("1", "2")
    payload = second.json()
    assert payload["type"] == "notification"
    assert payload["event_id"] == str(notice.event_id)
    assert payload["kind"] == "your_turn"
    assert payload["user_id"] == waiting.user.pk
    assert payload["url"] == f"{settings.FRONTEND_URL}/games/{game.pk}"
    assert [item["event_id"] for item in payload["items"]] == [str(notice.event_id)]
    assert payload["items"][0]["game_id"] == str(game.pk)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.SENT and delivery.attempts == 2

    (endpoint,) = WebhookEndpoint.objects.all()
    log = attempts(waiting, endpoint.pk)
    assert [(a["attempt"], a["status_code"], a["ok"]) for a in log] == [
        (2, 200, True),
        (1, 500, False),
    ]
    assert {a["event_id"] for a in log} == {str(notice.event_id)}
    assert log[1]["error"] == "HTTP 500"
    endpoint.refresh_from_db()
    assert endpoint.failure_count == 0 and endpoint.last_success_at is not None


def test_the_body_matches_the_webhook_event_in_the_openapi_schema(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    from django.test import Client

    from tests.test_openapi import _openapi_to_jsonschema

    schema = json.loads(Client().get("/api/schema/", {"format": "json"}).content)
    event_schema = _openapi_to_jsonschema({"$ref": "#/components/schemas/WebhookEvent"}, schema)
    _, waiting, _ = turn_passes(alice, bob, receiver)
    relay.relay()
    (hit,) = receiver.hits
    errors = [e.message for e in Draft4Validator(event_schema).iter_errors(hit.json())]
    assert not errors

    (endpoint,) = WebhookEndpoint.objects.all()
    response = waiting.post(f"{API}{endpoint.pk}/test/")
    test_payload = response.json()["payload"]
    assert not list(Draft4Validator(event_schema).iter_errors(test_payload))


def test_an_endpoint_that_keeps_failing_is_switched_off(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    with override_settings(WEBHOOK_MAX_FAILURES=3):
        _, waiting, _ = turn_passes(alice, bob, receiver)
        receiver.answers = [500] * 10
        now = timezone.now()
        for _ in range(3):
            now += LATER
            relay.relay(now=now)

        assert [h.status for h in receiver.hits] == [500, 500, 500]
        (endpoint,) = WebhookEndpoint.objects.all()
        assert endpoint.active is False and endpoint.disabled_at is not None
        assert endpoint.disabled_reason == "3 deliveries in a row failed"
        delivery = webhook_delivery(waiting)
        assert delivery.status == Delivery.FAILED
        assert "switched off" in delivery.last_error
        relay.relay(now=now + LATER)
        assert len(receiver.hits) == 3  # nothing more is sent to it

        # Nothing new is written for it either, until its owner switches it back on.
        services.notify(user=waiting.user, kind="moderation", data={"message": "hi"})
        assert Delivery.objects.filter(channel="webhook").count() == 1
        shown = waiting.get(f"{API}{endpoint.pk}/").json()
        assert shown["active"] is False and shown["failure_count"] == 3

        response = waiting.client.patch(f"{API}{endpoint.pk}/", {"active": True}, format="json")
        assert response.status_code == 200, response.content
        assert response.json()["active"] is True and response.json()["failure_count"] == 0
        services.notify(user=waiting.user, kind="moderation", data={"message": "hi again"})
        relay.relay(now=now + LATER)
        assert receiver.hits[-1].json()["items"][0]["data"] == {"message": "hi again"}


def test_410_gone_switches_the_endpoint_off_at_once(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    _, waiting, _ = relayed_once_answering(alice, bob, receiver, 410)
    (endpoint,) = WebhookEndpoint.objects.all()
    assert endpoint.active is False
    assert "410" in endpoint.disabled_reason
    assert webhook_delivery(waiting).status == Delivery.FAILED


def test_a_retry_goes_only_to_the_endpoints_that_failed(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    game, mover, (waiting,) = started(alice, bob)
    register(waiting, receiver, "/good")
    register(waiting, receiver, "/flaky")
    clear_outbox()
    pass_turn(mover, game)
    receiver.answers = [200, 503]  # endpoints in creation order: /good, then /flaky

    relay.relay()
    assert webhook_delivery(waiting).status == Delivery.PENDING
    relay.relay(now=timezone.now() + LATER)

    assert [(h.path, h.status) for h in receiver.hits] == [
        ("/good", 200),
        ("/flaky", 503),
        ("/flaky", 200),
    ]
    assert len({h.event_id for h in receiver.hits}) == 1
    assert webhook_delivery(waiting).status == Delivery.SENT


def test_an_endpoint_gets_only_the_kinds_it_asked_for(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    _, waiting, _ = turn_passes(alice, bob, receiver, kinds=["moderation"])
    services.notify(user=waiting.user, kind="moderation", data={"message": "hello"})
    relay.relay()
    assert [h.json()["kind"] for h in receiver.hits] == ["moderation"]


def test_a_kind_switched_off_in_the_preferences_is_not_posted(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    game, mover, (waiting,) = started(alice, bob)
    register(waiting, receiver)
    services.update_preferences(user=waiting.user, switches={"webhook": {"your_turn": False}})
    clear_outbox()
    pass_turn(mover, game)
    relay.relay()
    assert receiver.hits == []


def test_an_endpoint_bound_to_a_token_stops_with_the_token(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    game, mover, (waiting,) = started(alice, bob)
    app_token, _ = ApiToken.issue(waiting.user, name="my bot")
    created = register(waiting, receiver, token_id=app_token.pk)
    assert created["token_id"] == app_token.pk
    ApiToken.objects.filter(pk=app_token.pk).update(revoked_at=timezone.now())
    clear_outbox()
    pass_turn(mover, game)
    relay.relay()
    assert receiver.hits == []
    assert not Delivery.objects.filter(channel="webhook").exists()

    # Deleting the token deletes the endpoint.
    app_token.delete()
    assert not WebhookEndpoint.objects.exists()


# ---------------------------------------------------------------------------------------------
# The test event


def test_the_test_event_is_sent_after_commit_and_retried_by_the_sweep(
    alice: Player, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    created = register(alice, receiver)
    receiver.answers = [500]

    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(f"{API}{created['id']}/test/")
    assert response.status_code == 202, response.content
    answer = response.json()
    assert answer["payload"]["type"] == "test" and answer["payload"]["kind"] == "test"
    assert answer["payload"]["event_id"] == answer["event_id"]
    (first,) = receiver.hits
    assert first.verified and first.status == 500
    assert first.json() == answer["payload"]

    assert tasks.relay() == 0  # the periodic sweep: not due yet
    (delivery,) = WebhookDelivery.objects.all()
    assert delivery.status == WebhookDelivery.PENDING
    assert delivery.next_attempt_at > timezone.now()

    assert webhook.send_due_tests(now=timezone.now() + LATER) == 1
    second = receiver.hits[1]
    assert second.status == 200 and second.event_id == answer["event_id"]
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.SENT and delivery.attempts == 2
    log = attempts(alice, created["id"])
    assert [(a["type"], a["attempt"], a["status_code"]) for a in log] == [
        ("test", 2, 200),
        ("test", 1, 500),
    ]


def test_the_delivery_log_pages_newest_first(alice: Player, receiver: Receiver) -> None:
    created = register(alice, receiver)
    for _ in range(3):
        webhook.create_test_event(WebhookEndpoint.objects.get())
    webhook.send_due_tests()
    first = alice.get(f"{API}{created['id']}/attempts/", {"limit": 2}).json()
    assert first["has_more"] is True and len(first["results"]) == 2
    rest = alice.get(
        f"{API}{created['id']}/attempts/", {"limit": 2, "before": first["next_before"]}
    ).json()
    assert rest["has_more"] is False and len(rest["results"]) == 1
    ids = [a["id"] for a in first["results"] + rest["results"]]
    assert ids == sorted(ids, reverse=True)
    assert alice.get(f"{API}{created['id']}/attempts/", {"limit": 0}).status_code == 400


# ---------------------------------------------------------------------------------------------
# Signatures


def test_the_signature_helper_matches_the_documented_recipe() -> None:
    body = b'{"event_id":"x"}'
    header = webhook.signature_header("whsec_s", 1_700_000_000, body)
    expected = hmac.new(b"whsec_s", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert webhook.verify("whsec_s", header, body, now=1_700_000_100)
    assert not webhook.verify("whsec_s", header, body + b" ", now=1_700_000_100)
    assert not webhook.verify("whsec_other", header, body, now=1_700_000_100)
    assert not webhook.verify("whsec_s", header, body, now=1_700_000_000 + 301)


def test_a_receiver_with_another_secret_refuses_and_it_counts_as_a_failure(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    _, waiting, _ = turn_passes(alice, bob, receiver)
    receiver.secrets["/hook"] = "whsec_not_ours"
    relay.relay()
    (hit,) = receiver.hits
    assert not hit.verified and hit.status == 401
    assert WebhookEndpoint.objects.get().failure_count == 1


# ---------------------------------------------------------------------------------------------
# The API


def test_the_secret_is_shown_once(alice: Player, receiver: Receiver) -> None:
    created = register(alice, receiver, description="my bot", kinds=["your_turn"])
    assert created["secret"].startswith("whsec_") and len(created["secret"]) > 40
    assert created["secret"].startswith(created["secret_prefix"])
    listed = alice.get(API).json()
    assert [w["id"] for w in listed] == [created["id"]]
    assert "secret" not in listed[0]
    assert listed[0]["description"] == "my bot" and listed[0]["kinds"] == ["your_turn"]
    assert "secret" not in alice.get(f"{API}{created['id']}/").json()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
        "http://[::ffff:10.0.0.1]/",
        # IPv6 forms that carry a loopback or link-local IPv4 address, and site-local
        "http://[::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",  # Teredo, client 127.0.0.1
        "http://[fec0::1]/",
        "http://[64:ff9b:1::a9fe:a9fe]/",
        "ftp://example.com/hook",
        "https://user:pw@203.0.113.9/hook",
    ],
)
def test_urls_on_loopback_and_private_addresses_are_refused(alice: Player, url: str) -> None:
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False, DEBUG=False):
        response = alice.post(API, {"url": url})
    assert response.status_code == 400, response.content
    assert "url" in response.json()["error"]["details"]["fields"]
    assert not WebhookEndpoint.objects.exists()


def refused_before_posting(receiver: Receiver, waiting: Player) -> WebhookAttempt:
    """Relays with loopback forbidden: nothing reaches the receiver, the one attempt logged is
    refused, and the delivery stays pending for a retry."""
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False, DEBUG=False):
        relay.relay()
    assert receiver.hits == []
    (attempt,) = WebhookAttempt.objects.all()
    assert attempt.status_code is None and attempt.error.startswith("refused"), attempt.error
    assert webhook_delivery(waiting).status == Delivery.PENDING
    return attempt


def test_a_receiver_that_became_private_is_not_posted_to(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    _, waiting, _ = turn_passes(alice, bob, receiver)
    refused_before_posting(receiver, waiting)


# A global address (example.com's) that the fake resolver hands out; never connected to.
PUBLIC = "93.184.215.14"


def hook_on_name(alice: Player, bob: Player, receiver: Receiver, name: str) -> Player:
    """The player a real move gives the turn to, with a webhook on ``name`` at the receiver's
    port, and their "your turn" waiting in the outbox."""
    game, mover, (waiting,) = started(alice, bob)
    response = waiting.post(API, {"url": f"http://{name}:{receiver.port}/hook"})
    assert response.status_code == 201, response.content
    receiver.secrets["/hook"] = response.json()["secret"]
    clear_outbox()
    pass_turn(mover, game)
    return waiting


def test_a_name_rebound_to_loopback_after_the_check_is_not_posted_to(
    alice: Player, bob: Player, receiver: Receiver, dns: FakeDNS
) -> None:
    # Registration and the check before the POST see a public address; any later lookup (the
    # one a connection that resolves the name again would make) sees loopback.
    dns.answers["hook.rebind.test"] = [[PUBLIC], [PUBLIC], ["127.0.0.1"]]
    waiting = hook_on_name(alice, bob, receiver, "hook.rebind.test")
    attempt = refused_before_posting(receiver, waiting)
    assert "127.0.0.1" in attempt.error


def test_the_post_goes_to_the_address_checked_and_names_the_host(
    alice: Player, bob: Player, receiver: Receiver, dns: FakeDNS
) -> None:
    dns.answers["hook.pinned.test"] = [["127.0.0.1"]]
    waiting = hook_on_name(alice, bob, receiver, "hook.pinned.test")
    relay.relay()
    (hit,) = receiver.hits
    assert hit.verified and hit.headers["host"] == f"hook.pinned.test:{receiver.port}"
    assert webhook_delivery(waiting).status == Delivery.SENT


def test_token_id_must_be_one_of_my_live_tokens(
    alice: Player, bob: Player, receiver: Receiver
) -> None:
    bobs = ApiToken.objects.get(user=bob.user)
    response = alice.post(API, {"url": receiver.url(), "token_id": bobs.pk})
    assert response.status_code == 400
    assert "token_id" in response.json()["error"]["details"]["fields"]


def test_someone_elses_webhook_is_not_found(alice: Player, bob: Player, receiver: Receiver) -> None:
    created = register(alice, receiver)
    for response in (
        bob.get(f"{API}{created['id']}/"),
        bob.post(f"{API}{created['id']}/test/"),
        bob.get(f"{API}{created['id']}/attempts/"),
        bob.client.delete(f"{API}{created['id']}/"),
        bob.client.patch(f"{API}{created['id']}/", {"active": False}, format="json"),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    assert alice.client.delete(f"{API}{created['id']}/").status_code == 204
    assert not WebhookEndpoint.objects.exists()


def test_a_read_token_may_list_but_not_change(alice: Player, receiver: Receiver) -> None:
    reader = make_player("reader", scope=ApiToken.SCOPE_READ)
    assert reader.get(API).status_code == 200
    assert reader.post(API, {"url": receiver.url()}).status_code == 403


def test_at_most_ten_webhooks(alice: Player, receiver: Receiver) -> None:
    for i in range(webhook.MAX_ENDPOINTS):
        register(alice, receiver, f"/hook{i}")
    response = alice.post(API, {"url": receiver.url("/one-more")})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_webhooks"


def test_creating_webhooks_and_test_events_are_throttled(alice: Player, receiver: Receiver) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "webhooks": "2/hour"}
    with override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    ):
        created = register(alice, receiver)
        assert alice.post(f"{API}{created['id']}/test/").status_code == 202
        response = alice.post(f"{API}{created['id']}/test/")
        assert response.status_code == 429
        assert response["Retry-After"]
        assert alice.get(API).status_code == 200  # listing is not throttled


def test_the_preferences_list_the_webhook_switches(alice: Player) -> None:
    channels = alice.get("/api/v1/notifications/preferences/").json()["channels"]
    assert all(channels["webhook"].values())
