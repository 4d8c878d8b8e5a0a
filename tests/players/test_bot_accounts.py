"""Bot accounts (issue 33 §3; players/bots.py, docs/bots-api.md): a person makes one, it plays
through the API only with the tokens its owner issues, it is marked as a bot wherever its name
shows, a game it sits in is unrated, and it goes with its owner."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat
from players.models import User
from ratings.models import Rating
from tests.errors import error_code
from tests.games.conftest import Player, make_player
from tests.players.conftest import bearer
from tests.players.oauth import grant, register

pytestmark = pytest.mark.django_db

BOTS = "/api/v1/me/bots/"


@pytest.fixture
def ann(db: None) -> Player:
    return make_player("ann")


def make_bot(
    owner: Player, username: str = "robo", **body: Any
) -> tuple[dict[str, Any], APIClient]:
    response = owner.post(BOTS, {"username": username, **body})
    assert response.status_code == 201, response.content
    return response.json(), bearer(response.json()["token"]["token"])


def test_a_player_makes_a_bot_account_that_plays_with_its_own_token(ann: Player) -> None:
    made, robo = make_bot(ann, display_name="Robo")
    assert made["bot"]["name"] == "Robo (bot)"
    assert made["token"]["token"].startswith("uaw_") and made["token"]["scope"] == "play"
    me = robo.get("/api/v1/me/").json()
    assert me["username"] == "robo" and me["bot"] is True
    assert ann.get("/api/v1/me/").json()["bot"] is False
    assert [b["username"] for b in ann.get(BOTS).json()] == ["robo"]
    created = robo.post("/api/v1/games/", {"game": "gin_rummy"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["players"][0]["name"] == "Robo (bot)"


def test_a_bot_account_has_no_password_to_sign_in_with(ann: Player, client: APIClient) -> None:
    make_bot(ann)
    assert not User.objects.get(username="robo").has_usable_password()
    for password in ("", "robo", "correct-horse-battery-7"):
        response = client.post(
            "/api/v1/auth/tokens/",
            {"username": "robo", "password": password, "name": "x", "scope": "play"},
            format="json",
        )
        assert response.status_code == 400, response.content


def test_a_bot_account_makes_no_bot_accounts(ann: Player) -> None:
    _, robo = make_bot(ann)
    response = robo.post(BOTS, {"username": "robo2"}, format="json")
    assert response.status_code == 403 and error_code(response) == "bot_cannot_own_bots"


def test_a_player_owns_at_most_the_configured_number_of_bots(ann: Player, settings: Any) -> None:
    settings.BOT_ACCOUNTS_PER_PLAYER = 1
    make_bot(ann)
    response = ann.post(BOTS, {"username": "robo2"})
    assert response.status_code == 409 and error_code(response) == "too_many_bots"
    assert response.json()["error"]["details"]["limit"] == 1


def test_a_bot_name_follows_the_rules_of_a_persons(ann: Player) -> None:
    make_user_named_taken = ann.post(BOTS, {"username": "ANN"})
    assert make_user_named_taken.status_code == 409
    assert error_code(make_user_named_taken) == "username_taken"
    assert ann.post(BOTS, {"username": "no spaces"}).status_code == 400


def test_a_new_token_replaces_the_bots_old_ones(ann: Player) -> None:
    made, robo = make_bot(ann)
    response = ann.post(f"{BOTS}{made['bot']['id']}/token/")
    assert response.status_code == 201, response.content
    assert robo.get("/api/v1/me/").status_code == 401
    assert bearer(response.json()["token"]).get("/api/v1/me/").json()["bot"] is True


def test_only_the_owner_reaches_a_bot(ann: Player) -> None:
    made, _ = make_bot(ann)
    ben = make_player("ben")
    bot_id = made["bot"]["id"]
    assert ben.post(f"{BOTS}{bot_id}/token/").status_code == 404
    assert ben.client.delete(f"{BOTS}{bot_id}/").status_code == 404
    assert ben.get(BOTS).json() == []
    assert User.objects.filter(pk=bot_id).exists()


def test_deleting_a_bot_frees_its_seat_in_a_game_in_progress(ann: Player) -> None:
    made, robo = make_bot(ann)
    lobby = ann.create(game="gin_rummy", max_players=2).json()
    joined = robo.post("/api/v1/games/join/", {"invite_code": lobby["invite_code"]}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    assert ann.client.delete(f"{BOTS}{made['bot']['id']}/").status_code == 204
    assert not User.objects.filter(username="robo").exists()
    assert not Seat.objects.filter(game_id=lobby["id"], user__username="robo").exists()
    assert ann.get(BOTS).json() == []


def test_a_players_bots_go_with_their_account(ann: Player) -> None:
    make_bot(ann)
    make_bot(ann, "robo2")
    ann.user.set_password("correct-horse-battery-7")
    ann.user.save()
    response = ann.post("/api/v1/me/delete/", {"password": "correct-horse-battery-7"})
    assert response.status_code == 204, response.content
    assert not User.objects.filter(username__startswith="robo").exists()


def test_a_game_with_a_bot_account_is_unrated(ann: Player) -> None:
    _, robo = make_bot(ann)
    lobby = ann.create(game="uno_splash", max_players=2).json()
    assert lobby["rated"] is True
    joined = robo.post("/api/v1/games/join/", {"invite_code": lobby["invite_code"]}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["rated"] is False
    assert Game.objects.get(pk=lobby["id"]).rated is False
    assert not Rating.objects.exists()
    names = sorted(p["name"] for p in ann.table(lobby["id"])["players"])
    assert names == ["Ann", "robo (bot)"]


def test_an_apps_token_cannot_make_or_rekey_bots(ann: Player) -> None:
    made, _ = make_bot(ann)
    app = register(make_player("ben").user)
    as_app = grant(ann.client, app).api
    assert as_app.get("/api/v1/me/").status_code == 200
    assert as_app.post(BOTS, {"username": "robo2"}, format="json").status_code == 403
    assert as_app.post(f"{BOTS}{made['bot']['id']}/token/").status_code == 403
    assert as_app.get(BOTS).status_code == 403
