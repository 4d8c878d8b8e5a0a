"""A moderator's void racing the end of another match of a player of the voided match (issue 32,
"Moderation"; docs/ratings.md, "Voids and recomputing"), by real concurrent requests: the void
through the moderators' panel, the match end through the API of a live server. Whichever
applies first, the ratings left equal a full recompute from every rated match left.

On PostgreSQL the two are made to overlap for certain: a third transaction holds alice's rating
row (both need it) until both requests are seen waiting on a lock, then lets them go at once.
SQLite writes one transaction at a time, so there they only start together."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.models import Game
from players.models import ApiToken, User
from ratings import recompute
from ratings.models import Rating, RatingChange, VoidedMatch
from tests.moderation.conftest import make_moderator
from tests.ratings.test_exactly_once import _duel, _post
from tests.ratings.test_recompute import snapshot

ROUNDS = 3
KIND = "gin_rummy"


def _finished_duel(winner: User, loser: User) -> Game:
    game = _duel(winner, loser)
    game_services.leave_game(user=loser, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.FINISHED and RatingChange.objects.filter(game=game).count() == 2
    return game


def _waiting_on_locks() -> int:
    """Backends of this database waiting for a lock now (a fresh look each call: PostgreSQL
    keeps one snapshot of the activity view per transaction otherwise)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def _until(condition: Callable[[], bool], *, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the two requests never both waited"
        time.sleep(0.01)


def _in_thread(call: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        try:
            call()
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _race(void: Callable[[], None], end: Callable[[], None], alice: User) -> None:
    if connection.vendor != "postgresql":
        barrier = threading.Barrier(2)

        def together(call: Callable[[], None]) -> Callable[[], None]:
            def run() -> None:
                barrier.wait()
                call()

            return run

        threads = [_in_thread(together(void)), _in_thread(together(end))]
    else:
        with transaction.atomic():
            list(Rating.objects.select_for_update().filter(user=alice, kind=KIND))
            threads = [_in_thread(void), _in_thread(end)]
            _until(lambda: _waiting_on_locks() >= 2)
        # Committed: both go for the rows at once.
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()


@pytest.mark.django_db(transaction=True)
def test_a_void_racing_a_match_end_of_its_player_equals_a_full_recompute(
    live_server: Any,
) -> None:
    alice, bob, carol = (
        User.objects.create_user(username=name, password=f"pw-{name}-123")
        for name in ("alice", "bob", "carol")
    )
    carol_token = ApiToken.issue(carol, name="test")[1]
    moderator = make_moderator()
    panel = Client()
    panel.force_login(moderator)
    voided = []
    for _ in range(ROUNDS):
        collusion = _finished_duel(alice, bob)  # bob threw it to alice
        running = _duel(alice, carol)
        results: dict[str, int] = {}

        def void(game: Game = collusion, results: dict[str, int] = results) -> None:
            url = reverse("admin:games_game_void_ratings", args=[game.pk])
            results["void"] = panel.post(url, {"reason": "Collusion."}).status_code

        def end(game: Game = running, results: dict[str, int] = results) -> None:
            path = f"/api/v1/games/{game.pk}/leave/"  # carol leaves: alice wins it
            results["end"] = _post(live_server.url, path, carol_token)

        _race(void, end, alice)
        assert results == {"void": 302, "end": 200}
        assert VoidedMatch.objects.filter(game=collusion).exists()
        assert not RatingChange.objects.filter(game=collusion).exists()
        assert RatingChange.objects.filter(game=running).count() == 2
        voided.append(collusion.pk)

    # Every round's void and match end applied, in whichever order they met: alice has her
    # matches against carol only, bob none.
    assert Rating.objects.get(user=alice, kind=KIND).rated_games == ROUNDS
    assert Rating.objects.get(user=bob, kind=KIND).rated_games == 0
    raced = snapshot()
    done = recompute.recompute(kinds=[KIND])
    assert done[KIND].changed == 0
    assert snapshot() == raced
