"""The database: PostgreSQL from DATABASE_URL or SQLite, pool and prepared statements.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_str, env_url

DATABASE_URL = env_url(
    "DATABASE_URL",
    default=None,
    help="Database URL, e.g. postgres://user:pass@host:5432/name. Unset: SQLite.",
)
SQLITE_PATH = env_str(
    "SQLITE_PATH",
    default=str(BASE_DIR / "db.sqlite3"),
    help="SQLite file used when DATABASE_URL is unset.",
)
# 0 by default: under ASGI every request runs in its own thread, so a kept connection is never
# reused and persistent connections pile up until PostgreSQL refuses new ones.
CONN_MAX_AGE = env_int(
    "CONN_MAX_AGE",
    default=0,
    min_value=0,
    help="Seconds to keep a PostgreSQL connection open (0: close after each request).",
)
# A pool per process hands each request an open connection and takes it back at the end, so
# PostgreSQL does not start (and tear down) a backend per request; its maximum also bounds how
# many requests of one process use the database at once (the others wait up to the timeout,
# then get a 503). Django's pool needs CONN_MAX_AGE=0.
DATABASE_POOL_SIZE = env_int(
    "DATABASE_POOL_SIZE",
    default=0,
    min_value=0,
    help="PostgreSQL connections pooled per process (0: no pool, one connection per request).",
)
DATABASE_POOL_TIMEOUT = env_int(
    "DATABASE_POOL_TIMEOUT",
    default=10,
    min_value=1,
    help="Seconds a request waits for a pooled connection before it is answered 503.",
)
# Prepared statements: psycopg sends a query's text and its values apart (server-side binding),
# so a query the ORM builds has the same text on every request, and prepares it on the
# connection after its fifth run (psycopg's default threshold): PostgreSQL then parses and plans
# it once per connection instead of once per request. Needs connections that live across
# requests (CONN_MAX_AGE or the pool) and no pooler in transaction mode in between (PgBouncer
# before 1.21 loses prepared statements), which is why Django leaves it off by default.
DATABASE_PREPARED_STATEMENTS = env_bool(
    "DATABASE_PREPARED_STATEMENTS",
    default=False,
    help="PostgreSQL: server-side binding and prepared statements (repeated queries planned once).",
)
PREPARE_THRESHOLD = 5

# SQLite locks the whole file for writes. With the default DEFERRED transactions two requests can
# both start reading, then both try to upgrade to a write lock, and one fails at once with
# "database is locked". IMMEDIATE takes the write lock at BEGIN, so the second writer waits (up to
# `timeout` seconds) instead. WAL lets readers carry on while a writer holds the lock.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL;",
}

_database: dict[str, Any]
if DATABASE_URL:
    _database = dict(
        dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
    )
    if DATABASE_PREPARED_STATEMENTS and _database["ENGINE"] == "django.db.backends.postgresql":
        _database["OPTIONS"] = {
            **_database.get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": PREPARE_THRESHOLD,
        }
    if DATABASE_POOL_SIZE and _database["ENGINE"] == "django.db.backends.postgresql":
        if CONN_MAX_AGE:
            raise ImproperlyConfigured("DATABASE_POOL_SIZE needs CONN_MAX_AGE=0.")
        _database["OPTIONS"] = {
            **_database.get("OPTIONS", {}),
            "pool": {
                "min_size": min(2, DATABASE_POOL_SIZE),
                "max_size": DATABASE_POOL_SIZE,
                "timeout": DATABASE_POOL_TIMEOUT,
            },
        }
else:
    _database = {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH}
if _database["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite connections are cheap and file locks are per connection: never keep them around.
    _database["CONN_MAX_AGE"] = 0
    _database["OPTIONS"] = {**SQLITE_OPTIONS, **_database.get("OPTIONS", {})}
    # Tests get a file, not Django's default in-memory database: shared-cache memory databases
    # lock whole tables and ignore the busy timeout, so tests with concurrent writers (a live
    # server, threads) would fail where the real file-backed service waits its turn.
    _database["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"unoallwild-test-{os.getpid()}.sqlite3")
    }
DATABASES = {"default": _database}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "players.User"
