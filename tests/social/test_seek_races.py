"""Quick pairing is exactly once under concurrent requests: many players seeking the same game
at the same moment, as real concurrent requests against a live server, end up with no player
in two games from one seek, no seek matched twice, and every game full."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest

from games.models import Game, Seat
from players.models import ApiToken, User
from social import pairing
from social.models import Seek
from tests.games.test_concurrency import _request

PLAYERS = 9


@pytest.mark.django_db(transaction=True)
def test_simultaneous_seeks_are_each_matched_at_most_once(live_server: Any) -> None:
    users = [User.objects.create_user(username=f"p{i}", password="pw-p-12345") for i in range(9)]
    tokens = [ApiToken.issue(user, name="test")[1] for user in users]
    barrier = threading.Barrier(PLAYERS)
    results: list[tuple[int, Any]] = [(0, None)] * PLAYERS

    def post(i: int) -> None:
        barrier.wait()
        body = {"game": "uno_splash", "seats": 2}
        results[i] = _request(live_server.url, "POST", "/api/v1/seeks/", tokens[i], body)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(PLAYERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert sorted(status for status, _ in results) == [201] * PLAYERS, results
    pairing.pair_waiting()  # a wave pairs what the requests left waiting
    seeks = list(Seek.objects.all())
    assert len(seeks) == PLAYERS
    matched = [s for s in seeks if s.status == Seek.MATCHED]
    assert len(matched) == PLAYERS - 1  # four games; one seek waits for a ninth player
    per_game = Counter(s.game_id for s in matched)
    assert set(per_game.values()) == {2}
    for game in Game.objects.all():
        seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
        assert game.status == Game.ACTIVE and len(seated) == len(set(seated)) == 2
        assert set(seated) == {s.user_id for s in matched if s.game_id == game.pk}
    assert Game.objects.count() == len(per_game) == 4
