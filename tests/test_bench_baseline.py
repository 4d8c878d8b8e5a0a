"""The load benchmark's baseline endpoint (config/bench_views.py): exactly one SELECT … FOR
UPDATE, one UPDATE and one INSERT per request, and not mounted unless BENCH_BASELINE is set."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from rest_framework.test import APIRequestFactory, force_authenticate

from config.bench_views import BaselineView
from games.models import Game, Move
from players.models import User

pytestmark = pytest.mark.django_db


def post(user: User, game_id: object) -> tuple[int, object, list[str]]:
    """Status, body and the statements run (transaction control left out)."""
    request = APIRequestFactory().post(f"/bench/baseline/{game_id}/")
    force_authenticate(request, user=user)
    with CaptureQueriesContext(connection) as ctx:
        response = BaselineView.as_view()(request, game_id=game_id)
    statements = [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))
    ]
    return response.status_code, response.data, statements


def test_each_request_is_one_locked_read_one_update_one_insert() -> None:
    user = User.objects.create_user(username="bench-baseline")
    game = Game.objects.create(host=user, status=Game.ABORTED)
    for expected in (1, 2, 3):
        status, data, statements = post(user, game.pk)
        assert status == 200
        assert data == {"version": expected}
        assert [sql.split()[0].upper() for sql in statements] == ["SELECT", "UPDATE", "INSERT"]
        if connection.vendor == "postgresql":  # SQLite has no row locks (nor the clause)
            assert statements[0].rstrip().endswith("FOR UPDATE")
    assert Move.objects.filter(game=game).count() == 3
    game.refresh_from_db()
    assert game.version == 3


def test_an_unknown_game_is_404() -> None:
    user = User.objects.create_user(username="bench-baseline")
    status, _, _ = post(user, uuid.uuid4())
    assert status == 404


def test_it_is_not_mounted_by_default() -> None:
    with pytest.raises(NoReverseMatch):
        reverse("bench-baseline", args=[uuid.uuid4()])
