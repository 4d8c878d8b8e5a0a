"""Nothing talks to Redis, or announces a version, while a database transaction is open.

A call inside the transaction would hold the game's row lock for a network round trip (or a
socket timeout when Redis hangs), and could announce a version that is then rolled back. Live
announcements and cache writes go out with ``transaction.on_commit``.

The test commits (``transaction=True``): inside a test's own transaction every call would be
inside one. On the PostgreSQL + Redis pass it sees every Redis command (the cache, the live
channel's publish); on the embedded defaults there is no Redis, and it sees the announcements.
"""

from __future__ import annotations

import os
import random
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.db import connection

from games import services
from games.models import Game
from live import announce
from tests.games.conftest import Player, player_to_move, random_action, start_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]


@pytest.fixture
def inside(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each Redis command and each announcement, with whether this thread was in a transaction."""
    seen: list[tuple[str, bool]] = []
    real_command = redis.Redis.execute_command
    real_publish = announce.Notifier.publish

    def command(self: Any, *args: Any, **options: Any) -> Any:
        seen.append((f"redis {args[0]}", connection.in_atomic_block))
        return real_command(self, *args, **options)

    def publish(self: Any, game_id: Any, version: int, news: Any = None) -> None:
        seen.append(("announce", connection.in_atomic_block))
        real_publish(self, game_id, version, news)

    monkeypatch.setattr(redis.Redis, "execute_command", command)
    monkeypatch.setattr(announce.Notifier, "publish", publish)
    return seen


def test_moves_lobbies_and_timeouts_reach_redis_only_after_their_commit(
    alice: Player, bob: Player, carol: Player, inside: list[tuple[str, bool]]
) -> None:
    game_id = start_game(alice, bob, carol)
    rng = random.Random(3)
    for key in ("", "a-key"):  # a keyed action runs in the key's transaction
        mover = player_to_move([alice, bob, carol], game_id)
        action = random_action(mover.table(game_id), rng)
        headers = {"Idempotency-Key": key} if key else {}
        assert mover.act(game_id, action, **headers).status_code == 200
    assert alice.view(game_id).status_code == 200
    deadline = Game.objects.get(pk=game_id).turn_deadline
    assert services.sweep_expired_turns(now=deadline + timedelta(seconds=1)) == 1

    assert ("announce", False) in inside
    if os.environ.get("REDIS_URL"):
        assert any(name.startswith("redis PUBLISH") for name, _ in inside), inside
    assert not [name for name, in_transaction in inside if in_transaction]
