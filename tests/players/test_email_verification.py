"""Verifying the e-mail address on the profile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from players.links import email_verification_tokens, encode_uid, password_reset_tokens
from players.models import ApiToken, User
from tests.errors import error_code
from tests.players.conftest import PASSWORD, link_parts

VERIFY = "/api/v1/auth/email/verify/"
CONFIRM = "/api/v1/auth/email/verify/confirm/"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


@pytest.mark.django_db
def test_email_verification_end_to_end(
    client: APIClient,
    alice: User,
    alice_api: APIClient,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_api.post(VERIFY)
    assert response.status_code == 202
    assert [mail.to for mail in mailoutbox] == [["alice@example.com"]]

    # Opened on another device, signed out: the link itself is the proof.
    confirmed = client.post(CONFIRM, link_parts(mailoutbox[0].body, "verify-email"), format="json")
    assert confirmed.status_code == 200
    assert confirmed.json() == {"email": "alice@example.com", "email_verified": True}
    assert alice_api.get("/api/v1/me/").json()["email_verified"] is True


@pytest.mark.django_db
def test_asking_again_once_verified_is_a_conflict(alice: User, alice_api: APIClient) -> None:
    User.objects.filter(pk=alice.pk).update(email_verified=True)
    response = alice_api.post(VERIFY)
    assert response.status_code == 409
    assert error_code(response) == "email_already_verified"


@pytest.mark.django_db
def test_asking_without_an_address_is_a_conflict(make_user: Any, token_for: TokenFor) -> None:
    _, api = token_for(make_user("dave", email=""))
    response = api.post(VERIFY)
    assert response.status_code == 409
    assert error_code(response) == "no_email"


@pytest.mark.django_db
def test_asking_needs_authentication(client: APIClient) -> None:
    assert client.post(VERIFY).status_code == 401


@pytest.mark.django_db
def test_a_link_for_an_old_address_does_not_verify_the_new_one(
    alice: User, alice_api: APIClient
) -> None:
    parts = {"uid": encode_uid(alice), "token": email_verification_tokens.make_token(alice)}
    changed = alice_api.patch(
        "/api/v1/me/", {"email": "alice@new.example", "password": PASSWORD}, format="json"
    )
    assert changed.status_code == 200
    response = APIClient().post(CONFIRM, parts, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_token"
    alice.refresh_from_db()
    assert not alice.email_verified


@pytest.mark.django_db
def test_a_password_reset_token_is_not_a_verification_token(client: APIClient, alice: User) -> None:
    parts = {"uid": encode_uid(alice), "token": password_reset_tokens.make_token(alice)}
    response = client.post(CONFIRM, parts, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_token"


@pytest.mark.django_db
def test_a_garbled_link_is_refused(client: APIClient, alice: User) -> None:
    response = client.post(CONFIRM, {"uid": "zzz", "token": "1-2"}, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_token"
    response = client.post(CONFIRM, {"uid": encode_uid(alice)}, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_request"
