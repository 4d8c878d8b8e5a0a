"""OAuth 2 for third-party apps (players/oauth.py, docs/oauth.md): the authorization-code flow
with PKCE, scopes, registration, the grants a player lists and revokes, the per-app rate."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from django.urls import URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.views import APIView

from players.models import User
from players.oauth import AppRateThrottle
from tests.errors import error_code
from tests.players.oauth import (
    REDIRECT_URI,
    authorize_query,
    code_from,
    consent,
    exchange,
    grant,
    pkce,
    register,
)

pytestmark = pytest.mark.django_db


def test_the_code_flow_with_pkce_gives_the_app_a_token_that_acts_for_the_player(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob, name="Card Buddy")
    verifier, challenge = pkce()
    query = authorize_query(app, scope="read play", challenge=challenge)
    # The consent screen's question: who asks, for what.
    asked = alice_api.get(f"/api/v1/oauth/authorize/?{query}")
    assert asked.status_code == 200, asked.content
    assert asked.json()["application"] == "Card Buddy"
    assert asked.json()["owner"] == "Bob"
    assert [s["name"] for s in asked.json()["scopes"]] == ["read", "play"]
    answer = consent(alice_api, query)
    params = code_from(answer.json()["redirect_to"])
    assert params["state"] == ["xyz"]
    assert params["iss"] == ["http://testserver"]  # RFC 9207: who answered
    tokens = exchange(app, params["code"][0], verifier)
    assert tokens.status_code == 200, tokens.content
    body = tokens.json()
    assert body["access_token"].startswith("uao_") and body["scope"] == "read play"
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {body['access_token']}")
    me = api.get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == "alice"
    created = api.post("/api/v1/games/", {"max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    # The code was for one use.
    assert exchange(app, params["code"][0], verifier).json()["error"] == "invalid_grant"


def test_a_read_grant_may_read_but_not_play(alice: User, bob: User, alice_api: APIClient) -> None:
    got = grant(alice_api, register(bob), scope="read")
    assert got.scope == "read"
    assert got.api.get("/api/v1/games/").status_code == 200
    refused = got.api.post("/api/v1/games/", {"max_players": 2}, format="json")
    assert refused.status_code == 403 and error_code(refused) == "permission_denied"


def test_without_a_scope_the_app_gets_read_only(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    assert grant(alice_api, register(bob), scope="").scope == "read"


def test_a_request_without_pkce_is_refused_and_sent_back_to_the_app(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    query = authorize_query(register(bob), scope="read", challenge=None)
    refused = alice_api.get(f"/api/v1/oauth/authorize/?{query}")
    assert refused.status_code == 400 and error_code(refused) == "oauth_invalid_request"
    details = refused.json()["error"]["details"]
    assert details["error"] == "invalid_request"
    assert details["redirect_to"].startswith(REDIRECT_URI + "?error=invalid_request")
    assert consent(alice_api, query).status_code == 400


def test_a_plain_pkce_challenge_is_refused(alice: User, bob: User, alice_api: APIClient) -> None:
    query = authorize_query(register(bob), scope="read", challenge="a" * 43).replace(
        "S256", "plain"
    )
    refused = alice_api.get(f"/api/v1/oauth/authorize/?{query}")
    assert refused.status_code == 400 and error_code(refused) == "oauth_invalid_request"
    assert refused.json()["error"]["details"]["redirect_to"].startswith(REDIRECT_URI)
    refused = consent(alice_api, query)
    assert refused.status_code == 400 and error_code(refused) == "oauth_invalid_request"


def test_the_code_is_worth_nothing_without_its_verifier(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob)
    _, challenge = pkce()
    answer = consent(alice_api, authorize_query(app, scope="read", challenge=challenge))
    code = code_from(answer.json()["redirect_to"])["code"][0]
    other_verifier, _ = pkce()
    refused = exchange(app, code, other_verifier)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"


def test_an_unregistered_redirect_uri_is_never_redirected_to(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    _, challenge = pkce()
    query = authorize_query(register(bob), scope="read", challenge=challenge)
    query = query.replace("app.example", "evil.example")
    refused = alice_api.get(f"/api/v1/oauth/authorize/?{query}")
    assert refused.status_code == 400 and error_code(refused) == "oauth_invalid_request"
    assert "redirect_to" not in refused.json()["error"]["details"]


def test_denying_sends_the_browser_back_with_access_denied_and_no_code(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    _, challenge = pkce()
    answer = consent(
        alice_api, authorize_query(register(bob), scope="read", challenge=challenge), allow=False
    )
    assert answer.status_code == 200
    params = code_from(answer.json()["redirect_to"])
    assert params["error"] == ["access_denied"] and "code" not in params


def test_consent_needs_the_player_signed_in(bob: User, client: APIClient) -> None:
    _, challenge = pkce()
    query = authorize_query(register(bob), scope="read", challenge=challenge)
    assert client.get(f"/api/v1/oauth/authorize/?{query}").status_code == 401


def test_a_confidential_app_must_send_its_secret(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob, confidential=True)
    assert app.secret
    verifier, challenge = pkce()
    answer = consent(alice_api, authorize_query(app, scope="read", challenge=challenge))
    code = code_from(answer.json()["redirect_to"])["code"][0]
    app_without_secret = type(app)(app.id, app.client_id, "")
    assert exchange(app_without_secret, code, verifier).status_code == 401
    assert exchange(app, code, verifier).status_code == 200


def test_a_refresh_token_renews_the_access_token(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob)
    got = grant(alice_api, app)
    renewed = Client().post(
        "/oauth/token/",
        {"grant_type": "refresh_token", "refresh_token": got.refresh, "client_id": app.client_id},
    )
    assert renewed.status_code == 200, renewed.content
    new = APIClient()
    new.credentials(HTTP_AUTHORIZATION=f"Bearer {renewed.json()['access_token']}")
    assert new.get("/api/v1/me/").status_code == 200
    assert got.api.get("/api/v1/me/").status_code == 401  # the old one went with its refresh


def test_an_app_revokes_its_own_tokens_at_the_revocation_url(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob)
    got = grant(alice_api, app)
    done = Client().post("/oauth/revoke_token/", {"token": got.refresh, "client_id": app.client_id})
    assert done.status_code == 200
    assert got.api.get("/api/v1/me/").status_code == 401
    assert alice_api.get("/api/v1/me/oauth/authorizations/").json() == []


def test_an_apps_token_cannot_manage_the_account(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    got = grant(alice_api, register(bob))
    assert got.api.get("/api/v1/me/").status_code == 200
    query = authorize_query(register(bob, name="Other"), scope="play", challenge=pkce()[1])
    for method, path, body in [
        ("get", "/api/v1/auth/tokens/", None),
        ("patch", "/api/v1/me/", {"display_name": "Pwned"}),
        ("get", "/api/v1/me/oauth/authorizations/", None),
        ("post", "/api/v1/me/oauth/apps/", {"name": "x", "redirect_uris": [REDIRECT_URI]}),
        ("get", f"/api/v1/oauth/authorize/?{query}", None),
    ]:
        refused = getattr(got.api, method)(path, body, format="json")
        assert refused.status_code == 403, (path, refused.content)
        assert error_code(refused) == "permission_denied"
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_an_invalid_app_token_is_401_with_a_bearer_challenge(client: APIClient) -> None:
    client.credentials(HTTP_AUTHORIZATION="Bearer uao_made-up")
    refused = client.get("/api/v1/me/")
    assert refused.status_code == 401 and error_code(refused) == "authentication_failed"
    assert refused["WWW-Authenticate"].startswith("Bearer")


def test_registering_an_app_shows_its_secret_once(alice_api: APIClient) -> None:
    body = {"name": "Card Buddy", "redirect_uris": [REDIRECT_URI], "confidential": True}
    made = alice_api.post("/api/v1/me/oauth/apps/", body, format="json")
    assert made.status_code == 201, made.content
    app = made.json()
    assert app["confidential"] and len(app["client_secret"]) > 40
    assert app["redirect_uris"] == [REDIRECT_URI]
    listed = alice_api.get("/api/v1/me/oauth/apps/").json()
    assert [a["client_id"] for a in listed] == [app["client_id"]]
    assert "client_secret" not in listed[0]
    public = alice_api.post(
        "/api/v1/me/oauth/apps/", {**body, "confidential": False}, format="json"
    ).json()
    assert public["client_secret"] == "" and not public["confidential"]
    assert alice_api.delete(f"/api/v1/me/oauth/apps/{app['id']}/").status_code == 204
    assert alice_api.delete(f"/api/v1/me/oauth/apps/{app['id']}/").status_code == 404


@pytest.mark.parametrize(
    "redirect_uri",
    [
        "javascript:alert(1)",
        "https://app.example/cb#frag",
        "not a url",
        "http://app.example/cb",  # codes never travel in plain text
    ],
)
def test_registering_refuses_a_bad_redirect_uri(alice_api: APIClient, redirect_uri: str) -> None:
    body = {"name": "Card Buddy", "redirect_uris": [redirect_uri]}
    refused = alice_api.post("/api/v1/me/oauth/apps/", body, format="json")
    assert refused.status_code == 400 and error_code(refused) == "invalid_request"


def test_registering_needs_a_signed_in_player(client: APIClient) -> None:
    body = {"name": "Card Buddy", "redirect_uris": [REDIRECT_URI]}
    assert client.post("/api/v1/me/oauth/apps/", body, format="json").status_code == 401


def test_revoking_an_app_refuses_its_next_request_and_its_refresh(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    app = register(bob, name="Card Buddy")
    got = grant(alice_api, app, scope="read")
    listed = alice_api.get("/api/v1/me/oauth/authorizations/").json()
    assert [(a["id"], a["name"], a["scopes"]) for a in listed] == [(app.id, "Card Buddy", ["read"])]
    assert got.api.get("/api/v1/me/").status_code == 200
    assert alice_api.delete(f"/api/v1/me/oauth/authorizations/{app.id}/").status_code == 204
    refused = got.api.get("/api/v1/me/")
    assert refused.status_code == 401 and error_code(refused) == "authentication_failed"
    renewed = Client().post(
        "/oauth/token/",
        {"grant_type": "refresh_token", "refresh_token": got.refresh, "client_id": app.client_id},
    )
    assert renewed.status_code == 400 and renewed.json()["error"] == "invalid_grant"
    assert alice_api.get("/api/v1/me/oauth/authorizations/").json() == []
    assert alice_api.delete(f"/api/v1/me/oauth/authorizations/{app.id}/").status_code == 404


def test_revoking_touches_only_that_players_grant(
    alice: User, bob: User, carol: User, alice_api: APIClient, token_for: Any
) -> None:
    app = register(carol)
    alices = grant(alice_api, app)
    bobs = grant(token_for(bob)[1], app)
    assert alice_api.delete(f"/api/v1/me/oauth/authorizations/{app.id}/").status_code == 204
    assert alices.api.get("/api/v1/me/").status_code == 401
    assert bobs.api.get("/api/v1/me/").status_code == 200


@pytest.fixture
def app_rate(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "apps": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    # This test's own counters (never the shared Redis of the PostgreSQL pass).
    monkeypatch.setattr(AppRateThrottle, "cache", LocMemCache(f"apps-{uuid.uuid4()}", {}))


@pytest.mark.usefixtures("app_rate")
def test_an_app_is_limited_over_all_its_players_and_other_apps_are_not(
    alice: User, bob: User, carol: User, alice_api: APIClient, token_for: Any
) -> None:
    busy, quiet = register(carol, name="Busy"), register(carol, name="Quiet")
    alices = grant(alice_api, busy)
    bobs = grant(token_for(bob)[1], busy)
    other = grant(alice_api, quiet)
    assert [alices.api.get("/api/v1/me/").status_code for _ in range(2)] == [200, 200]
    assert bobs.api.get("/api/v1/me/").status_code == 200
    throttled = bobs.api.get("/api/v1/me/")
    assert throttled.status_code == 429 and error_code(throttled) == "throttled"
    assert int(throttled["Retry-After"]) > 0
    assert alices.api.get("/api/v1/me/").status_code == 429
    assert other.api.get("/api/v1/me/").status_code == 200
    # The player's own credentials are not the app's: not counted, not limited.
    assert [alice_api.get("/api/v1/me/").status_code for _ in range(5)] == [200] * 5


@pytest.mark.usefixtures("app_rate")
def test_an_apps_429_is_declared_where_no_view_throttles_on_its_own(
    alice: User, carol: User, alice_api: APIClient
) -> None:
    """The notifications' unread count has no rate of its own: an app's is its only 429, and
    the schema declares it, with Retry-After (players/throttle_schema.py)."""
    path = "/api/v1/notifications/unread-count/"
    app = grant(alice_api, register(carol))
    answers = [app.api.get(path) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert int(answers[-1]["Retry-After"]) > 0
    schema = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    declared = schema["paths"][path]["get"]["responses"]["429"]
    assert declared["x-error-codes"] == ["throttled"]
    assert "Retry-After" in declared["headers"]


def _api_views(patterns: list[Any]) -> list[type]:
    views: list[type] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            views += _api_views(pattern.url_patterns)
        else:
            view = getattr(pattern.callback, "cls", None)
            if isinstance(view, type) and issubclass(view, APIView):
                views.append(view)
    return views


def test_every_api_view_counts_an_apps_requests() -> None:
    """Views that name their own throttles must name the app's too, or an app could hammer them
    unmetered."""
    views = _api_views(get_resolver().url_patterns)
    assert len(views) > 30
    unmetered = [v.__name__ for v in views if AppRateThrottle not in v.throttle_classes]
    assert unmetered == []
