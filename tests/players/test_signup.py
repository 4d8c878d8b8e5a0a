"""POST /api/v1/auth/signup/"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from players.models import ApiToken, User
from tests.errors import error_code
from tests.players.conftest import PASSWORD, bearer

URL = "/api/v1/auth/signup/"


def signup(client: APIClient, **fields: Any) -> Any:
    return client.post(URL, {"username": "alice", "password": PASSWORD, **fields}, format="json")


@pytest.mark.django_db
def test_signup_creates_the_account_and_a_first_play_token(client: APIClient) -> None:
    response = signup(client, display_name="Alice", language="da", time_zone="Europe/Copenhagen")
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "alice"
    assert body["user"]["display_name"] == "Alice"
    assert body["user"]["language"] == "da"
    assert body["user"]["time_zone"] == "Europe/Copenhagen"
    assert body["user"]["email_verified"] is False
    assert body["token"]["name"] == "signup"
    assert body["token"]["scope"] == "play"
    assert body["token"]["token"].startswith(body["token"]["prefix"])
    assert User.objects.get(username="alice").check_password(PASSWORD)


@pytest.mark.django_db
def test_the_signup_token_works_at_once(client: APIClient) -> None:
    raw = signup(client, token_name="Alice's Pixel").json()["token"]["token"]
    me = bearer(raw).get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"
    assert ApiToken.objects.get().name == "Alice's Pixel"


@pytest.mark.django_db
def test_signup_stores_only_the_hash_of_the_token(client: APIClient) -> None:
    raw = signup(client).json()["token"]["token"]
    secret = raw[len(ApiToken.objects.get().prefix) :]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM players_apitoken")
        rows = cursor.fetchall()
    assert rows
    for row in rows:
        for value in row:
            assert raw not in str(value)
            assert secret not in str(value)


@pytest.mark.django_db
def test_signup_with_an_email_sends_a_verification_mail(
    client: APIClient, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = signup(client, email="alice@example.com")
    assert response.status_code == 201
    assert [mail.to for mail in mailoutbox] == [["alice@example.com"]]
    assert "verify-email?uid=" in mailoutbox[0].body


@pytest.mark.django_db
def test_signup_without_an_email_sends_nothing(
    client: APIClient, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert signup(client).status_code == 201
    assert mailoutbox == []


@pytest.mark.django_db
@pytest.mark.parametrize("taken", ["alice", "Alice", "ALICE"])
def test_a_taken_username_is_refused_in_any_case(client: APIClient, taken: str) -> None:
    assert signup(client).status_code == 201
    response = signup(client, username=taken)
    assert response.status_code == 409
    assert error_code(response) == "username_taken"
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "fragment"),
    [
        ("short1x", "too short"),
        ("password123", "too common"),
        ("48151623424815", "entirely numeric"),
        ("alice2024", "too similar"),
    ],
)
def test_a_weak_password_is_refused_with_the_validator_messages(
    client: APIClient, password: str, fragment: str
) -> None:
    response = signup(client, password=password)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "weak_password"
    assert any(fragment in message for message in error["details"]["messages"])
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"username": "al ice"}, "username"),
        ({"username": ""}, "username"),
        ({"email": "not-an-address"}, "email"),
        ({"display_name": "x" * 41}, "display_name"),
        ({"language": "fr"}, "language"),
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone"),
    ],
)
def test_malformed_fields_are_invalid_requests(
    client: APIClient, fields: dict[str, str], field: str
) -> None:
    response = signup(client, **fields)
    assert response.status_code == 400
    assert error_code(response) == "invalid_request"
    assert field in response.json()["error"]["details"]["fields"]


@pytest.mark.django_db
def test_a_missing_password_is_an_invalid_request(client: APIClient) -> None:
    response = client.post(URL, {"username": "alice"}, format="json")
    assert response.status_code == 400
    assert "password" in response.json()["error"]["details"]["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Alice (bot)", "Alice(bot)", "ALICE (Bot)", "Alice （ｂｏｔ）"])
def test_signup_refuses_a_display_name_ending_in_the_bot_mark(client: APIClient, name: str) -> None:
    response = signup(client, display_name=name)
    assert response.status_code == 400, response.content
    assert error_code(response) == "name_marks_a_bot"
    assert response.json()["error"]["details"] == {"field": "display_name"}
    assert not User.objects.filter(username="alice").exists()


@pytest.mark.django_db
def test_signup_takes_a_display_name_with_the_bot_mark_inside_it(client: APIClient) -> None:
    response = signup(client, display_name="Robot (bot) fan")
    assert response.status_code == 201, response.content
    assert response.json()["user"]["display_name"] == "Robot (bot) fan"
