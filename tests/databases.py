"""A PostgreSQL database of a test's own, on a server the test does not own: made empty, dropped
afterwards (the stack tests' services, a live server with a small connection pool)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg


@contextmanager
def fresh_database(admin_url: str, prefix: str) -> Iterator[str]:
    """A new, empty database on the server of ``admin_url`` (a URL naming a database that
    exists, e.g. ``postgres``); yields its URL and drops it afterwards."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = admin_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
