"""Live updates: tell waiting clients that a game has a new version, or a player has news.

``publish`` is the one entry point: the services queue it with ``transaction.on_commit`` (a game's
new version from ``games.services``, a player's new notifications from ``notifications.services``),
so a waiting client is only woken for a state it can read. Waiting happens in the stream driver
(``live.driver``: the game streams, the account stream, the long-polls) through ``Notifier.wait``.
This module knows no app's models: the games app hands it the reader of game versions that the
database re-check uses (``read_versions_with``, in its ``AppConfig.ready``).

Three ways a waiter learns of a new version, so that no single one has to be reliable:

- **In-process**: ``publish`` wakes the waiters of this process at once (the embedded default,
  where the web process applies every move, including timeouts from its background thread).
- **Redis pub/sub** (when ``REDIS_URL`` is set): ``publish`` also sends the version on channel
  ``<prefix>game:<id>``; a process listens (in a daemon thread) only to the games its own clients
  wait on, and wakes them. This covers moves applied by another web process or a Celery worker.
  A move is thus sent to the processes that watch its game, not to every process: the fan-out
  grows with watchers, not with processes (see "Subscriptions" below).
- **The database**: while anyone waits, a daemon thread reads the versions of the watched games
  every ``RECHECK_SECONDS`` (one query for all of them) and wakes the waiters of any game that
  moved on. A lost message, Redis being down, or a change that publishes nothing (lobby joins,
  expired lobbies) is therefore seen within about a second anyway.

An app may announce on keys of its own beside a game's (the chat app: ``chat:<game id>``, its
last message's id), on all three paths: it registers the reader of their marks for the database
re-check (``read_marks_with``), and a stream waits on such a key beside its game's (``Wait``'s
``also``; the driver answers a ``Side`` when that key woke it).

A player's key (``user_key``) announces, on the same three paths but the database re-check, that a
player's list of games changed without a version of a game they wait on moving: a game created with
them in it, a rematch they are invited to. Its key is ``user:<id>`` (``<prefix>game:user:<id>`` on
Redis) and its "version" a counter of the player's own (``user_mark``: a Redis ``INCR`` shared by
every process, or this process's own counter without Redis): a waiter reads it before reading the
database and waits for an announcement above it. With Redis down and several processes, "My games"
hears of such a game when its long-poll times out.

**The news.** A move's announcement carries its public news (``selectors.move_news``: the new
version and status, whose turn, and the move with the events a player without a seat may see),
on all three paths but the database re-check. The notifier keeps the last few per game, so a
stream woken by a version forwards it without reading the game back (``news_after``); a stream
that lacks one (a lost message, a version only the re-check saw) reads the database as before.
The news is sent to every process and every stream of the game as it is, so it never holds what
any one seat may not see; ``private`` names the seats that see more of the move (a card they
drew), whose streams read their own events.

**Subscriptions.** The first waiter of a key in a process asks for its channel; the listener
thread (which alone touches the subscription's connection) sends ``SUBSCRIBE`` within
``SUBSCRIBE_POLL_SECONDS`` and ``UNSUBSCRIBE`` once the key has had no waiter for
``LINGER_SECONDS`` (the gap between two long-polls, or a stream's reconnection, keeps it). An
announcement made between a client's read and its subscription's confirmation would be missed,
so each confirmation is followed by a catch-up: a game's version from the database (the re-check
thread, at once, for the newly subscribed games only), a player's counter from Redis. After a
lost connection every channel is subscribed again and caught up alike.

**The prefix.** Redis pub/sub ignores database numbers: every client of a server hears every
channel. Channels and counters carry ``settings.LIVE_CHANNEL_PREFIX`` (by default derived from
the database's engine, host, port and name), so two deployments on one Redis never hear each
other.

``publish`` never raises: a move is committed before it runs, and failing to announce it must not
turn a successful move into an error. Failures are logged; the database re-check covers them.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from live.notifier import (
    RECHECK_SECONDS,
    USER_PREFIX,
    Notifier,
    Side,
)
from live.versions import read_marks_with, read_versions_with

__all__ = [
    "MAX_WAIT_SECONDS",
    "USER_PREFIX",
    "Notifier",
    "Side",
    "Wait",
    "channel",
    "notifier",
    "publish",
    "read_marks_with",
    "read_versions_with",
    "stop_notifier",
    "user_key",
    "user_mark",
]

logger = logging.getLogger(__name__)

# The longest a client may ask to wait (`events/?wait=`): below the 30 s many proxies and mobile
# networks allow an idle request.
MAX_WAIT_SECONDS = 25


def channel(game_id: Any) -> str:
    """The Redis channel of a game's versions in this deployment (``"*"``: a pattern of all)."""
    return notifier().channel(game_id)


@dataclass(frozen=True)
class Wait:
    """What a view found when it had nothing to answer yet: wait for a version above
    ``version`` of ``game_id`` for up to ``seconds``, then ask the view again."""

    game_id: str
    version: int
    seconds: float
    user_id: int | None = None


_notifier: Notifier | None = None
_notifier_lock = threading.Lock()


def notifier() -> Notifier:
    """This process's notifier, configured from the settings on first use."""
    global _notifier
    if _notifier is None:
        with _notifier_lock:
            if _notifier is None:
                from django.conf import settings

                _notifier = Notifier(
                    redis_url=getattr(settings, "REDIS_URL", None) or None,
                    recheck_seconds=float(
                        getattr(settings, "LIVE_RECHECK_SECONDS", RECHECK_SECONDS)
                    ),
                    prefix=getattr(settings, "LIVE_CHANNEL_PREFIX", ""),
                )
    return _notifier


def stop_notifier() -> None:
    """Stop this process's notifier; the next use starts a new one.

    For tests whose live server outlives their browsers: a WSGI server cannot see a client hang
    up, so a closed page's long-polls and streams go on waiting (a stream even waits again after
    each keep-alive). Left to the running notifier, its re-check would read the test database
    while pytest blocks it between tests and after dropping it, and log each as a failure. They
    keep the stopped notifier, whose threads have ended."""
    global _notifier
    with _notifier_lock:
        stopped, _notifier = _notifier, None
    if stopped is not None:
        stopped.stop()


def publish(key: Any, version: int | None = None, news: dict[str, Any] | None = None) -> None:
    """Announce, after commit: the one entry point of the services. ``key`` is a game's id, with
    its new ``version`` and the change's public ``news``; or a player's ``user_key`` (their list of
    games or their notifications changed), whose version is the player's counter, advanced here
    (``version`` None). Never raises: what it announces is committed already."""
    try:
        key = str(key)
        if version is None:
            version = notifier().user_mark(key.removeprefix(USER_PREFIX), advance=True)
        notifier().publish(key, version, news)
    except Exception:
        logger.exception("live: publishing version %s of %s failed", version, key)


def user_key(user_id: Any) -> str:
    """The notifier's key of a player's own announcements (``publish(user_key(id))``)."""
    return f"{USER_PREFIX}{user_id}"


def user_mark(user_id: Any) -> int:
    """The player's last announcement on ``user_key``, as a number: read it before reading the
    database, and wait on ``user_key`` for an announcement above it."""
    try:
        return notifier().user_mark(user_id)
    except Exception:
        logger.exception("live: reading the announcement counter of player %s failed", user_id)
        return 0
