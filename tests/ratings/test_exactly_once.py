"""Exactly once under races, and what rating costs a move (docs/ratings.md, "Exactly once").

Two of alice's rated matches end at the same moment, by real concurrent requests against a live
server: each applies once, the second to the first's result (on PostgreSQL the rating rows are
locked; SQLite writes one transaction at a time)."""

from __future__ import annotations

import http.client
import threading
from typing import Any
from urllib.parse import urlparse

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.models import Game
from players.models import ApiToken, User
from ratings.models import Rating, RatingChange
from tests.games.conftest import Player, give_card, start_game
from tests.ratings.test_match_end import one_card_left

ROUNDS = 3  # pairs of matches ending together


def _post(base: str, path: str, token: str) -> int:
    url = urlparse(base)
    # A connection of its own per call: the point is concurrent connections.
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    conn.request("POST", path, headers={"Authorization": f"Bearer {token}"})
    status = conn.getresponse().status
    conn.close()
    return status


def _duel(host: User, other: User) -> Game:
    game = game_services.create_game(host=host, kind="gin_rummy", max_players=2)
    game_services.join_game(user=other, invite_code=game.invite_code)  # full: starts
    game.refresh_from_db()
    assert game.status == Game.ACTIVE and game.rated
    return game


@pytest.mark.django_db(transaction=True)
def test_two_matches_of_one_player_ending_at_once_each_apply_once(live_server: Any) -> None:
    alice, bob, carol = (
        User.objects.create_user(username=name, password=f"pw-{name}-123")
        for name in ("alice", "bob", "carol")
    )
    tokens = {u.pk: ApiToken.issue(u, name="test")[1] for u in (bob, carol)}
    for _ in range(ROUNDS):
        games = [_duel(alice, bob), _duel(alice, carol)]
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def leave(
            game: Game,
            user: User,
            barrier: threading.Barrier = barrier,
            statuses: list[int] = statuses,
        ) -> None:
            barrier.wait()
            path = f"/api/v1/games/{game.pk}/leave/"
            statuses.append(_post(live_server.url, path, tokens[user.pk]))

        threads = [
            threading.Thread(target=leave, args=(game, user))
            for game, user in zip(games, (bob, carol), strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert statuses == [200, 200]

    rating = Rating.objects.get(user=alice, kind="gin_rummy")
    assert rating.rated_games == rating.wins == 2 * ROUNDS
    # Each change started from the one before it: none was computed from a stale rating.
    chain = list(RatingChange.objects.filter(user=alice).order_by("id"))
    assert len(chain) == 2 * ROUNDS
    for earlier, later in zip(chain, chain[1:], strict=False):
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)
    assert (rating.mu, rating.sigma) == (chain[-1].mu_after, chain[-1].sigma_after)


def _play(player: Player, game_id: str, card: str) -> int:
    """Play ``card``; the queries it took."""
    with CaptureQueriesContext(connection) as queries:
        response = player.act(game_id, {"type": "play", "card": card})
    assert response.status_code == 200, response.content
    return len(queries)


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_rating_adds_three_queries_to_the_match_ending_move_and_none_to_others(
    alice: Player, bob: Player, carol: Player, dave: Player, seeded_engine: Any
) -> None:
    cost = {}
    for rated, (host, guest) in ((False, (alice, bob)), (True, (carol, dave))):
        seeded_engine(4)  # the same deal for both, and an opening card that asks nothing
        game_id = start_game(host, guest, game="uno_all_wild", target_score=0, rated=rated)
        assert Game.objects.get(pk=game_id).rated is rated
        mover = next(
            p for p in (host, guest) if p.user.pk == Game.objects.get(pk=game_id).current_user_id
        )
        card = give_card(game_id, mover.table(game_id)["your_seat"], "wild")
        play = _play(mover, game_id, card)
        assert Game.objects.get(pk=game_id).status == Game.ACTIVE
        mover, card = one_card_left(game_id, [host, guest])
        last = _play(mover, game_id, card)
        assert Game.objects.get(pk=game_id).status == Game.FINISHED
        cost[rated] = (play, last)
    assert cost[True][0] == cost[False][0]  # a move that ends nothing: not one query more
    assert cost[True][1] == cost[False][1] + 3  # lock the ratings, write changes and ratings
