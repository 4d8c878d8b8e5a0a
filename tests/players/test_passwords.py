"""Changing a password, and resetting a forgotten one by e-mail."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from players.links import encode_uid
from players.models import ApiToken, User
from tests.errors import error_code
from tests.players.conftest import PASSWORD, link_parts

CHANGE = "/api/v1/auth/password/change/"
RESET = "/api/v1/auth/password/reset/"
CONFIRM = "/api/v1/auth/password/reset/confirm/"
NEW_PASSWORD = "purple-monkey-dishwasher-3"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


ResetRequest = Callable[[str], Any]


@pytest.fixture
def request_reset(client: APIClient, django_capture_on_commit_callbacks: Any) -> ResetRequest:
    """Asks for a reset mail to ``email``, running what the request queues for after commit."""

    def request(email: str) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(RESET, {"email": email}, format="json")

    return request


# --- change ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_changing_the_password_revokes_every_other_token(alice: User, token_for: TokenFor) -> None:
    current, api = token_for(alice, name="phone")
    _, other_api = token_for(alice, name="tablet")
    response = api.post(
        CHANGE, {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 204
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert api.get("/api/v1/me/").status_code == 200
    assert other_api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_changing_the_password_keeps_this_session_but_ends_the_others(alice: User) -> None:
    this, other = APIClient(), APIClient()
    for api in (this, other):
        api.post("/api/v1/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    response = this.post(
        CHANGE, {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 204
    assert this.get("/api/v1/me/").status_code == 200
    assert other.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_wrong_old_password_is_refused(alice: User, alice_api: APIClient) -> None:
    response = alice_api.post(
        CHANGE, {"old_password": "not-my-password", "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert error_code(response) == "invalid_credentials"
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_a_weak_new_password_is_refused(alice: User, alice_api: APIClient) -> None:
    response = alice_api.post(
        CHANGE, {"old_password": PASSWORD, "new_password": "12345678"}, format="json"
    )
    assert response.status_code == 400
    assert error_code(response) == "weak_password"
    assert response.json()["error"]["details"]["messages"]


@pytest.mark.django_db
def test_changing_the_password_needs_authentication_and_a_play_token(
    client: APIClient, alice: User, token_for: TokenFor
) -> None:
    body = {"old_password": PASSWORD, "new_password": NEW_PASSWORD}
    assert client.post(CHANGE, body, format="json").status_code == 401
    _, read_api = token_for(alice, scope=ApiToken.SCOPE_READ)
    assert read_api.post(CHANGE, body, format="json").status_code == 403


# --- reset ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_password_reset_end_to_end(
    client: APIClient,
    alice: User,
    token_for: TokenFor,
    mailoutbox: list[Any],
    request_reset: ResetRequest,
) -> None:
    _, old_api = token_for(alice)
    response = request_reset("Alice@Example.com")
    assert response.status_code == 202
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["alice@example.com"]
    parts = link_parts(mailoutbox[0].body, "reset-password")

    confirmed = client.post(CONFIRM, {**parts, "new_password": NEW_PASSWORD}, format="json")
    assert confirmed.status_code == 204
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice.email_verified  # the link reached the mailbox
    assert old_api.get("/api/v1/me/").status_code == 401  # every token revoked
    login = client.post(
        "/api/v1/auth/tokens/",
        {"username": "alice", "password": NEW_PASSWORD, "name": "phone", "scope": "play"},
        format="json",
    )
    assert login.status_code == 201

    again = client.post(CONFIRM, {**parts, "new_password": "another-fine-pass-9"}, format="json")
    assert again.status_code == 400
    assert error_code(again) == "invalid_token"


@pytest.mark.django_db
def test_reset_of_an_unknown_address_looks_the_same_and_sends_nothing(
    alice: User,
    mailoutbox: list[Any],
    request_reset: ResetRequest,
) -> None:
    known = request_reset("alice@example.com")
    unknown = request_reset("nobody@example.com")
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_reset_mails_no_inactive_account(
    alice: User,
    mailoutbox: list[Any],
    request_reset: ResetRequest,
) -> None:
    User.objects.filter(pk=alice.pk).update(is_active=False)
    response = request_reset("alice@example.com")
    assert response.status_code == 202
    assert mailoutbox == []


@pytest.mark.django_db
def test_reset_needs_a_well_formed_address(client: APIClient) -> None:
    response = client.post(RESET, {"email": "not an address"}, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_request"


@pytest.mark.django_db
@pytest.mark.parametrize("uid", ["", "%%%", "MTIzNDU2Nzg5", "bm90LWEtbnVtYmVy"])
def test_a_garbled_or_unknown_uid_is_an_invalid_token(
    client: APIClient, alice: User, uid: str
) -> None:
    token = default_token_generator.make_token(alice)
    response = client.post(
        CONFIRM, {"uid": uid, "token": token, "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert error_code(response) in {"invalid_token", "invalid_request"}  # "" is a missing field
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_a_wrong_token_is_refused(client: APIClient, alice: User) -> None:
    response = client.post(
        CONFIRM,
        {"uid": encode_uid(alice), "token": "abc-123", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 400
    assert error_code(response) == "invalid_token"


@pytest.fixture
def alices_link(alice: User, mailoutbox: list[Any], request_reset: ResetRequest) -> dict[str, str]:
    """The uid and token of the reset link mailed to alice, who asked for it."""
    request_reset("alice@example.com")
    return link_parts(mailoutbox[0].body, "reset-password")


@pytest.mark.django_db
def test_an_expired_link_is_refused(
    client: APIClient, alices_link: dict[str, str], settings: Any
) -> None:
    parts = alices_link
    later = default_token_generator._now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 1)
    with mock.patch.object(default_token_generator, "_now", return_value=later):
        response = client.post(CONFIRM, {**parts, "new_password": NEW_PASSWORD}, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_token"


@pytest.mark.django_db
def test_a_weak_password_keeps_the_link_usable(
    client: APIClient, alices_link: dict[str, str]
) -> None:
    parts = alices_link
    weak = client.post(CONFIRM, {**parts, "new_password": "password"}, format="json")
    assert weak.status_code == 400
    assert error_code(weak) == "weak_password"
    strong = client.post(CONFIRM, {**parts, "new_password": NEW_PASSWORD}, format="json")
    assert strong.status_code == 204


@pytest.mark.django_db
def test_a_mail_server_failure_does_not_reveal_the_account(
    alice: User, request_reset: ResetRequest
) -> None:
    with mock.patch("players.tasks.send_mail", side_effect=OSError("connection refused")):
        known = request_reset("alice@example.com")
    unknown = request_reset("nobody@example.com")
    assert known.status_code == unknown.status_code == 202


@pytest.mark.django_db
def test_the_reset_mail_says_how_long_the_link_works(
    alice: User, settings: Any, mailoutbox: list[Any], request_reset: ResetRequest
) -> None:
    settings.PASSWORD_RESET_TIMEOUT = 1800
    request_reset("alice@example.com")
    assert "30 minutes" in mailoutbox[0].body
    assert mailoutbox[0].body.count("https://") + mailoutbox[0].body.count("http://") == 1


# --- reset: what the request does, and how often it mails ------------------------------------


@pytest.mark.django_db
def test_a_known_and_an_unknown_address_cost_the_request_the_same_work(
    client: APIClient, alice: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    def request(email: str) -> tuple[int, int, list[str]]:
        with (
            django_capture_on_commit_callbacks() as queued,
            CaptureQueriesContext(connection) as queries,
        ):
            response = client.post(RESET, {"email": email}, format="json")
        assert response.status_code == 202
        return len(queued), len(queries), [q["sql"].split()[0] for q in queries]

    assert request("alice@example.com") == request("nobody@example.com")
    assert mailoutbox == []  # nothing is looked up or sent before the response


@pytest.mark.django_db
def test_reset_mails_to_one_address_are_capped_per_hour(
    alice: User, settings: Any, mailoutbox: list[Any], request_reset: ResetRequest
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "auth": "1000/min",
        },
    }
    answers = [request_reset("alice@example.com").json() for _ in range(20)]
    assert len(mailoutbox) == settings.PASSWORD_RESET_MAILS_PER_HOUR == 3
    assert all(answer == answers[0] for answer in answers)  # past the cap, the same 202


@pytest.mark.django_db(transaction=True)
def test_with_tasks_run_inline_the_response_does_not_wait_on_the_mail_server(
    client: APIClient, alice: User, settings: Any
) -> None:
    settings.ACCOUNT_MAILS_IN_BACKGROUND = True
    release, sent = threading.Event(), threading.Event()

    def slow_send_mail(*args: Any, **kwargs: Any) -> int:
        # An SMTP server that answers only when the test lets it.
        assert release.wait(10)
        sent.set()
        return 1

    with mock.patch("players.tasks.send_mail", side_effect=slow_send_mail):
        response = client.post(RESET, {"email": "alice@example.com"}, format="json")
        assert response.status_code == 202
        assert not sent.is_set()  # answered while the mail server still holds the mail
        release.set()
        assert sent.wait(10)
        for thread in threading.enumerate():
            if thread.name.startswith("account-mail-"):
                thread.join(10)
