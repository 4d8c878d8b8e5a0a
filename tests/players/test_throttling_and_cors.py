"""The `auth` throttle on password-taking endpoints, and CORS for third-party web apps."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from players.models import User
from tests.errors import error_code
from tests.players.conftest import PASSWORD


@pytest.fixture
def two_per_minute(settings: Any) -> None:
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest,
        "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "auth": "2/min"},
    }
    cache.clear()


def bad_login(client: APIClient) -> Any:
    body = {"username": "alice", "password": "guess-guess-1", "name": "x", "scope": "play"}
    return client.post("/api/v1/auth/tokens/", body, format="json")


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
def test_the_third_login_in_a_minute_is_throttled_with_retry_after(
    client: APIClient, alice: User
) -> None:
    assert [bad_login(client).status_code for _ in range(2)] == [400, 400]
    response = bad_login(client)
    assert response.status_code == 429
    assert error_code(response) == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/auth/signup/", {"username": "x y", "password": PASSWORD}),
        ("/api/v1/auth/login/", {"username": "alice", "password": "guess-guess-1"}),
        ("/api/v1/auth/password/reset/", {"email": "someone@example.com"}),
        ("/api/v1/auth/password/reset/confirm/", {"uid": "x", "token": "y", "new_password": "z"}),
        ("/api/v1/auth/email/verify/confirm/", {"uid": "x", "token": "y"}),
    ],
)
def test_anonymous_auth_endpoints_are_throttled(
    client: APIClient, path: str, body: dict[str, str]
) -> None:
    for _ in range(2):
        assert client.post(path, body, format="json").status_code != 429
    response = client.post(path, body, format="json")
    assert response.status_code == 429
    assert "Retry-After" in response


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
def test_a_made_up_forwarded_for_header_does_not_escape_the_limit(
    client: APIClient, alice: User
) -> None:
    # No proxy in front (NUM_PROXIES=0): the connection's own address is the client.
    answers = [
        client.post(
            "/api/v1/auth/tokens/",
            {"username": "alice", "password": "guess-guess-1", "name": "x", "scope": "play"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(3)
    ]
    assert answers == [400, 400, 429]


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
def test_behind_one_proxy_the_address_it_saw_is_the_client(
    client: APIClient, alice: User, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # nginx appends the peer's address to what the client sent: the last entry is the client.
    for spoofed in ("198.51.100.1", "198.51.100.2"):
        response = client.post(
            "/api/v1/auth/tokens/",
            {"username": "alice", "password": "guess-guess-1", "name": "x", "scope": "play"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"{spoofed}, 203.0.113.7",
        )
        assert response.status_code == 400
    other = bad_login_from(client, "203.0.113.7")
    assert other.status_code == 429
    assert bad_login_from(client, "203.0.113.8").status_code == 400


def bad_login_from(client: APIClient, address: str) -> Any:
    body = {"username": "alice", "password": "guess-guess-1", "name": "x", "scope": "play"}
    return client.post(
        "/api/v1/auth/tokens/", body, format="json", HTTP_X_FORWARDED_FOR=f"x, {address}"
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
def test_password_taking_account_endpoints_are_throttled_per_user(
    alice: User, alice_api: APIClient
) -> None:
    change = {"old_password": "guess-guess-1", "new_password": "purple-monkey-dishwasher-3"}
    for _ in range(2):
        alice_api.post("/api/v1/auth/password/change/", change, format="json")
    assert alice_api.delete("/api/v1/me/", {"password": "guess"}, format="json").status_code == 429


@pytest.mark.django_db
@pytest.mark.usefixtures("two_per_minute")
def test_reading_my_tokens_and_profile_is_not_throttled(alice_api: APIClient) -> None:
    for _ in range(5):
        assert alice_api.get("/api/v1/auth/tokens/").status_code == 200
        assert alice_api.get("/api/v1/me/").status_code == 200


# --- CORS -----------------------------------------------------------------------------------


def preflight(client: APIClient, origin: str) -> Any:
    return client.options(
        "/api/v1/auth/tokens/",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )


@pytest.mark.django_db
def test_a_preflight_from_an_allowed_origin_is_answered(client: APIClient, settings: Any) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://uno-stats.example"]
    response = preflight(client, "https://uno-stats.example")
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "https://uno-stats.example"
    assert "authorization" in response["Access-Control-Allow-Headers"]


@pytest.mark.django_db
def test_a_preflight_from_another_origin_gets_no_cors_header(
    client: APIClient, settings: Any
) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://uno-stats.example"]
    response = preflight(client, "https://evil.example")
    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.django_db
def test_an_actual_request_from_an_allowed_origin_gets_the_header(
    client: APIClient, settings: Any, alice: User
) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://uno-stats.example"]
    body = {"username": "alice", "password": PASSWORD, "name": "stats", "scope": "read"}
    response = client.post(
        "/api/v1/auth/tokens/", body, format="json", HTTP_ORIGIN="https://uno-stats.example"
    )
    assert response.status_code == 201
    assert response["Access-Control-Allow-Origin"] == "https://uno-stats.example"
