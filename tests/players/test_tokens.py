"""Named, scoped bearer tokens: create (log in for apps), list, revoke, and what they allow."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from players.models import ApiToken, User
from tests.errors import assert_error
from tests.players.conftest import PASSWORD, bearer

URL = "/api/v1/auth/tokens/"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


def create(client: APIClient, **fields: Any) -> Any:
    body = {"username": "alice", "password": PASSWORD, "name": "Pixel 8", "scope": "play"}
    return client.post(URL, {**body, **fields}, format="json")


@pytest.mark.django_db
def test_creating_a_token_returns_its_secret_once(client: APIClient, alice: User) -> None:
    response = create(client, scope="read")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "id", "name", "scope", "prefix", "created_at", "expires_at"}
    assert (body["name"], body["scope"], body["expires_at"]) == ("Pixel 8", "read", None)
    assert body["token"].startswith("uaw_") and body["token"].startswith(body["prefix"])
    listed = bearer(body["token"]).get(URL).json()
    assert [t["id"] for t in listed] == [body["id"]]
    assert "token" not in listed[0]


@pytest.mark.django_db
def test_tokens_are_stored_hashed(client: APIClient, alice: User) -> None:
    raws = [create(client, name=f"device {n}").json()["token"] for n in range(3)]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        cells = [str(value) for row in cursor.fetchall() for value in row]
    assert len(cells) >= 3
    for raw in raws:
        assert not any(raw in cell or raw[12:] in cell for cell in cells)


@pytest.mark.django_db
def test_a_token_can_be_created_with_any_case_of_the_username(
    client: APIClient, alice: User
) -> None:
    assert create(client, username="Alice").status_code == 201


@pytest.mark.django_db
def test_an_expiring_token_gets_its_expiry(client: APIClient, alice: User) -> None:
    body = create(client, expires_in_days=30).json()
    token = ApiToken.objects.get(pk=body["id"])
    assert token.expires_at is not None
    assert token.expires_at - token.created_at == timedelta(days=30)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "credentials",
    [
        {"password": "wrong-password-1"},
        {"username": "nobody"},
        {"username": "nobody", "password": "wrong-password-1"},
    ],
)
def test_wrong_credentials_give_one_error_that_does_not_say_which_part(
    client: APIClient, alice: User, credentials: dict[str, str]
) -> None:
    response = create(client, **credentials)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_credentials"
    assert error["message"] == "Wrong username or password."
    assert "details" not in error
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_an_inactive_user_cannot_create_a_token(client: APIClient, alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(is_active=False)
    response = create(client)
    assert_error(response, 400, "invalid_credentials")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"scope": "admin"}, "scope"),
        ({"name": ""}, "name"),
        ({"expires_in_days": 0}, "expires_in_days"),
    ],
)
def test_malformed_token_requests_are_invalid(
    client: APIClient, alice: User, fields: dict[str, Any], field: str
) -> None:
    response = create(client, **fields)
    assert response.status_code == 400
    assert field in response.json()["error"]["details"]["fields"]


@pytest.mark.django_db
def test_the_list_shows_only_my_live_tokens_and_marks_the_current_one(
    alice: User, bob: User, token_for: TokenFor
) -> None:
    current, api = token_for(alice, name="phone")
    other, _ = token_for(alice, name="tablet", scope=ApiToken.SCOPE_READ)
    revoked, _ = token_for(alice, name="old phone")
    revoked.revoked_at = timezone.now()
    revoked.save()
    expired, _ = token_for(alice, name="trial")
    expired.expires_at = timezone.now() - timedelta(seconds=1)
    expired.save()
    token_for(bob, name="bob's phone")
    listed = {t["name"]: t for t in api.get(URL).json()}
    assert set(listed) == {"phone", "tablet"}
    assert listed["phone"]["current"] is True
    assert listed["tablet"]["current"] is False
    assert listed["tablet"]["scope"] == "read"
    assert listed["tablet"]["prefix"] == other.prefix


@pytest.mark.django_db
def test_listing_tokens_needs_authentication(client: APIClient) -> None:
    response = client.get(URL)
    assert_error(response, 401, "not_authenticated")


@pytest.mark.django_db
def test_revoking_a_token_makes_it_fail_with_401(alice: User, token_for: TokenFor) -> None:
    _, api = token_for(alice, name="phone")
    victim, victim_api = token_for(alice, name="lost tablet")
    assert victim_api.get("/api/v1/me/").status_code == 200
    assert api.delete(f"{URL}{victim.pk}/").status_code == 204
    response = victim_api.get("/api/v1/me/")
    assert_error(response, 401, "authentication_failed")
    assert api.get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_a_token_can_revoke_itself(alice: User, token_for: TokenFor) -> None:
    token, api = token_for(alice)
    assert api.delete(f"{URL}{token.pk}/").status_code == 204
    assert api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_revoking_someone_elses_token_is_not_found(
    alice: User, bob: User, token_for: TokenFor
) -> None:
    _, alice_api = token_for(alice)
    bobs, bob_api = token_for(bob)
    response = alice_api.delete(f"{URL}{bobs.pk}/")
    assert_error(response, 404, "not_found")
    assert bob_api.get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_revoking_twice_or_an_unknown_id_is_not_found(alice: User, token_for: TokenFor) -> None:
    _, api = token_for(alice)
    other, _ = token_for(alice, name="other")
    assert api.delete(f"{URL}{other.pk}/").status_code == 204
    assert api.delete(f"{URL}{other.pk}/").status_code == 404
    assert api.delete(f"{URL}999999/").status_code == 404


@pytest.mark.django_db
def test_a_read_token_cannot_revoke_tokens(alice: User, token_for: TokenFor) -> None:
    token, api = token_for(alice, scope=ApiToken.SCOPE_READ)
    response = api.delete(f"{URL}{token.pk}/")
    assert_error(response, 403, "permission_denied")


@pytest.mark.django_db
def test_an_expired_token_gets_401(alice: User, token_for: TokenFor) -> None:
    token, api = token_for(alice)
    token.expires_at = timezone.now() - timedelta(seconds=1)
    token.save()
    response = api.get("/api/v1/me/")
    assert_error(response, 401, "authentication_failed")


@pytest.mark.django_db
def test_an_unknown_token_gets_401() -> None:
    assert bearer("uaw_not-a-real-token").get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_token_of_an_inactive_user_gets_401(alice: User, token_for: TokenFor) -> None:
    _, api = token_for(alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_a_read_token_may_read_games_but_not_create_one(alice: User, token_for: TokenFor) -> None:
    _, api = token_for(alice, scope=ApiToken.SCOPE_READ)
    assert api.get("/api/v1/games/").status_code == 200
    response = api.post("/api/v1/games/", {}, format="json")
    assert_error(response, 403, "permission_denied")


@pytest.mark.django_db
def test_a_play_token_may_create_a_game(alice: User, token_for: TokenFor) -> None:
    _, api = token_for(alice)
    assert api.post("/api/v1/games/", {}, format="json").status_code == 201


@pytest.mark.django_db
def test_a_read_token_may_read_its_account_but_not_change_it(
    alice: User, token_for: TokenFor
) -> None:
    _, api = token_for(alice, scope=ApiToken.SCOPE_READ)
    assert api.get("/api/v1/me/").status_code == 200
    assert api.get("/api/v1/me/stats/").status_code == 200
    assert api.get(URL).status_code == 200
    assert api.patch("/api/v1/me/", {"display_name": "x"}, format="json").status_code == 403
    assert api.delete("/api/v1/me/", {"password": PASSWORD}, format="json").status_code == 403
