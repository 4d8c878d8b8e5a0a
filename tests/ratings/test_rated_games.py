"""Which games are rated: the create option ``rated``, refused where the game is not the game as
its rulebook has it, and a rated lobby refusing bots (docs/ratings.md, "What is rated")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from players import bots
from tests.games.conftest import API, API_TESTS, Player, game_url, new_lobby, start_game

pytestmark = API_TESTS


def test_a_game_with_the_default_preset_and_no_house_rules_is_rated_by_default(
    alice: Player,
) -> None:
    lobby = new_lobby(alice, game="uno_splash")
    assert lobby["rated"] is True
    assert Game.objects.get(pk=lobby["id"]).rated


def test_a_game_with_a_house_rule_is_unrated_by_default(alice: Player) -> None:
    lobby = new_lobby(alice, game="uno_splash", options={"stacking": True})
    assert lobby["rated"] is False


def test_a_player_may_ask_for_an_unrated_game(alice: Player) -> None:
    assert new_lobby(alice, game="gin_rummy", max_players=2, rated=False)["rated"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"game": "uno_splash", "options": {"stacking": True}},
        {"game": "uno_all_wild", "preset": "mattel_2021"},
    ],
)
def test_it_refuses_a_rated_game_with_a_house_rule_or_another_preset(
    alice: Player, body: dict[str, object]
) -> None:
    response = alice.create(rated=True, **body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "rated_not_allowed"
    assert not Game.objects.exists()


def test_a_bot_makes_a_rated_lobby_unrated_for_good(alice: Player) -> None:
    lobby = new_lobby(alice, game="uno_splash", max_players=3)
    assert lobby["rated"] is True
    response = alice.post(game_url(lobby["id"], "bots/"), {})
    assert response.status_code == 201, response.content
    assert response.json()["rated"] is False
    bot = next(p for p in response.json()["players"] if p["bot_level"])
    assert alice.client.delete(game_url(lobby["id"], f"bots/{bot['seat_id']}/")).status_code == 200
    assert alice.table(lobby["id"])["rated"] is False


def bot_account_of(owner: Player, name: str = "robo") -> Player:
    user, _, raw = bots.create_bot(owner=owner.user, username=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return Player(name, user, client, raw)


def test_a_bot_account_joining_makes_a_rated_lobby_unrated_at_once(
    alice: Player, bob: Player
) -> None:
    lobby = new_lobby(alice, game="uno_splash", max_players=3, visibility="public")
    assert lobby["rated"] is True
    joined = bot_account_of(bob).join(lobby["id"])
    assert joined.status_code == 200, joined.content
    # Still a lobby (a seat is free), and every view of it says unrated before anyone plays.
    assert joined.json()["status"] == "lobby"
    assert joined.json()["rated"] is False
    assert alice.table(lobby["id"])["rated"] is False
    listed = alice.get(f"{API}open/").json()
    assert [g["rated"] for g in listed if g["id"] == lobby["id"]] == [False]


def test_a_bot_account_hosts_only_unrated_games(bob: Player) -> None:
    robo = bot_account_of(bob)
    assert new_lobby(robo, game="uno_splash")["rated"] is False
    response = robo.create(game="uno_splash", rated=True)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "rated_not_allowed"


def test_a_game_against_the_computer_is_unrated(alice: Player) -> None:
    response = alice.post("/api/v1/games/vs-computer/", {"game": "uno_splash"})
    assert response.status_code == 201, response.content
    assert response.json()["rated"] is False


def test_a_rematch_is_rated_as_its_game_was(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy", rated=False)
    assert alice.leave(game_id).status_code == 200
    response = bob.post(game_url(game_id, "rematch/"))
    assert response.status_code in (200, 201), response.content
    assert response.json()["rated"] is False
