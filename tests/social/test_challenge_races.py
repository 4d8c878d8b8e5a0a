"""A challenge is answered exactly once, whatever arrives at the same time: simultaneous accepts
and a decline racing them, as real concurrent requests against a live server."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from games.models import Game, Seat
from players.models import ApiToken, User
from social import services
from social.models import Challenge, Follow
from tests.games.test_concurrency import api_request

THREADS = 8


@pytest.mark.django_db(transaction=True)
def test_simultaneous_accepts_and_a_decline_answer_a_challenge_once(live_server: Any) -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    bob = User.objects.create_user(username="bob", password="pw-bob-123")
    Follow.objects.create(follower=alice, followee=bob)
    Follow.objects.create(follower=bob, followee=alice)
    challenge = services.send_challenge(challenger=alice, challenged=bob)
    token = ApiToken.issue(bob, name="test")[1]

    barrier = threading.Barrier(THREADS)
    results: list[tuple[int, Any]] = [(0, None)] * THREADS

    def answer(i: int) -> None:
        verb = "decline" if i == 0 else "accept"
        barrier.wait()
        results[i] = api_request(
            live_server.url, "POST", f"/api/v1/challenges/{challenge.pk}/{verb}/", token
        )

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    statuses = sorted(status for status, _ in results)
    assert statuses.count(200) == 1, results
    assert statuses.count(409) == THREADS - 1, results
    assert {body["error"]["code"] for status, body in results if status == 409} == {
        "challenge_closed"
    }
    challenge.refresh_from_db()
    game = Game.objects.get(pk=challenge.game_id)
    if challenge.status == Challenge.ACCEPTED:
        assert game.status == Game.ACTIVE
        assert Seat.objects.filter(game=game).count() == 2
    else:
        assert challenge.status == Challenge.DECLINED
        assert game.status == Game.EXPIRED
