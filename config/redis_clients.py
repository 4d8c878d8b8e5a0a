"""Direct Redis clients for the request path's own keys (the game view cache, the token cache).

Django's cache API pickles values and has no scripts or async client; the game view cache needs
both (a compare-by-version write, and a read from the event loop without a thread). One sync
client per process, one async client per event loop, and one "down" state shared by both: after
a failure Redis counts as unavailable for ``RETRY_AFTER_SECONDS``, and callers skip it at once
(every caller has a database path to fall back on, so Redis is only ever a shortcut).

No ``REDIS_URL`` (the embedded default): no clients, and every caller takes its database path.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from typing import Any

from django.conf import settings

from config.cache import UNAVAILABLE

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5.0
# A shortcut that waits longer than a database query is no shortcut.
TIMEOUT_SECONDS = 0.25

_lock = threading.Lock()
_sync: Any = None
_async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
_down_until = 0.0


def configured() -> bool:
    return bool(getattr(settings, "REDIS_URL", None))


def available() -> bool:
    """Configured, and not marked down by a recent failure."""
    return configured() and time.monotonic() >= _down_until


def failed(exc: BaseException) -> None:
    """Note a failure: skip Redis for a while (logged once per outage)."""
    global _down_until
    first = time.monotonic() >= _down_until
    _down_until = time.monotonic() + RETRY_AFTER_SECONDS
    if first:
        logger.warning("Redis shortcut unavailable (%s); using the database", type(exc).__name__)


def sync_client(*, force: bool = False) -> Any:
    """This process's client (redis.Redis), or None when Redis is not configured or down
    (``force``: even when it was marked down, for writes that must be tried)."""
    global _sync
    if not (configured() if force else available()):
        return None
    if _sync is None:
        import redis

        with _lock:
            if _sync is None:
                _sync = redis.Redis.from_url(
                    settings.REDIS_URL,
                    socket_timeout=TIMEOUT_SECONDS,
                    socket_connect_timeout=TIMEOUT_SECONDS,
                )
    return _sync


def async_client() -> Any:
    """The running event loop's client (redis.asyncio.Redis), or None (not configured, down)."""
    if not available():
        return None
    loop = asyncio.get_running_loop()
    client = _async.get(loop)
    if client is None:
        import redis.asyncio

        client = _async[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS,
        )
    return client


__all__ = ["UNAVAILABLE", "async_client", "available", "configured", "failed", "sync_client"]
