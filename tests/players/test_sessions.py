"""Browser sessions: log in, CSRF on every later unsafe request, log out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from players.models import ApiToken, User
from tests.errors import assert_error
from tests.players.conftest import PASSWORD

LOGIN = "/api/v1/auth/login/"
LOGOUT = "/api/v1/auth/logout/"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


def browser() -> APIClient:
    """A client that, like a browser, gets no CSRF exemption."""
    return APIClient(enforce_csrf_checks=True)


def csrf_token_for(api: APIClient) -> str:
    response = api.get(LOGIN)
    assert response.status_code == 200
    assert api.cookies["csrftoken"].value
    return str(response.json()["csrf_token"])


def log_in(
    api: APIClient, username: str = "alice", password: str = PASSWORD, *, origin: str | None = None
) -> Any:
    """As a browser page of this site logs in: with the CSRF token from ``GET auth/login/`` (and
    the ``Origin`` header a browser adds, when ``origin`` is given)."""
    headers = {"HTTP_ORIGIN": origin} if origin is not None else {}
    return api.post(
        LOGIN,
        {"username": username, "password": password},
        format="json",
        HTTP_X_CSRFTOKEN=csrf_token_for(api),
        **headers,
    )


def browser_log_in(*, origin: str) -> tuple[APIClient, Any]:
    """A fresh browser that logs alice in from a page on ``origin``: it and the response."""
    api = browser()
    return api, log_in(api, origin=origin)


def forged_log_in(api: APIClient) -> Any:
    """What a form auto-submitted from another site sends: the credentials, no token."""
    return api.post(LOGIN, {"username": "alice", "password": PASSWORD}, format="json")


def csrf_header(api: APIClient) -> dict[str, str]:
    return {"HTTP_X_CSRFTOKEN": api.cookies["csrftoken"].value}


@pytest.mark.django_db
def test_login_starts_a_session_and_sets_the_csrf_cookie(alice: User) -> None:
    api = browser()
    response = log_in(api)
    assert response.status_code == 200
    assert response.json()["user"]["username"] == "alice"
    assert "sessionid" in api.cookies
    assert "csrftoken" in api.cookies
    assert api.get("/api/v1/me/").json()["username"] == "alice"


@pytest.mark.django_db
def test_login_accepts_any_case_of_the_username(alice: User) -> None:
    assert log_in(browser(), username="ALICE").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password"), [("alice", "wrong-password-1"), ("nobody", PASSWORD)]
)
def test_login_with_wrong_credentials_is_refused(alice: User, username: str, password: str) -> None:
    api = browser()
    response = log_in(api, username, password)
    assert_error(response, 400, "invalid_credentials")
    assert "sessionid" not in api.cookies


@pytest.mark.django_db
def test_an_inactive_user_cannot_log_in(alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(is_active=False)
    response = log_in(browser())
    assert_error(response, 400, "invalid_credentials")


@pytest.mark.django_db
def test_a_session_of_a_deactivated_user_stops_working(alice: User) -> None:
    api = browser()
    log_in(api)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_unsafe_session_requests_need_the_csrf_token(alice: User) -> None:
    api = browser()
    log_in(api)
    refused = api.patch("/api/v1/me/", {"display_name": "Al"}, format="json")
    assert_error(refused, 403, "permission_denied")
    assert "CSRF" in refused.json()["error"]["message"]
    accepted = api.patch("/api/v1/me/", {"display_name": "Al"}, format="json", **csrf_header(api))
    assert accepted.status_code == 200


@pytest.mark.django_db
def test_logout_ends_the_session(alice: User) -> None:
    api = browser()
    log_in(api)
    assert api.post(LOGOUT, **csrf_header(api)).status_code == 204
    assert api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_logout_of_a_session_needs_the_csrf_token(alice: User) -> None:
    api = browser()
    log_in(api)
    assert api.post(LOGOUT).status_code == 403
    assert api.get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_logout_with_a_bearer_token_revokes_that_token_only(
    alice: User, token_for: TokenFor
) -> None:
    token, api = token_for(alice, scope=ApiToken.SCOPE_READ)  # even a read token may log out
    other, other_api = token_for(alice, name="other")
    assert api.post(LOGOUT).status_code == 204
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert api.get("/api/v1/me/").status_code == 401
    assert other_api.get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_logout_without_credentials_is_401(client: APIClient) -> None:
    response = client.post(LOGOUT)
    assert_error(response, 401, "not_authenticated")


# ---------------------------------------------------------------------------------------------
# Log-in CSRF: a page on another site must not sign a browser in to the attacker's account.


@pytest.mark.django_db
def test_a_log_in_without_the_csrf_token_is_refused(alice: User) -> None:
    # What an auto-submitted form from another origin sends: credentials, no token.
    api = browser()
    csrf_token_for(api)  # the victim's browser holds the cookie; the form cannot read it
    refused = forged_log_in(api)
    assert_error(refused, 403, "permission_denied")
    assert "sessionid" not in api.cookies


@pytest.mark.django_db
def test_a_log_in_from_another_origin_is_refused_even_with_a_token(alice: User) -> None:
    api, refused = browser_log_in(origin="https://evil.example")
    assert refused.status_code == 403
    assert "sessionid" not in api.cookies


@pytest.mark.django_db
def test_a_same_origin_log_in_with_the_token_starts_a_session(alice: User) -> None:
    api, response = browser_log_in(origin="http://testserver")
    assert response.status_code == 200
    assert api.get("/api/v1/me/").json()["username"] == "alice"
