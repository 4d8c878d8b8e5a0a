"""With Redis down a move is still accepted: the cache and the throttles fail open, queuing the
relay fails quietly, and the move's notifications go out once Redis is back (the relay sweep)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from kombu.exceptions import OperationalError
from rest_framework.throttling import ScopedRateThrottle
from time_machine import TimeMachineFixture

from live import presence
from notifications import relay, tasks
from notifications.models import Delivery
from tests.games.conftest import Player
from tests.notifications.conftest import mails_to, started

# The cache on the pass's Redis, up and down: on both passes of CI.
pytestmark = pytest.mark.services

REFUSED = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused at once


@pytest.fixture
def redis_down() -> Iterator[None]:
    caches = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REFUSED,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=caches):
        yield


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Queuing a task fails as kombu fails when the Redis broker refuses connections."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        attempts.append(kwargs)
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(tasks.relay, "apply_async", refuse)
    return attempts


def test_the_cache_fails_open_and_fast(redis_down: None) -> None:
    started = time.monotonic()
    assert cache.get("anything", "default") == "default"
    cache.set("anything", 1)  # dropped, not raised
    assert cache.add("anything", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    assert cache.incr("counter", 3) == 3
    cache.delete("anything")
    for _ in range(100):  # after the first failure the cache answers without trying
        cache.get("anything")
    assert time.monotonic() - started < 2


def test_nobody_counts_as_watching_while_the_cache_is_down(redis_down: None) -> None:
    presence.mark_watching(1, "game", ttl=60)
    assert presence.is_watching(1, "game") is False


@pytest.mark.django_db
def test_a_move_through_the_api_is_accepted_and_notified_after_redis_returns(
    alice: Player,
    bob: Player,
    redis_down: None,
    broker_down: list[Any],
    django_capture_on_commit_callbacks: Any,
    clock: TimeMachineFixture,
) -> None:
    game, mover, (waiting,) = started(alice, bob)
    Delivery.objects.update(status=Delivery.SENT)

    with django_capture_on_commit_callbacks(execute=True):
        drew = mover.act(game.pk, {"type": "draw"})
        passed = mover.act(game.pk, {"type": "pass"})

    assert drew.status_code == 200, drew.content
    assert passed.status_code == 200, passed.content
    assert broker_down  # the relay was asked for, and the broker refused
    (pending,) = Delivery.objects.filter(status=Delivery.PENDING)
    assert pending.notification.user == waiting.user
    assert mail.outbox == []

    # Redis is back: the periodic relay sweep (beat) sends what waited.
    assert relay.relay() == 1
    assert len(mails_to(waiting)) == 1


@pytest.mark.parametrize(("down", "answers"), [(False, [200, 429]), (True, [200, 200])])
@pytest.mark.django_db
def test_the_throttle_lets_requests_through_while_the_cache_is_down(
    alice: Player, monkeypatch: pytest.MonkeyPatch, down: bool, answers: list[int]
) -> None:
    # One request a minute: the second is refused while the throttle can count (the control),
    # and let through when its counter is unreachable.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"games": "1/min"})
    caches = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if down:
        caches = {"default": {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": REFUSED}}
    with override_settings(CACHES=caches):
        assert [alice.get("/api/v1/games/").status_code for _ in range(2)] == answers


def test_every_thread_shares_one_redis_client_and_its_down_state(redis_down: None) -> None:
    """Django makes a cache instance per thread, and under uvicorn every request has a thread
    of its own: the instances share one client (one connection pool) and one down state, so
    a request neither opens a Redis connection of its own nor retries a Redis known down."""
    from django.core.cache import caches

    here = caches["default"]
    assert here.get("anything", "default") == "default"  # refused: down from now on
    seen: list[Any] = []

    def in_another_thread() -> None:
        there = caches["default"]
        seen.extend([there, there._cache, there.is_down()])

    thread = threading.Thread(target=in_another_thread)
    thread.start()
    thread.join()
    there, client, down = seen
    assert there is not here
    assert client is here._cache
    assert down is True


def test_cache_calls_reuse_one_redis_client_per_pool(redis_down: None) -> None:
    """Django builds a ``redis.Redis`` for every cache call; ours builds one per pool and keeps
    it (building one costs about 0.3 ms, and a throttled request makes two calls)."""
    from django.core.cache import caches

    client = caches["default"]._cache
    assert client.get_client("a") is client.get_client("b")
    assert client.get_client("a", write=True) is client.get_client("b", write=True)
