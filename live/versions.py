"""The database side of the notifier's re-check: the readers the apps register (a game's version,
an app's marks of its own keys) and the one function that asks them; apart from the notifier so
that its waiters and Redis subscriptions read alone."""

from __future__ import annotations

from collections.abc import Callable

from django.db import close_old_connections

VersionSource = Callable[[list[str]], dict[str, int]]

_game_versions: VersionSource | None = None
# Readers of other keys' marks by the keys' prefix (the chat's ``chat:<game id>``).
_prefixed: dict[str, VersionSource] = {}


def read_versions_with(source: VersionSource) -> None:
    """Read game versions with ``source`` (the games app's, from its ``AppConfig.ready``): the
    database re-check's reader."""
    global _game_versions
    _game_versions = source


def read_marks_with(prefix: str, source: VersionSource) -> None:
    """Read the marks of the keys starting with ``prefix`` with ``source`` (given the keys
    without it): an app's own keys beside the games' (the chat app's, from its
    ``AppConfig.ready``), re-checked like a game's version."""
    _prefixed[prefix] = source


def db_versions(game_ids: list[str]) -> dict[str, int]:
    """The current versions of these games (and marks of prefixed keys), read from the database
    (through the apps' readers; none before they are ready)."""
    try:
        prefixes = tuple(_prefixed)
        games = [key for key in game_ids if not (prefixes and key.startswith(prefixes))]
        found = {} if _game_versions is None or not games else dict(_game_versions(games))
        for prefix, source in list(_prefixed.items()):
            keys = [key.removeprefix(prefix) for key in game_ids if key.startswith(prefix)]
            if keys:
                found.update({prefix + key: mark for key, mark in source(keys).items()})
        return found
    finally:
        # What request_finished does for a request: honour CONN_MAX_AGE, drop broken connections.
        close_old_connections()


def release_db() -> None:
    """Close this thread's database connections (the re-check thread, when idle)."""
    from django.db import connections

    connections.close_all()
