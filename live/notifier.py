"""The notifier: waiters keyed by game id (or a player's key), woken by ``publish``, by Redis
pub/sub and by a database re-check; the news kept per game; the Redis subscriptions. How they
fit together is told in ``live.announce``, the module the services and the driver call.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rest_framework.utils.encoders import JSONEncoder

from live.versions import VersionSource, db_versions, release_db

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "game:"
# The key of a player's own announcements (``user_key``); never a game id (those are UUIDs).
USER_PREFIX = "user:"
# How often waiters re-read the versions of their games from the database.
RECHECK_SECONDS = 1.0
# After a failed PUBLISH, skip Redis for this long: a move must not pay a connect timeout each
# time while Redis is down (the database re-check delivers meanwhile).
REDIS_RETRY_SECONDS = 5.0
# Socket timeouts of the publishing connection: PUBLISH runs inside the mover's request.
REDIS_PUBLISH_TIMEOUT = 0.5
# Latest version seen per game, so a waiter registering just after a publish is not missed.
KNOWN_VERSIONS = 10_000
# News kept per game (``news_after``): a stream a few versions behind still needs no query.
NEWS_PER_GAME = 4
# Games whose news is kept, the least recently announced going first: a bound on memory (a
# news is about a kilobyte), not on correctness (a stream without news reads the database).
NEWS_GAMES = 2_000
# Redis key of a player's announcement counter (``user_mark``), after the deployment's prefix.
USER_MARK_KEY = "user-mark:"
# A key's subscription outlives its last waiter this long: a long-poll answered and asked again,
# or a stream reconnecting (``retry: 3000``), must not pay an UNSUBSCRIBE and a SUBSCRIBE, nor
# miss a move in between.
LINGER_SECONDS = 10.0
# The listener reads with this timeout, then sends the subscriptions asked for meanwhile: the
# longest a new waiter's SUBSCRIBE waits (the catch-up after it covers the gap).
SUBSCRIBE_POLL_SECONDS = 0.05


class _Waiter:
    __slots__ = ("_wake", "above", "version")

    def __init__(self, above: int, wake: Callable[[], Any]) -> None:
        self.above = above
        self.version: int | None = None
        self._wake = wake

    def fire(self, version: int) -> None:
        """Wake the waiter (from any thread). Caller holds the notifier's lock."""
        if self.version is not None:
            return
        self.version = version
        # An event loop may have closed (its request ended): then nobody is left to wake.
        with contextlib.suppress(RuntimeError):
            self._wake()


@dataclass(frozen=True)
class Side:
    """What ``wait`` answers when the ``also`` key woke it (its new mark), not the main key."""

    version: int


class Notifier:
    """Waiters keyed by game id, woken by ``publish``, Redis and a database re-check."""

    def __init__(
        self,
        *,
        redis_url: str | None = None,
        recheck_seconds: float = RECHECK_SECONDS,
        versions: VersionSource = db_versions,
        release: Callable[[], None] = release_db,
        prefix: str = "",
        linger_seconds: float = LINGER_SECONDS,
    ) -> None:
        self.redis_url = redis_url
        self.recheck_seconds = recheck_seconds
        self.prefix = prefix
        self.linger_seconds = linger_seconds
        self._versions = versions
        self._release = release
        self._lock = threading.Lock()
        # Notified whenever a waiter comes or goes (``wait_for_waiters``).
        self._waiters_changed = threading.Condition(self._lock)
        self._waiters: dict[str, set[_Waiter]] = {}
        self._known: OrderedDict[str, int] = OrderedDict()
        self._news: OrderedDict[str, OrderedDict[int, dict[str, Any]]] = OrderedDict()
        self._user_marks: dict[str, int] = {}
        # A mark lives within one request of this process (read, then waited on): no need to
        # survive a restart.
        self._mark_counter = itertools.count(1)
        self._watching = threading.Event()  # set when a waiter registers
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        self._publisher: Any = None  # redis.Redis, created on first publish
        self._redis_down_until = 0.0
        # Keys whose last waiter left, and when: still subscribed for ``linger_seconds``.
        self._lingering: dict[str, float] = {}
        self._dirty = False  # a key wants its channel (the listener subscribes it)
        self._linger_check_at = 0.0
        # Newly subscribed games, for the re-check thread to read at once (``_kick``).
        self._fresh: set[str] = set()
        self._kick = threading.Event()
        # The listener thread's own: the keys it subscribed (sent), and those Redis confirmed.
        self._subscribed: set[str] = set()
        self._confirmed: set[str] = set()
        self._confirmations = threading.Condition()
        # The Redis listener's state, for tests and logs: connected, and messages received.
        self.listening = threading.Event()
        self.received = 0
        # Its connection's name (CLIENT LIST shows which process listens to what).
        self.client_name = f"live-listener-{os.getpid()}-{id(self):x}"

    # -- announcing -----------------------------------------------------------------------------

    def publish(self, game_id: Any, version: int, news: dict[str, Any] | None = None) -> None:
        """Announce a version (with its public ``news``, if any): wake local waiters, and tell
        other processes through Redis."""
        key = str(game_id)
        try:
            self.notify(key, int(version), news)
        except Exception:
            logger.exception("live: waking local waiters of game %s failed", key)
        if self.redis_url:
            self._publish_redis(key, int(version), news)

    def notify(self, game_id: str, version: int, news: dict[str, Any] | None = None) -> int:
        """Wake this process's waiters of ``game_id`` that wait for less than ``version``.

        Returns how many were woken."""
        woken = 0
        with self._lock:
            self._remember(game_id, version)
            if news is not None:
                self._keep_news(game_id, version, news)
            for waiter in self._waiters.get(game_id, ()):
                if version > waiter.above and waiter.version is None:
                    waiter.fire(version)
                    woken += 1
        return woken

    def _remember(self, game_id: str, version: int) -> None:
        if self._known.get(game_id, -1) >= version:
            return
        self._known[game_id] = version
        self._known.move_to_end(game_id)
        while len(self._known) > KNOWN_VERSIONS:
            self._known.popitem(last=False)

    def _keep_news(self, game_id: str, version: int, news: dict[str, Any]) -> None:
        kept = self._news.get(game_id)
        if kept is None:
            kept = self._news[game_id] = OrderedDict()
            while len(self._news) > NEWS_GAMES:
                self._news.popitem(last=False)
        else:
            self._news.move_to_end(game_id)
        kept[version] = news
        while len(kept) > NEWS_PER_GAME:
            kept.popitem(last=False)

    def news_after(self, game_id: str, after: int, upto: int) -> list[dict[str, Any]] | None:
        """The news of every version of ``game_id`` from ``after`` + 1 to ``upto``, in order;
        None when any is missing (the caller reads the database instead)."""
        with self._lock:
            kept = self._news.get(game_id)
            if kept is None or upto <= after:
                return None
            found = [kept.get(version) for version in range(after + 1, upto + 1)]
        if any(news is None for news in found):
            return None
        return found  # type: ignore[return-value]

    def channel(self, key: Any) -> str:
        """The Redis channel of ``key`` (a game id, or a player's ``user_key``)."""
        return f"{self.prefix}{CHANNEL_PREFIX}{key}"

    def _redis(self) -> Any:
        if self._publisher is None:
            import redis

            self._publisher = redis.Redis.from_url(
                self.redis_url,
                socket_timeout=REDIS_PUBLISH_TIMEOUT,
                socket_connect_timeout=REDIS_PUBLISH_TIMEOUT,
            )
        return self._publisher

    def user_mark(self, user_id: Any, *, advance: bool = False) -> int:
        """The player's announcement counter (``user_key``'s versions), advanced first if asked.

        One counter for all processes on Redis (``INCR``); this process's own without it, or
        while Redis is down (then other processes' announcements do not arrive anyway)."""
        key = f"{self.prefix}{USER_MARK_KEY}{user_id}"
        if self.redis_url and time.monotonic() >= self._redis_down_until:
            try:
                client = self._redis()
                return int(client.incr(key) if advance else client.get(key) or 0)
            except Exception as exc:
                self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
                logger.warning("live: the player's counter on Redis failed (%s)", exc)
        with self._lock:
            if advance:
                self._user_marks[key] = next(self._mark_counter)
            return self._user_marks.get(key, 0)

    def _publish_redis(
        self, game_id: str, version: int, news: dict[str, Any] | None = None
    ) -> None:
        now = time.monotonic()
        if now < self._redis_down_until:
            return
        try:
            if news is None:
                payload = str(version)
            else:
                payload = json.dumps({"version": version, "news": news}, cls=JSONEncoder)
            self._redis().publish(self.channel(game_id), payload)
        except Exception as exc:
            self._redis_down_until = now + REDIS_RETRY_SECONDS
            logger.warning(
                "live: publishing version %s of game %s to Redis failed (%s); waiting clients "
                "will see it through the database re-check",
                version,
                game_id,
                exc,
            )

    # -- waiting --------------------------------------------------------------------------------

    async def wait(
        self,
        game_id: Any,
        *,
        above: int,
        timeout: float | None,
        poke: asyncio.Event | None = None,
        also: tuple[str, int] | None = None,
    ) -> int | Side | None:
        """Wait up to ``timeout`` seconds (None: no limit) for a version of ``game_id`` above
        ``above``, or until ``poke`` is set (the caller clears it first); with ``also`` (a key
        and a mark), for that key's announcement above its mark too (a game stream's chat).

        Returns the version that woke us, ``Side(mark)`` when ``also`` did, or None on timeout
        or poke. Holds no thread and no database connection while waiting; cancelling (a client
        that hung up) cleans up."""
        loop = asyncio.get_running_loop()
        event = poke if poke is not None else asyncio.Event()
        waiters = self._add_all(game_id, above, also, lambda: loop.call_soon_threadsafe(event.set))
        try:
            async with asyncio.timeout(None if timeout is None else max(timeout, 0)):
                await event.wait()
        except TimeoutError:
            return None
        finally:
            self._remove_all(waiters)
        return _woken(waiters)

    def wait_blocking(
        self, game_id: Any, *, above: int, timeout: float, also: tuple[str, int] | None = None
    ) -> int | Side | None:
        """``wait`` for a thread that may block (a WSGI worker): same contract."""
        event = threading.Event()
        waiters = self._add_all(game_id, above, also, event.set)
        try:
            event.wait(max(timeout, 0))
        finally:
            self._remove_all(waiters)
        return _woken(waiters)

    def _add_all(
        self, game_id: Any, above: int, also: tuple[str, int] | None, wake: Callable[[], Any]
    ) -> list[tuple[str, _Waiter]]:
        waiters = [self._add(game_id, above, wake)]
        if also is not None:
            waiters.append(self._add(also[0], also[1], wake))
        return waiters

    def _remove_all(self, waiters: list[tuple[str, _Waiter]]) -> None:
        for key, waiter in waiters:
            self._remove(key, waiter)

    def _add(self, game_id: Any, above: int, wake: Callable[[], Any]) -> tuple[str, _Waiter]:
        key = str(game_id)
        waiter = _Waiter(above, wake)
        with self._lock:
            if key not in self._waiters and self._lingering.pop(key, None) is None:
                self._dirty = True  # a new channel for the listener
            self._waiters.setdefault(key, set()).add(waiter)
            known = self._known.get(key)
            if known is not None and known > above:
                waiter.fire(known)  # published between the caller's read and now
            self._waiters_changed.notify_all()
        self._start_threads()
        self._watching.set()
        return key, waiter

    def _remove(self, key: str, waiter: _Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(key)
            self._waiters_changed.notify_all()
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[key]
                    if self.redis_url:  # only the listener prunes them
                        self._lingering[key] = time.monotonic()
                        self._dirty = self._dirty or self.linger_seconds <= 0

    def waiting(self) -> int:
        """How many waiters this process has (for tests and diagnostics)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def wait_for_waiters(self, key: Any, count: int = 1, *, timeout: float) -> bool:
        """Wait until ``count`` clients wait on ``key``; False on timeout. For tests and the
        bench: a client is waiting once this says so, not after some sleep."""
        with self._waiters_changed:
            return self._waiters_changed.wait_for(
                lambda: len(self._waiters.get(str(key), ())) >= count, timeout
            )

    def subscriptions(self) -> set[str]:
        """The keys whose channels Redis confirmed this process subscribes to (tests, bench)."""
        with self._confirmations:
            return set(self._confirmed)

    def wait_subscribed(self, key: Any, *, subscribed: bool = True, timeout: float) -> bool:
        """Wait until Redis confirmed that ``key``'s channel is (or, with ``subscribed=False``,
        is no longer) subscribed; False on timeout. For tests and the bench."""
        with self._confirmations:
            return self._confirmations.wait_for(
                lambda: (str(key) in self._confirmed) == subscribed, timeout
            )

    # -- background threads ---------------------------------------------------------------------

    def _start_threads(self) -> None:
        if self._threads:
            return
        with self._lock:
            if self._threads:
                return
            targets = [("live-recheck", self._recheck_loop)]
            if self.redis_url:
                targets.append(("live-redis", self._listen_loop))
            for name, target in targets:
                thread = threading.Thread(target=target, name=name, daemon=True)
                thread.start()
                self._threads.append(thread)

    @property
    def stopped(self) -> bool:
        """Whether ``stop`` was called (``stop_notifier``: a test's server outlives it)."""
        return self._stopped.is_set()

    def stop(self) -> None:
        """Stop the background threads (tests; the process's own notifier never stops)."""
        self._stopped.set()
        self._watching.set()
        self._kick.set()
        for thread in self._threads:
            thread.join(timeout=5)

    def _recheck_loop(self) -> None:
        failing = False
        due = time.monotonic() + self.recheck_seconds
        while not self._stopped.is_set():
            self._watching.clear()
            with self._lock:
                idle = not self._waiters
            if idle:
                # Nobody waits: hold no database connection until somebody does.
                self._safe_release()
                self._watching.wait()
                due = time.monotonic() + self.recheck_seconds
                continue
            # Woken early by the listener (``_kick``) to catch newly subscribed games up.
            self._kick.wait(max(due - time.monotonic(), 0))
            if self._stopped.is_set():
                break
            self._kick.clear()
            with self._lock:
                fresh, self._fresh = self._fresh, set()
                if time.monotonic() >= due:
                    due = time.monotonic() + self.recheck_seconds
                    fresh = set(self._waiters)
                # A player's key has no row to re-read: only games are re-checked.
                game_ids = [
                    key for key in fresh if key in self._waiters and not key.startswith(USER_PREFIX)
                ]
            if not game_ids:
                continue
            try:
                versions = self._versions(game_ids)
            except Exception as exc:
                if not failing:
                    logger.warning("live: re-checking game versions failed (%s); retrying", exc)
                failing = True
                self._safe_release()
                continue
            if failing:
                logger.info("live: re-checking game versions works again")
                failing = False
            for game_id, version in versions.items():
                self.notify(game_id, version)
        self._safe_release()

    def _safe_release(self) -> None:
        try:
            self._release()
        except Exception:
            logger.exception("live: closing the re-check thread's database connection failed")

    def _listen_loop(self) -> None:
        """The listener thread: it alone uses the subscription's connection (a redis-py PubSub
        is not to be shared between threads), so waiters only ask (``_dirty``) and it sends the
        SUBSCRIBE and UNSUBSCRIBE between reads."""
        import redis

        backoff = 0.5
        while not self._stopped.is_set():
            pubsub = None
            try:
                client = redis.Redis.from_url(
                    self.redis_url,
                    socket_connect_timeout=2,
                    socket_keepalive=True,
                    health_check_interval=30,
                    client_name=self.client_name,
                )
                client.ping()
                pubsub = client.pubsub()
                self._subscribed = set()
                self._dirty = True  # every wanted channel, on a new connection
                self.listening.set()
                if backoff > 0.5:
                    logger.info("live: listening to Redis again")
                backoff = 0.5
                while not self._stopped.is_set():
                    self._sync_subscriptions(pubsub)
                    message = pubsub.get_message(timeout=SUBSCRIBE_POLL_SECONDS)
                    if message is not None:
                        self._on_message(message)
            except Exception as exc:
                self.listening.clear()
                if backoff == 0.5:
                    logger.warning(
                        "live: the Redis subscription failed (%s); retrying, and waiting "
                        "clients fall back to the database re-check meanwhile",
                        exc,
                    )
                self._stopped.wait(backoff)
                backoff = min(backoff * 2, 10.0)
            finally:
                with self._confirmations:
                    self._confirmed.clear()
                    self._confirmations.notify_all()
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
        self.listening.clear()

    def _sync_subscriptions(self, pubsub: Any) -> None:
        """Subscribe the keys that gained a waiter, unsubscribe those without one for
        ``linger_seconds`` (listener thread). Costs nothing while nothing changed."""
        now = time.monotonic()
        if not self._dirty and now < self._linger_check_at:
            return
        with self._lock:
            self._dirty = False
            self._linger_check_at = now + min(1.0, max(self.linger_seconds, 0.05))
            for key, since in list(self._lingering.items()):
                if now - since >= self.linger_seconds:
                    del self._lingering[key]
            wanted = self._waiters.keys() | self._lingering.keys()
        added, dropped = wanted - self._subscribed, self._subscribed - wanted
        if added:
            pubsub.subscribe(*(self.channel(key) for key in added))
        if dropped:
            pubsub.unsubscribe(*(self.channel(key) for key in dropped))
        self._subscribed = wanted

    def _on_message(self, message: dict[str, Any]) -> None:
        try:
            kind = message["type"]
            name = message["channel"]
            name = name.decode() if isinstance(name, bytes) else str(name)
            key = name.removeprefix(self.prefix).removeprefix(CHANNEL_PREFIX)
            if kind in ("subscribe", "unsubscribe"):
                self._confirm(key, kind == "subscribe")
                return
            if kind != "message":
                return  # a health check's pong
            self.received += 1
            data = message["data"]
            data = data.decode() if isinstance(data, bytes) else str(data)
            if data.startswith("{"):
                body = json.loads(data)
                self.notify(key, int(body["version"]), news_from_json(body["news"]))
            else:
                self.notify(key, int(data))
        except Exception:
            logger.warning("live: ignoring a malformed Redis message %r", message)

    def _confirm(self, key: str, subscribed: bool) -> None:
        """Redis confirmed a subscription (or its end). A new one is caught up: what was
        announced between the waiter's read and now came before it."""
        with self._confirmations:
            if subscribed:
                self._confirmed.add(key)
            else:
                self._confirmed.discard(key)
            self._confirmations.notify_all()
        if not subscribed:
            return
        if key.startswith(USER_PREFIX):
            mark = self.user_mark(key.removeprefix(USER_PREFIX))
            if mark:
                self.notify(key, mark)
        else:
            with self._lock:
                self._fresh.add(key)
            self._kick.set()


def _woken(waiters: list[tuple[str, _Waiter]]) -> int | Side | None:
    """The main key's version if it woke, else the ``also`` key's as a ``Side``, else None."""
    version = waiters[0][1].version
    if version is not None or len(waiters) == 1:
        return version
    side = waiters[1][1].version
    return None if side is None else Side(side)


def news_from_json(news: dict[str, Any]) -> dict[str, Any]:
    """News as it came through Redis: the moves' times back to datetimes, as the database gives
    them (the serializers then write them alike whichever way the news came)."""
    for move in news.get("moves", ()):
        move["created_at"] = datetime.fromisoformat(move["created_at"])
    return news
