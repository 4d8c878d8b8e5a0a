"""The game view, the my-games list and the timer sweep look rows up through indexes.

``bench/scale.py`` times these query sets on 1,000 games against 100,000 finished + 10,000
running ones (docs/performance.md, "Scale"). This is the same at 1/100 scale (1,000 finished +
100 running games, built by the benchmark's own ``build``), fast enough for every CI run: the
statements the code actually runs are captured, then their plans are read back with ``EXPLAIN``
(PostgreSQL, after ``ANALYZE``) or ``EXPLAIN QUERY PLAN`` (SQLite), and no access to
``games_game`` or ``games_seat`` may read the whole table. Counts are pinned too; timings never
are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction

from bench.scale import QUERIES, Probe, analyze, build, capture, full_scans, plan_scans

pytestmark = pytest.mark.django_db

FINISHED = 1_000
RUNNING = 100
SEED = 1234  # usernames scale-1234-…: the module's own rows
# Statements per query set (the bearer-token lookup of a request is not part of them).
EXPECTED_QUERIES = {
    "game view": 1,  # the game's seats, each joined to the game and its user
    "my games": 3,  # my games; their seats; the seats' users
    "timer sweep": 1,  # the due games (none are due)
}
# The statements (by position) that must use indexes as planned, at this scale: the game by id
# and its seats, the list of my games, the due games. The others are my-games' prefetches (the
# seats of my 25 games, their users), checked with sequential scans priced out instead.
PLANNED_AS_IS = {"game view": [0], "my games": [0], "timer sweep": [0]}
# Which of the watched tables each query set must reach through an index.
MUST_USE_INDEX = {
    "game view": {"games_game", "games_seat"},
    "my games": {"games_game", "games_seat"},
    "timer sweep": {"games_game"},
}


@pytest.fixture(scope="module")
def probe(django_db_setup: None, django_db_blocker: Any) -> Iterator[Probe]:
    """1/100 of the benchmark's large database, built once for the module, committed (the tests
    only read it) and analysed, then deleted again."""
    from games.models import Game
    from players.models import User

    with django_db_blocker.unblock():
        with transaction.atomic():
            built = build(FINISHED, RUNNING, seed=SEED)
        analyze()
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            users = User.objects.filter(username__startswith=f"scale-{SEED}-")
            Game.objects.filter(seats__user__in=users).delete()
            users.delete()


def test_the_data_is_at_one_hundredth_of_the_benchmark(probe: Probe) -> None:
    from games.models import Game, Seat

    mine = Game.objects.filter(seats__user_id=probe.user_id)
    assert Game.objects.filter(status=Game.FINISHED).count() >= FINISHED
    assert Game.objects.filter(status=Game.ACTIVE).count() >= RUNNING
    assert Seat.objects.count() >= 2 * (FINISHED + RUNNING)
    assert mine.filter(status=Game.FINISHED).count() == 20
    assert mine.filter(status=Game.ACTIVE).count() == 5


@pytest.mark.parametrize("name", list(QUERIES))
def test_query_count_is_pinned(probe: Probe, name: str) -> None:
    assert len(capture(QUERIES[name], probe)) == EXPECTED_QUERIES[name]


@pytest.mark.parametrize("name", list(QUERIES))
def test_the_planner_reads_games_and_seats_through_indexes(probe: Probe, name: str) -> None:
    """The statements that pick rows out of the whole table (the game by id and its seats, my
    seats, the due games), planned as they are."""
    statements = capture(QUERIES[name], probe)
    for index in PLANNED_AS_IS[name]:
        sql = statements[index]
        assert not full_scans(sql), (
            f"{name}, statement {index + 1}, reads a whole table on {connection.vendor}:\n"
            f"{sql}\n{plan_scans(sql)}"
        )


@pytest.mark.parametrize("name", list(QUERIES))
def test_every_statement_can_use_an_index(probe: Probe, name: str) -> None:
    """Every statement, the prefetches included, with sequential scans priced out: an index
    serves it. (At 1/100 scale PostgreSQL rightly reads the few pages of games_seat instead of
    probing an index for the seats of my 25 games; at full scale it probes, see
    docs/performance.md. What must never happen is that no index could.)"""
    for number, sql in enumerate(capture(QUERIES[name], probe), 1):
        assert not full_scans(sql, force_index=True), (
            f"{name}, statement {number}: no index can serve it on {connection.vendor}:\n"
            f"{sql}\n{plan_scans(sql, force_index=True)}"
        )


@pytest.mark.parametrize("name", list(QUERIES))
def test_the_tables_are_reached_through_an_index(probe: Probe, name: str) -> None:
    statements = capture(QUERIES[name], probe)
    reached: set[str] = set()
    for index in PLANNED_AS_IS[name]:
        for relation, how in plan_scans(statements[index]):
            if connection.vendor == "postgresql":
                indexed = "Index" in how or how.startswith("Bitmap Heap Scan")
            else:
                indexed = how.startswith("SEARCH") and "INDEX" in how
            if indexed:
                reached.add(relation)
    missing = MUST_USE_INDEX[name] - reached
    assert not missing, f"{name}: no index scan on {sorted(missing)} ({connection.vendor})"


def test_the_check_sees_a_full_scan(probe: Probe) -> None:
    """The checker itself: a filter on an unindexed column is reported, on either database."""
    from games.models import Game

    def unindexed(_probe: Probe) -> None:
        list(Game.objects.filter(preset="no-such-preset"))

    [sql] = capture(unindexed, probe)
    assert full_scans(sql, force_index=True) == [("games_game", plan_scans(sql)[0][1])]
