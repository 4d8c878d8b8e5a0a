"""DATABASE_PREPARED_STATEMENTS: PostgreSQL plans a query the ORM repeats once per connection.

On PostgreSQL this opens connections to the test database next to the test's own, with the
options the setting gives (server-side binding, psycopg's prepare threshold) and with Django's
defaults, runs the same ORM query with different values on each, and asks the server which
statements that session holds prepared. SQLite has no such options, and the settings never give
them to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

from config.settings import PREPARE_THRESHOLD
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def opened(**options: Any) -> Any:
    """A connection (alias "other") to the test database with these OPTIONS."""
    settings = {
        **connection.settings_dict,
        "OPTIONS": {
            k: v
            for k, v in {**connection.settings_dict.get("OPTIONS", {}), **options}.items()
            if v is not None
        },
    }
    return ConnectionHandler({"default": connection.settings_dict, "other": settings})["other"]


def prepared_after_repeats(db: Any) -> list[str]:
    """Run one ORM query, with a new value each time, more often than the threshold on ``db``;
    the statements its session holds prepared."""
    for version in range(PREPARE_THRESHOLD + 2):
        query = Game.objects.filter(version=version).values("id").query
        sql, params = query.get_compiler(connection=db).as_sql()
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()
    with db.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_repeated_orm_query_is_prepared_once_with_the_setting_and_never_without() -> None:
    if connection.vendor != "postgresql":
        options = connection.settings_dict.get("OPTIONS", {})
        assert "server_side_binding" not in options and "prepare_threshold" not in options
        return
    db = opened(server_side_binding=True, prepare_threshold=PREPARE_THRESHOLD)
    try:
        statements = prepared_after_repeats(db)
    finally:
        db.close()
    # One statement, whatever the value: its text holds a placeholder, not the value.
    games = [s for s in statements if "games_game" in s]
    assert len(games) == 1 and '"version" = $1' in games[0], statements
    # Django's default: values bound on the client (each text differs), nothing prepared.
    db = opened(server_side_binding=None, prepare_threshold=None)
    try:
        assert prepared_after_repeats(db) == []
    finally:
        db.close()
