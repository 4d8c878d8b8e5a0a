"""``games/live/``: "My games" and the badge stay current (issue 21, point 2).

Its ``stamp`` changes whenever any of the player's unfinished games changes; with ``since`` and
``wait`` it long-polls, answering within a second of a move in any of them; ``games_waiting``
counts the games waiting for the player's move. An invitation (a rematch another player opened)
and a new game with the player in it wake it too, though no game it waits on moved
(``live.announce.publish`` on the player's ``user_key``), and ``invitations`` counts the
lobbies ``games/invitations/`` lists.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from games.models import Game
from live import announce
from tests.games.conftest import Player, player_to_move, random_action, start_game
from tests.games.test_lobby_api import finished_game
from tests.live.servers import Poll

LIVE = "/api/v1/games/live/"
INVITATIONS = "/api/v1/games/invitations/"

pytestmark = pytest.mark.usefixtures("lift_throttles")


def live(player: Player, **params: Any) -> dict[str, Any]:
    response = player.get(LIVE, params)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def waiting_poll(live_server: Any, player: Player, stamp: str) -> Poll:
    """A long-poll of ``games/live/`` with ``stamp``, checked to be waiting."""
    poll = Poll(f"{live_server.url}{LIVE}?since={stamp}&wait=10", player.token)
    poll.start()
    # It waits (on the player's own key among others) before anything happens.
    waiting = announce.notifier().wait_for_waiters(announce.user_key(player.user.pk), timeout=10)
    assert waiting and poll.is_alive(), "the long-poll answered before anything happened"
    return poll


def answered(poll: Poll, since: float) -> float:
    """How long after ``since`` the long-poll answered (200)."""
    poll.join(timeout=10)
    assert not poll.is_alive() and poll.error is None, poll.error
    assert poll.status == 200, poll.body
    return poll.finished_at - since


def move(players: list[Player], game_id: str) -> None:
    player = player_to_move(players, game_id)
    view = player.table(game_id)
    response = player.act(game_id, random_action(view, random.Random(7)))
    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_the_stamp_changes_with_a_move_and_the_badge_counts_games_waiting(
    alice: Player, bob: Player, carol: Player
) -> None:
    first = start_game(alice, bob, target_score=0)
    second = start_game(alice, carol, target_score=0)
    before = live(alice)
    waiting = sum(
        Game.objects.filter(pk=g, current_user=alice.user).exists() for g in (first, second)
    )
    assert before["games_waiting"] == waiting
    assert live(alice)["stamp"] == before["stamp"]  # nothing happened: the same stamp
    move([alice, carol], second)
    after = live(alice)
    assert after["stamp"] != before["stamp"]
    assert after["games_waiting"] == Game.objects.filter(current_user=alice.user).count()


@pytest.mark.django_db
def test_a_long_poll_with_a_stale_stamp_answers_at_once(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def wait(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("waited")

    monkeypatch.setattr(announce.Notifier, "wait", wait)
    start_game(alice, bob, target_score=0)
    body = live(alice, since="old", wait=10)
    assert body["stamp"] != "old"


@pytest.mark.django_db
def test_wait_is_checked(alice: Player) -> None:
    response = alice.get(LIVE, {"wait": 26})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.django_db(transaction=True)
def test_my_games_long_poll_returns_within_a_second_of_a_move_in_any_game(
    live_server: Any, alice: Player, bob: Player, carol: Player
) -> None:
    start_game(alice, bob, target_score=0)
    other = start_game(alice, carol, target_score=0)
    stamp = live(alice)["stamp"]
    poll = waiting_poll(live_server, alice, stamp)
    moved_at = time.monotonic()
    move([alice, carol], other)
    latency = answered(poll, moved_at)
    print(f"\nMy games long-poll wake-up after a move: {latency:.3f} s")
    assert poll.body["stamp"] != stamp  # woken by the move (ten seconds would bring the same)


@pytest.mark.django_db
def test_an_invitation_changes_the_stamp_and_is_listed_until_answered(
    alice: Player, bob: Player, carol: Player
) -> None:
    old = finished_game(alice, bob)
    before = live(bob)
    assert before["invitations"] == 0
    assert bob.get(INVITATIONS).json() == []

    rematch = alice.post(f"/api/v1/games/{old}/rematch/").json()

    invited = live(bob)
    assert invited["stamp"] != before["stamp"]
    assert invited["invitations"] == 1
    listed = bob.get(INVITATIONS).json()
    assert [g["id"] for g in listed] == [rematch["id"]]
    assert listed[0]["your_seat"] is None and listed[0]["invite_code"] is None
    # Nobody else is invited, and the host's own lobby is not an invitation.
    assert carol.get(INVITATIONS).json() == [] and live(alice)["invitations"] == 0
    assert bob.join(rematch["id"]).status_code == 200
    joined = live(bob)
    assert joined["invitations"] == 0 and joined["stamp"] != invited["stamp"]
    assert bob.get(INVITATIONS).json() == []


@pytest.mark.django_db(transaction=True)
def test_my_games_long_poll_wakes_within_a_second_of_an_invitation(
    live_server: Any, alice: Player, bob: Player
) -> None:
    old = finished_game(alice, bob)
    stamp = live(bob)["stamp"]  # bob has no game in a lobby or in progress: nothing to wait on
    poll = waiting_poll(live_server, bob, stamp)
    invited_at = time.monotonic()
    assert alice.post(f"/api/v1/games/{old}/rematch/").status_code == 200
    latency = answered(poll, invited_at)
    print(f"\nMy games long-poll wake-up after an invitation: {latency:.3f} s")
    assert poll.body["stamp"] != stamp and poll.body["invitations"] == 1


@pytest.mark.django_db(transaction=True)
def test_my_games_long_poll_wakes_when_a_game_with_me_is_created_elsewhere(
    live_server: Any, alice: Player
) -> None:
    stamp = live(alice)["stamp"]
    poll = waiting_poll(live_server, alice, stamp)
    created_at = time.monotonic()
    # Another tab or device of hers opens a lobby.
    assert alice.post("/api/v1/games/", {"max_players": 2}).status_code == 201
    latency = answered(poll, created_at)
    print(f"\nMy games long-poll wake-up after a game was created: {latency:.3f} s")
    assert poll.body["stamp"] != stamp  # woken by the announcement on her own key
    assert poll.body["stamp"] != stamp
