"""Quick pairing and the lobby are exactly once under concurrent requests against a live server:
many players seeking the same game at the same moment end up with no player in two games from
one seek, no seek matched twice, and every game full; many players taking one listed seek, or
joining one public game, at once fill it once."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest

from games.models import Game, Seat
from players.models import ApiToken, User
from social import pairing
from social.models import Seek
from tests.games.test_concurrency import api_request, at_once

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
        results[i] = api_request(live_server.url, "POST", "/api/v1/seeks/", tokens[i], body)

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


TAKERS = 6


@pytest.mark.django_db(transaction=True)
def test_a_listed_seek_taken_by_many_at_once_starts_one_game(live_server: Any) -> None:
    users = [User.objects.create_user(username=f"t{i}", password="pw-t-12345") for i in range(7)]
    tokens = [ApiToken.issue(user, name="test")[1] for user in users]
    posted = api_request(
        live_server.url, "POST", "/api/v1/seeks/", tokens[0], {"game": "uno_splash", "seats": 2}
    )
    path = f"/api/v1/seeks/{posted[1]['id']}/take/"
    results = at_once(TAKERS, lambda i: api_request(live_server.url, "POST", path, tokens[i + 1]))

    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * (TAKERS - 1), results
    assert {body["error"]["code"] for status, body in results if status == 409} == {"seek_closed"}
    (game,) = Game.objects.all()
    seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    assert game.status == Game.ACTIVE and len(seated) == 2 and users[0].pk in seated
    assert Seek.objects.filter(status=Seek.MATCHED, game=game).count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_open_game_joined_from_the_lobby_by_many_at_once_fills_once(live_server: Any) -> None:
    users = [User.objects.create_user(username=f"j{i}", password="pw-j-12345") for i in range(7)]
    tokens = [ApiToken.issue(user, name="test")[1] for user in users]
    body = {"game": "uno_splash", "max_players": 3, "visibility": "public"}
    status, created = api_request(live_server.url, "POST", "/api/v1/games/", tokens[0], body)
    assert status == 201, created
    listed = api_request(live_server.url, "GET", "/api/v1/lobby/", tokens[1])[1]["games"]
    assert [g["id"] for g in listed] == [created["id"]]
    path = f"/api/v1/games/{created['id']}/join/"
    results = at_once(TAKERS, lambda i: api_request(live_server.url, "POST", path, tokens[i + 1]))

    assert sorted(status for status, _ in results) == [200] * 2 + [409] * (TAKERS - 2), results
    game = Game.objects.get(pk=created["id"])
    seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    assert game.status == Game.ACTIVE and len(seated) == len(set(seated)) == 3
