"""A rematch seats the finished game's bots again: against the computer, "Play again" is one tap to
a new deal with the same bots and options; with people too, the bots wait in the lobby for them.
"""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games import services
from games.models import Game, Seat
from notifications.models import Notification
from tests.games.conftest import API, API_TESTS, Player, game_url, start_game
from tests.web.conftest import load_scenario

pytestmark = API_TESTS


def against_the_computer(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post(f"{API}vs-computer/", body)
    assert response.status_code in (200, 201), response.content
    game: dict[str, Any] = response.json()
    assert game["status"] == "active"
    return game


def bots_of(game: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((p["name"], p["bot_level"]) for p in game["players"] if p["bot_level"])


def finish_by_leaving(player: Player, game_id: str) -> None:
    """The player leaves; the bots, alone at the table, leave too and the game finishes."""
    assert player.leave(game_id).status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.FINISHED


def test_a_rematch_against_the_computer_deals_a_new_game_with_the_same_bots(
    alice: Player,
) -> None:
    old = against_the_computer(
        alice,
        game="uno_splash",
        bots=2,
        level="expert",
        target_score=0,
        turn_seconds=3600,
        options={"stacking": True},
    )
    finish_by_leaving(alice, old["id"])

    response = alice.post(game_url(old["id"], "rematch/"))

    assert response.status_code == 200, response.content
    new = response.json()
    assert new["id"] != old["id"]
    assert new["status"] == "active"
    assert new["rematch_of"] == old["id"]
    assert new["game"] == "uno_splash"
    assert (new["target_score"], new["turn_seconds"]) == (0, 3600)
    assert new["options"]["stacking"] is True
    assert bots_of(new) == bots_of(old) == [("Ada (bot)", "expert"), ("Alan (bot)", "expert")]
    assert [p["you"] for p in new["players"] if not p["bot_level"]] == [True]
    # Dealt: alice holds a hand of her own in the new game.
    assert new["table"]["hand"]
    # Tapping again (a second tab, a retry) opens the same game, not another one.
    again = alice.post(game_url(old["id"], "rematch/"))
    assert again.status_code == 200
    assert again.json()["id"] == new["id"]
    assert Game.objects.filter(rematch_of_id=old["id"]).count() == 1


def test_a_rematch_against_the_computer_invites_nobody(alice: Player) -> None:
    old = against_the_computer(alice, bots=1)
    finish_by_leaving(alice, old["id"])

    new = alice.post(game_url(old["id"], "rematch/")).json()

    assert new["status"] == "active"
    assert not Notification.objects.filter(kind="invited", game_id=new["id"]).exists()


def test_a_rematch_with_people_and_bots_seats_the_bots_and_waits_for_the_people(
    alice: Player, bob: Player
) -> None:
    lobby = alice.create(max_players=3, game="uno_no_mercy").json()
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200
    services.add_bot(user=alice.user, game_id=lobby["id"], level="random")
    assert Game.objects.get(pk=lobby["id"]).status == Game.ACTIVE
    for player in (alice, bob):
        player.leave(lobby["id"])
    assert Game.objects.get(pk=lobby["id"]).status == Game.FINISHED

    rematch = alice.post(game_url(lobby["id"], "rematch/")).json()

    assert rematch["status"] == "lobby"
    assert rematch["max_players"] == 3
    assert bots_of(rematch) == [("Ada (bot)", "random")]
    assert len(rematch["players"]) == 2
    # Bob is invited as before; his seat, the last one, starts the game.
    assert Notification.objects.filter(kind="invited", game_id=rematch["id"], user=bob.user)
    joined = bob.join(rematch["id"])
    assert joined.status_code == 200, joined.content
    assert joined.json()["status"] == "active"


def test_a_seat_a_bot_played_for_a_person_comes_back_as_the_persons(
    alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)
    services.hand_seat_to_bot(game_id, bob.user, level="heuristic")
    bob.leave(game_id)
    assert Game.objects.get(pk=game_id).status == Game.FINISHED

    rematch = alice.post(game_url(game_id, "rematch/")).json()

    assert rematch["status"] == "lobby"
    assert bots_of(rematch) == []
    assert [p["name"] for p in rematch["players"]] == ["Alice"]


def test_a_player_knocked_out_of_the_only_round_may_play_again_before_it_ends() -> None:
    """No Mercy, one round, against the computer: bob is knocked out at 25 cards while the two
    bots play on; his place is decided, so "Play again" need not wait for them."""
    scenario = load_scenario("no_mercy_knockout.json")
    game_id, tokens = scenario["game_id"], {p["name"]: p["token"] for p in scenario["players"]}
    clients = {name: APIClient() for name in tokens}
    for name, client in clients.items():
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens[name]}")
    refused = clients["bob"].post(game_url(game_id, "rematch/"))
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "game_not_finished")
    for name, action in (
        ("alice", {"type": "play", "card": "wd10-1", "colour": "red"}),
        ("bob", {"type": "take_stack"}),
    ):
        version = Game.objects.get(pk=game_id).version
        body = {**action, "expected_version": version}
        assert (
            clients[name].post(game_url(game_id, "actions/"), body, format="json").status_code
            == 200
        )
    # Alice and carol are the computer's from here (seat fillers, as vs-computer makes them).
    for position, name in ((0, "Ada"), (2, "Alan")):
        Seat.objects.filter(game_id=game_id, position=position).update(
            user=None, bot_level="random", bot_name=name
        )
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE

    again = clients["bob"].post(game_url(game_id, "rematch/"))

    assert again.status_code == 200, again.content
    new = again.json()
    assert (new["status"], new["rematch_of"], new["game"]) == ("active", game_id, "uno_no_mercy")
    assert bots_of(new) == [("Ada (bot)", "random"), ("Alan (bot)", "random")]
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE  # the old game goes on
