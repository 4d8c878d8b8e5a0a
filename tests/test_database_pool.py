"""DATABASE_POOL_SIZE: pooled PostgreSQL connections are handed back and reused.

On PostgreSQL this opens a pooled connection to the test database next to the test's own and
checks that a closed connection goes back to the pool: the next one is the same server backend.
SQLite has nothing to pool, and the settings never give it a pool.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

pytestmark = pytest.mark.django_db(transaction=True)


def pooled(**pool: Any) -> Any:
    """A connection (alias "pooled") to the test database through a pool of its own."""
    settings = {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "OPTIONS": {**connection.settings_dict.get("OPTIONS", {}), "pool": pool},
    }
    return ConnectionHandler({"default": connection.settings_dict, "pooled": settings})["pooled"]


def test_a_closed_connection_goes_back_to_the_pool() -> None:
    if connection.vendor != "postgresql":
        assert "pool" not in connection.settings_dict.get("OPTIONS", {})
        return
    # One connection at most: the pool cannot grow a second one in the background.
    db = pooled(min_size=1, max_size=1, timeout=5)
    try:
        backends = []
        for _ in range(3):
            with db.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends.append(cursor.fetchone()[0])
            db.close()  # what the end of a request does
        assert len(set(backends)) == 1, backends
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] not in backends
    finally:
        db.close_pool()


def test_an_exhausted_pool_is_a_database_error_answered_503() -> None:
    """A request that waits longer than DATABASE_POOL_TIMEOUT for a connection gets the
    OperationalError that config/errors.py answers with 503 and Retry-After."""
    from django.db import OperationalError

    from config.errors import DATABASE_UNAVAILABLE

    if connection.vendor != "postgresql":
        return
    holder = pooled(min_size=1, max_size=1, timeout=0.5)
    try:
        holder.ensure_connection()  # takes the pool's only connection
        waiter = ConnectionHandler(  # another thread's connection, from the same pool
            {"default": connection.settings_dict, "pooled": holder.settings_dict}
        ).create_connection("pooled")
        with pytest.raises(OperationalError) as raised:
            waiter.ensure_connection()
        assert isinstance(raised.value, DATABASE_UNAVAILABLE)
    finally:
        holder.close()
        holder.close_pool()
