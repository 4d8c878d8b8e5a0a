"""Web Push, end to end against a push service on localhost.

A browser is played by the test: it makes a P-256 key pair and a 16-byte auth secret, subscribes
through the API with an endpoint on a tiny HTTP server (the "push service"), and a real move
(``games.services.act``) makes a "your turn" that the relay pushes. The push service does what
a real one does with the request: checks the VAPID JWT in ``Authorization: vapid t=…, k=…``
(ES256 with the key ``k``, ``aud`` its own origin, ``exp`` ahead, ``sub`` ours), and the browser
decrypts the body (RFC 8291, ``aes128gcm``, http_ece) with its private key and auth secret.
"""

from __future__ import annotations

import base64
import json
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.utils import timezone

from games.models import Game
from live import presence
from notifications import relay, vapid
from notifications.models import Delivery, Notification, PushSubscription
from players.models import ApiToken
from tests.games.conftest import Player, make_player
from tests.local_http import QuietHandler, serving
from tests.notifications.conftest import clear_outbox, new_game, pass_turn, started, to_move
from tests.notifications.dns import FakeDNS

pytestmark = pytest.mark.django_db

KEY = "/api/v1/notifications/webpush/key/"
SUBSCRIBE = "/api/v1/notifications/webpush/subscriptions/"
UNSUBSCRIBE = "/api/v1/notifications/webpush/subscriptions/delete/"
SUBJECT = "mailto:push-test@example.com"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------------------------------------
# The push service and the browser


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes


@dataclass
class PushService:
    """An HTTP server on 127.0.0.1 that answers pushes with the next status of ``answers``
    (201 once they run out) and keeps what it received."""

    answers: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    port: int = 0
    location: str | None = None  # sent with every answer (a redirect's target)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, name: str = "abc") -> str:
        return f"{self.origin}/push/{name}"


@contextmanager
def running_push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(QuietHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            service.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            status = service.answers.pop(0) if service.answers else 201
            self.send_response(status)
            if service.location:
                self.send_header("Location", service.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST  # noqa: N815  (a 301 or 302 followed turns the POST into a GET)

    with serving(Handler) as server:
        service.port = server.server_address[1]
        yield service


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with running_push_service() as service:
        yield service


@dataclass
class Browser:
    """What a browser keeps for one push subscription: its key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @classmethod
    def new(cls, endpoint: str) -> Browser:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16), endpoint)

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it (what push.js POSTs)."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def check_vapid(request: Received, service: PushService, public_key: str) -> dict[str, Any]:
    """What a push service checks (RFC 8292): returns the JWT's claims."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key  # the key the browser subscribed with
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    header = json.loads(unb64url(header_b64))
    assert header == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature_b64)
    assert len(raw) == 64  # JWS ES256: r || s
    signature = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    key.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims: dict[str, Any] = json.loads(unb64url(claims_b64))
    assert claims["aud"] == service.origin
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"] == SUBJECT
    return claims


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.fixture(autouse=True)
def push_settings() -> Iterator[str]:
    """A VAPID key pair from the environment, and loopback endpoints allowed (the push service
    of these tests is on 127.0.0.1)."""
    private = ec.generate_private_key(ec.SECP256R1())
    raw = b64url(private.private_numbers().private_value.to_bytes(32))
    with override_settings(
        VAPID_PRIVATE_KEY=raw,
        VAPID_PUBLIC_KEY="",
        VAPID_SUBJECT=SUBJECT,
        VAPID_KEY_FILE=None,
        WEBHOOK_ALLOW_LOOPBACK=True,
    ):
        yield raw


def subscribe(player: Player, browser: Browser) -> dict[str, Any]:
    response = player.post(SUBSCRIBE, browser.subscription(), user_agent="TestBrowser/1")
    assert response.status_code == 201, response.content
    body: dict[str, Any] = response.json()
    return body


def server_key(player: Player) -> str:
    response = player.get(KEY)
    assert response.status_code == 200, response.content
    key: str = response.json()["public_key"]
    return key


def turn_passes(
    alice: Player, bob: Player, subscribe_waiting: Browser | None = None
) -> tuple[Game, Player, Notification]:
    """A game in which a real move (draw, pass) gives the turn to the other player, who
    subscribed ``subscribe_waiting`` before it. Returns the game, that player and their notice."""
    game, mover, (waiting,) = started(alice, bob)
    if subscribe_waiting is not None:
        subscribe(waiting, subscribe_waiting)
    clear_outbox()
    pass_turn(mover, game)
    notice = Notification.objects.get(user=waiting.user, kind="your_turn")
    return game, waiting, notice


def webpush_deliveries(player: Player) -> list[Delivery]:
    return list(
        Delivery.objects.filter(notification__user=player.user, channel="webpush").order_by("pk")
    )


# ---------------------------------------------------------------------------------------------
# End to end


def test_a_move_pushes_your_turn_signed_with_vapid_and_encrypted_for_the_browser(
    alice: Player, bob: Player, push_service: PushService
) -> None:
    browser = Browser.new(push_service.endpoint("abc"))
    game, waiting, notice = turn_passes(alice, bob, browser)
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.PENDING

    relay.relay()

    (request,) = push_service.received
    assert request.path == "/push/abc"
    check_vapid(request, push_service, server_key(waiting))
    assert request.headers["content-encoding"] == "aes128gcm"
    assert int(request.headers["ttl"]) > 0
    assert request.headers["urgency"] == "high"
    # One Topic per game: a newer "your turn" of this game replaces this one on the device.
    assert request.headers["topic"] == uuid.UUID(str(game.pk)).hex
    payload = browser.decrypt(request.body)
    assert payload["topic"] == request.headers["topic"]
    # What the service worker shows and opens (web/templates/web/sw.js).
    assert payload["event_id"] == str(notice.event_id)
    assert payload["kind"] == "your_turn"
    assert payload["url"] == f"{settings.FRONTEND_URL}/games/{game.pk}"
    assert payload["game_id"] == str(game.pk)
    assert payload["title"] == "Your turn"
    assert payload["body"].startswith("It's your turn against")
    assert payload["collapsed"] is False
    delivery.refresh_from_db()
    assert delivery.status == Delivery.SENT and delivery.attempts == 1
    assert PushSubscription.objects.get().last_success_at is not None


def test_a_500_from_the_push_service_is_retried_with_the_same_event_id(
    alice: Player, bob: Player, push_service: PushService
) -> None:
    browser = Browser.new(push_service.endpoint())
    _, waiting, notice = turn_passes(alice, bob, browser)
    push_service.answers = [500]

    relay.relay()
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.PENDING and delivery.attempts == 1
    assert "500" in delivery.last_error
    assert delivery.next_attempt_at > timezone.now()
    assert relay.relay() == 0  # not due yet: backoff

    relay.relay(now=timezone.now() + timedelta(hours=1))

    first, second = push_service.received
    ids = [browser.decrypt(r.body)["event_id"] for r in (first, second)]
    assert ids == [str(notice.event_id)] * 2
    delivery.refresh_from_db()
    assert delivery.status == Delivery.SENT and delivery.attempts == 2


def test_a_429_is_retried_too(alice: Player, bob: Player, push_service: PushService) -> None:
    browser = Browser.new(push_service.endpoint())
    _, waiting, _ = turn_passes(alice, bob, browser)
    push_service.answers = [429]
    relay.relay()
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.PENDING
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_deleted_and_the_delivery_fails(
    alice: Player, bob: Player, push_service: PushService, status: int
) -> None:
    browser = Browser.new(push_service.endpoint())
    _, waiting, _ = turn_passes(alice, bob, browser)
    push_service.answers = [status]

    relay.relay()

    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(user=waiting.user).exists()
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.FAILED
    assert "deleted" in delivery.last_error


def test_one_accepting_browser_is_enough(
    alice: Player, bob: Player, push_service: PushService
) -> None:
    """Two browsers, one gone: the player was told, the gone subscription is forgotten."""
    phone = Browser.new(push_service.endpoint("phone"))
    laptop = Browser.new(push_service.endpoint("laptop"))
    game, mover, (waiting,) = started(alice, bob)
    subscribe(waiting, phone)
    subscribe(waiting, laptop)
    clear_outbox()
    pass_turn(mover, game)
    push_service.answers = [410, 201]  # newest subscription first: the laptop is gone

    relay.relay()

    assert sorted(r.path for r in push_service.received) == ["/push/laptop", "/push/phone"]
    assert [s.endpoint for s in PushSubscription.objects.all()] == [phone.endpoint]
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.SENT


def test_no_push_while_the_player_watches_the_game_live(
    alice: Player, bob: Player, push_service: PushService
) -> None:
    browser = Browser.new(push_service.endpoint())
    game, waiting, _ = turn_passes(alice, bob, browser)
    presence.mark_watching(waiting.user.pk, game.pk)

    relay.relay()

    assert push_service.received == []
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.SKIPPED
    assert "watching" in delivery.last_error


def test_players_without_a_subscription_get_no_webpush_delivery(alice: Player, bob: Player) -> None:
    _, waiting, _ = turn_passes(alice, bob)
    assert webpush_deliveries(waiting) == []


def test_pending_your_turns_collapse_into_one_push(
    alice: Player, bob: Player, carol: Player, push_service: PushService
) -> None:
    browser = Browser.new(push_service.endpoint())
    subscribe(carol, browser)
    games = [new_game(alice, carol), new_game(bob, carol)]
    for game, other in zip(games, (alice, bob), strict=True):
        while to_move(game, other, carol) is not carol:
            pass_turn(to_move(game, other, carol), game)

    relay.relay()

    (request,) = push_service.received
    payload = browser.decrypt(request.body)
    assert payload["collapsed"] is True
    assert payload["title"] == "It's your turn in 2 games"
    assert payload["url"] == f"{settings.FRONTEND_URL}/games"
    notices = Notification.objects.filter(user=carol.user, kind="your_turn")
    assert sorted(payload["items"]) == sorted(str(n.event_id) for n in notices)


# ---------------------------------------------------------------------------------------------
# The API


def test_the_key_is_the_configured_public_key(alice: Player, push_settings: str) -> None:
    keys = vapid.from_settings(push_settings, "")
    assert server_key(alice) == keys.public_key
    assert len(unb64url(keys.public_key)) == 65


def test_without_a_key_in_production_push_is_unavailable(
    alice: Player, push_service: PushService
) -> None:
    with override_settings(VAPID_PRIVATE_KEY="", VAPID_KEY_FILE=None):
        response = alice.get(KEY)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "push_unavailable"
        response = alice.post(SUBSCRIBE, Browser.new(push_service.endpoint()).subscription())
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "push_unavailable"


def test_debug_mode_generates_a_key_pair_once_and_keeps_it(alice: Player, tmp_path: Path) -> None:
    key_file = tmp_path / "db.sqlite3.vapid-key.pem"
    with override_settings(VAPID_PRIVATE_KEY="", VAPID_KEY_FILE=str(key_file)):
        first = server_key(alice)
        assert key_file.exists()
        assert key_file.stat().st_mode & 0o777 == 0o600
        vapid._cache.clear()  # a restart
        assert server_key(alice) == first
    assert vapid.load_or_create(key_file).public_key == first


def test_settings_refuse_a_public_key_that_does_not_match(
    monkeypatch: pytest.MonkeyPatch, push_settings: str
) -> None:
    from tests.test_settings_env import load_settings

    other = vapid.b64url(
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    with pytest.raises(ImproperlyConfigured, match="not the public half"):
        vapid.check_settings(push_settings, other)
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY"):
        vapid.check_settings("not-a-key", "")
    with pytest.raises(ImproperlyConfigured, match="VAPID_SUBJECT"):
        load_settings(monkeypatch, VAPID_SUBJECT="push@example.com")
    public = vapid.from_settings(push_settings, "").public_key
    loaded = load_settings(monkeypatch, VAPID_PRIVATE_KEY=push_settings, VAPID_PUBLIC_KEY=public)
    assert loaded["VAPID_PUBLIC_KEY"] == public


def test_a_pem_private_key_works_too(push_settings: str) -> None:
    pem = (
        vapid.parse_private_key(push_settings)
        .private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    assert (
        vapid.from_settings(pem, "").public_key == vapid.from_settings(push_settings, "").public_key
    )


def test_subscribing_again_replaces_the_keys_and_unsubscribing_forgets(
    alice: Player, bob: Player, push_service: PushService
) -> None:
    browser = Browser.new(push_service.endpoint())
    created = subscribe(alice, browser)
    assert created["endpoint"] == browser.endpoint
    assert created["user_agent"] == "TestBrowser/1"

    renewed = Browser.new(browser.endpoint)
    response = alice.post(SUBSCRIBE, renewed.subscription())
    assert response.status_code == 200
    assert response.json()["id"] == created["id"]
    assert PushSubscription.objects.get().p256dh == renewed.subscription()["keys"]["p256dh"]

    # Bob signs in on the same browser: the subscription is his now.
    assert bob.post(SUBSCRIBE, renewed.subscription()).status_code == 200
    assert PushSubscription.objects.get().user == bob.user

    assert alice.post(UNSUBSCRIBE, {"endpoint": browser.endpoint}).status_code == 204
    assert PushSubscription.objects.count() == 1  # not Alice's to forget
    assert bob.post(UNSUBSCRIBE, {"endpoint": browser.endpoint}).status_code == 204
    assert PushSubscription.objects.count() == 0
    assert bob.post(UNSUBSCRIBE, {"endpoint": browser.endpoint}).status_code == 204


def test_bad_subscriptions_are_refused(alice: Player, push_service: PushService) -> None:
    good = Browser.new(push_service.endpoint()).subscription()
    cases: list[tuple[dict[str, Any], str]] = [
        ({**good, "keys": {**good["keys"], "p256dh": b64url(b"\x04" + b"\x01" * 64)}}, "keys"),
        ({**good, "keys": {**good["keys"], "auth": b64url(b"short")}}, "keys"),
        ({**good, "endpoint": "not a url"}, "endpoint"),
        ({**good, "endpoint": "http://10.0.0.7/push/abc"}, "endpoint"),
        ({"endpoint": good["endpoint"]}, "keys"),
    ]
    for body, bad_field in cases:
        response = alice.post(SUBSCRIBE, body)
        assert response.status_code == 400, body
        error = response.json()["error"]
        assert error["code"] == "invalid_request"
        assert bad_field in error["details"]["fields"], error
    assert PushSubscription.objects.count() == 0


def test_loopback_and_plain_http_endpoints_need_the_setting(
    alice: Player, push_service: PushService
) -> None:
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False, DEBUG=False):
        response = alice.post(SUBSCRIBE, Browser.new(push_service.endpoint()).subscription())
        assert response.status_code == 400
        assert "endpoint" in response.json()["error"]["details"]["fields"]


@pytest.fixture
def another_push_service() -> Iterator[PushService]:
    """A second server, the target of a redirect (it stands for 169.254.169.254)."""
    with running_push_service() as service:
        yield service


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_from_the_push_service_is_not_followed(
    alice: Player,
    bob: Player,
    push_service: PushService,
    another_push_service: PushService,
    status: int,
) -> None:
    # 0.0.0.0 reaches this host but is refused even where loopback is allowed.
    target = f"http://0.0.0.0:{another_push_service.port}/latest/meta-data/"
    push_service.answers = [status]
    push_service.location = target
    _, waiting, _ = turn_passes(alice, bob, Browser.new(push_service.endpoint()))
    relay.relay()
    assert len(push_service.received) == 1
    assert another_push_service.received == []
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.FAILED and str(status) in delivery.last_error


def test_an_endpoint_rebound_to_loopback_after_the_check_is_not_pushed_to(
    alice: Player, bob: Player, push_service: PushService, dns: FakeDNS
) -> None:
    # Subscribing and the check before the push see a public address; any later lookup (the
    # one a connection that resolves the name again would make) sees 0.0.0.0, which reaches
    # this host and is refused even where loopback is allowed (plain http needs that here).
    dns.answers["push.rebind.test"] = [["93.184.215.14"], ["93.184.215.14"], ["0.0.0.0"]]
    browser = Browser.new(f"http://push.rebind.test:{push_service.port}/push/abc")
    _, waiting, _ = turn_passes(alice, bob, browser)
    relay.relay()
    assert push_service.received == []
    (delivery,) = webpush_deliveries(waiting)
    assert delivery.status == Delivery.FAILED and "0.0.0.0" in delivery.last_error
    assert not PushSubscription.objects.exists()


def test_the_push_goes_to_the_address_checked_and_names_the_host(
    alice: Player, bob: Player, push_service: PushService, dns: FakeDNS
) -> None:
    dns.answers["push.pinned.test"] = [["127.0.0.1"]]
    browser = Browser.new(f"http://push.pinned.test:{push_service.port}/push/abc")
    _, waiting, _ = turn_passes(alice, bob, browser)
    relay.relay()
    (received,) = push_service.received
    assert received.headers["host"] == f"push.pinned.test:{push_service.port}"
    assert browser.decrypt(received.body)["title"] == "Your turn"
    assert webpush_deliveries(waiting)[0].status == Delivery.SENT


def test_a_read_token_may_read_the_key_but_not_subscribe(push_service: PushService) -> None:
    reader = make_player("reader", scope=ApiToken.SCOPE_READ)
    assert reader.get(KEY).status_code == 200
    response = reader.post(SUBSCRIBE, Browser.new(push_service.endpoint()).subscription())
    assert response.status_code == 403
    assert reader.post(UNSUBSCRIBE, {"endpoint": push_service.endpoint()}).status_code == 403


def test_signing_in_is_required(client: Any) -> None:
    assert client.get(KEY).status_code == 401


def test_the_preferences_list_the_webpush_switches(alice: Player) -> None:
    channels = alice.get("/api/v1/notifications/preferences/").json()["channels"]
    assert channels["webpush"]["your_turn"] is True
    assert channels["webpush"]["round_over"] is False


def test_the_push_service_check_notices_a_forged_claim() -> None:
    """The check above has teeth: a claim changed after signing fails to verify."""
    keys = vapid.parse_private_key(
        b64url(ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32))
    )
    headers = keys.sign({"aud": "http://127.0.0.1:1", "sub": SUBJECT})
    token = headers["Authorization"].split("t=")[1].split(",")[0]
    header_b64, _, signature_b64 = token.split(".")
    forged = b64url(json.dumps({"aud": "http://evil", "sub": SUBJECT}).encode())
    raw = unb64url(signature_b64)
    signature = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    with pytest.raises(InvalidSignature):
        keys.public_key.verify(
            signature, f"{header_b64}.{forged}".encode(), ec.ECDSA(hashes.SHA256())
        )
