"""More streams than the live process has pooled database connections, through a real uvicorn
serving ``config.asgi`` (with ``live.threads.RequestThreads``) on the pass's database.

On the PostgreSQL pass the server gets a fresh database and a pool of one connection, the shape
of the live process in docker-compose.yml made small: six streams wait, yet game views and moves
are answered and every stream hears the move. Before ``RequestThread`` closed a released thread's
connections, a stream's opening request left one checked out for good (the last-seen stamp),
and the next request waited out DATABASE_POOL_TIMEOUT and got a 503. On the SQLite pass there is
no pool and the same run checks the same answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.databases import fresh_database
from tests.live.servers import (
    Deployment,
    EventReader,
    move_through_api,
    open_stream,
    prepare_database,
    request,
    start_server,
    stop_server,
)

pytestmark = pytest.mark.services

POOL_SIZE = 1
STREAMS_PER_PLAYER = 3


def pass_postgres() -> str | None:
    """The pass's PostgreSQL server (its ``postgres`` database), or None on the SQLite pass."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


@pytest.fixture(scope="module")
def pooled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    folder = tmp_path_factory.mktemp("live-pool")
    database = folder / "live.sqlite3"
    extra = {"DATABASE_POOL_SIZE": str(POOL_SIZE), "DATABASE_POOL_TIMEOUT": "3"}
    with ExitStack() as cleanup:
        admin = pass_postgres()
        if admin is not None:
            extra["DATABASE_URL"] = cleanup.enter_context(fresh_database(admin, "live_pool"))
        setup = prepare_database(database, None, extra)
        server = start_server(database, folder / "uvicorn.log", extra=extra)
        cleanup.callback(stop_server, server)
        yield Deployment([server], setup["game"], setup["tokens"])


def test_waiting_streams_hold_none_of_the_pools_connections(pooled: Deployment) -> None:
    version = pooled.version()
    path = f"/api/v1/games/{pooled.game}/stream/?after={version}"
    connections, readers = [], []
    try:
        for token in pooled.players() * STREAMS_PER_PLAYER:
            connection, response = open_stream(pooled.base, path, token)
            connections.append(connection)
            assert response.status == 200, response.read()
            reader = EventReader(response)
            reader.start()
            first = reader.next(10)
            assert first is not None and first.event == "version"
            assert first.json()["version"] == version
            readers.append(reader)
        assert len(readers) > POOL_SIZE

        # With every stream waiting: views and moves get connections at once.
        for token in pooled.players():
            status, _, view = request(f"{pooled.base}/api/v1/games/{pooled.game}/", token)
            assert status == 200, view
        new_version = move_through_api(pooled.base, pooled.players(), pooled.game)

        for reader in readers:
            update = reader.next(10)
            assert update is not None and update.event == "version"
            assert update.json()["version"] == new_version
    finally:
        for connection in connections:
            connection.close()
