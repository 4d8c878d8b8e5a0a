"""Declining a rematch invitation: it leaves the invitations list and the badge's count, the
lobby stays joinable by id, and nobody else can decline (or see) it."""

from __future__ import annotations

from typing import Any

from games.models import Game
from tests.errors import assert_error
from tests.games.conftest import API, API_TESTS, Player, game_url, start_game

pytestmark = API_TESTS

INVITATIONS = f"{API}invitations/"


def finished(*players: Player) -> str:
    game_id = start_game(*players)
    Game.objects.filter(pk=game_id).update(status=Game.FINISHED)
    return game_id


def rematch(player: Player, game_id: str) -> str:
    response = player.post(game_url(game_id, "rematch/"))
    assert response.status_code == 200, response.content
    return str(response.json()["id"])


def decline(player: Player, game_id: str) -> Any:
    return player.post(game_url(game_id, "decline/"))


def invitations(player: Player) -> list[str]:
    response = player.get(INVITATIONS)
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()]


def test_a_declined_invitation_leaves_the_list_and_the_count(
    alice: Player, bob: Player, carol: Player
) -> None:
    new = rematch(alice, finished(alice, bob, carol))
    assert invitations(bob) == [new]
    stamp = bob.get(f"{API}live/").json()

    response = decline(bob, new)
    assert response.status_code == 204, response.content
    assert invitations(bob) == []
    live = bob.get(f"{API}live/").json()
    assert live["invitations"] == 0 and live["stamp"] != stamp["stamp"]
    assert invitations(carol) == [new]  # only bob said no
    assert decline(bob, new).status_code == 204  # twice is harmless

    # Second thoughts: the lobby still takes bob by id.
    assert bob.join(new).status_code == 200


def test_only_an_invited_player_may_decline(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    new = rematch(alice, finished(alice, bob))
    assert_error(decline(dave, new), 404, "not_found")  # not in the finished game
    assert_error(decline(alice, new), 409, "already_joined")
    other = start_game(alice, carol)  # a game that is no rematch invites nobody
    assert_error(decline(carol, other), 404, "not_found")


def test_a_started_rematch_cannot_be_declined(alice: Player, bob: Player, carol: Player) -> None:
    new = rematch(alice, finished(alice, bob, carol))
    assert carol.join(new).status_code == 200
    assert alice.start(new).status_code == 200
    assert_error(decline(bob, new), 409, "game_already_started")
