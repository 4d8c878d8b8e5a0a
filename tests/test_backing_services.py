"""The configured database and cache work, whichever backends the environment selects.

CI runs this file twice: on the embedded defaults (SQLite, local memory) and on PostgreSQL + Redis.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

# The cache test needs no database, but its point is the pass's backend (Redis).
pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_the_database_stores_and_returns_a_row() -> None:
    Session.objects.create(
        session_key="alice-session", session_data="{}", expire_date=timezone.now()
    )
    assert Session.objects.get(session_key="alice-session").session_data == "{}"


@pytest.mark.django_db
def test_the_database_is_the_configured_vendor() -> None:
    expected = "sqlite" if "sqlite" in settings.DATABASES["default"]["ENGINE"] else "postgresql"
    assert connection.vendor == expected


def test_the_cache_round_trips_a_value() -> None:
    cache.set("test:greeting", {"to": "bob"}, timeout=30)
    try:
        assert cache.get("test:greeting") == {"to": "bob"}
    finally:
        cache.delete("test:greeting")
