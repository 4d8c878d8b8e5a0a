"""A Redis cache that fails open: with Redis down, reads miss and writes are dropped.

Nothing the service keeps in the cache is the only copy of anything (throttle counters, who is
watching a game live), so an unreachable Redis must not turn requests into errors: a move is
accepted while Redis is down. Throttles let requests through meanwhile, which is the lesser evil.

After a failure the cache stays "down" for ``RETRY_AFTER_SECONDS`` and answers at once without
trying, so a Redis that hangs rather than refuses costs one socket timeout per process per
interval, not one per cache call.

One client (and so one pool of Redis connections) and one "down" state per process and server,
shared by every cache instance. Django makes a cache instance per thread, and under uvicorn each
request runs in a thread of its own: with a client per instance every request opened a new Redis
connection (and redis-py read its own version from the package metadata for it), which cost a
bare API request about a sixth of its CPU, and a hanging Redis cost every request a timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_AFTER_SECONDS = 5.0
# Errors that mean "Redis is not there right now", as opposed to a bug in how we call it.
# OSError covers sockets that fail below redis-py's own wrapping.
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class _ReusedClient(RedisCacheClient):
    """Django's Redis cache client, reusing one ``redis.Redis`` per connection pool.

    Django builds a new ``redis.Redis`` for every cache call (``get_client``); building one copies
    its response-callback table, which is CPU spent for nothing, and a throttled request makes
    two calls. ``redis.Redis`` is thread-safe (it takes a connection from the pool per command)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


@dataclass
class _Shared:
    """What every cache instance of one process for one server and options shares."""

    client: Any  # django.core.cache.backends.redis.RedisCacheClient (thread-safe: a pool)
    down_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


_SHARED: dict[tuple[Any, ...], _Shared] = {}
_SHARED_LOCK = threading.Lock()


class FailOpenRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _SHARED_LOCK:
            shared = _SHARED.get(key)
            if shared is None:
                shared = _SHARED[key] = _Shared(_ReusedClient(self._servers, **self._options))
        self._shared = shared

    @cached_property
    def _cache(self) -> Any:
        return self._shared.client

    def is_down(self) -> bool:
        return time.monotonic() < self._shared.down_until

    def _guard(self, default: T, call: Callable[..., T], *args: Any) -> T:
        """``call(self, *args)`` (a RedisCache method), or ``default`` while Redis is down."""
        if self.is_down():
            return default
        try:
            return call(self, *args)
        except UNAVAILABLE as exc:
            with self._shared.lock:
                first = not self.is_down()
                self._shared.down_until = time.monotonic() + RETRY_AFTER_SECONDS
            if first:
                logger.warning("Redis cache unavailable (%s); failing open", exc.__class__.__name__)
            return default

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._guard(False, RedisCache.add, key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard(default, RedisCache.get, key, default, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guard(None, RedisCache.set, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guard(False, RedisCache.touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guard(False, RedisCache.delete, key, version)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._guard({}, RedisCache.get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guard(False, RedisCache.has_key, key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        # As if the key had been absent and then set to the delta: callers counting attempts
        # see a low count, which is what failing open means.
        return self._guard(delta, RedisCache.incr, key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._guard([], RedisCache.set_many, data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._guard(None, RedisCache.delete_many, keys, version)

    def clear(self) -> bool:
        return self._guard(False, RedisCache.clear)
