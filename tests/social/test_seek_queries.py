"""Posting a seek is quick pairing's hot path (issue 34: matched or queued in at most 3 queries):
its queries are pinned here, whatever the pool holds. Savepoints are left out of the counts: the
test's own transaction turns the service's into one (outside a test it is BEGIN and COMMIT)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import User
from social import pairing
from social.models import Seek
from tests.social.conftest import SOCIAL_TESTS, Player, block

pytestmark = SOCIAL_TESTS

GAME = "uno_splash"


def statements(call: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        result = call()
    sql = [q["sql"] for q in queries.captured_queries]
    return result, [s for s in sql if not s.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def crowd(count: int) -> None:
    """``count`` open seeks of the pool that accept nobody (so none pairs)."""
    for i in range(count):
        user = User.objects.create(username=f"crowd{i}", password="!")
        pairing.post_seek(user=user, kind=GAME, seats=2, min_rating=9000)


def post(player: Player, **extra: Any) -> Any:
    return lambda: pairing.post_seek(user=player.user, kind=GAME, seats=2, **extra)


def test_a_queued_seek_costs_three_queries_however_full_the_pool(
    alice: Player, bob: Player
) -> None:
    crowd(60)
    block(alice, bob)  # the blocks are part of the candidates' query
    seek, sql = statements(post(alice))
    assert seek.status == Seek.OPEN
    assert len(sql) == 3, sql  # the player's cap and rating; the insert; the candidates


def test_a_matched_seek_starts_its_game_in_ten_statements(alice: Player, bob: Player) -> None:
    crowd(60)
    pairing.post_seek(user=alice.user, kind=GAME, seats=2)
    seek, sql = statements(post(bob))
    assert seek.status == Seek.MATCHED
    # The three of a queued seek, then the game, its seats, the start move, the game's state,
    # the game_started notices, the rating rows, and the claim of both seeks.
    assert len(sql) == 10, sql


def test_a_second_seek_like_it_is_refused_by_the_one_open_seek_constraint(alice: Player) -> None:
    pairing.post_seek(user=alice.user, kind=GAME, seats=2)
    try:
        statements(post(alice))
    except pairing.ServiceError as exc:
        assert exc.code == "already_seeking"
    else:
        raise AssertionError("a second open seek in one pool was accepted")
    assert Seek.objects.filter(user=alice.user).count() == 1
