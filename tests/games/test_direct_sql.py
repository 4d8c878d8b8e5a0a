"""games/direct_sql.py: the hand-written statements of the action path read and write exactly
what the ORM would, on SQLite and PostgreSQL (CI runs this file on both)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, models, transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

from games import direct_sql, services
from games.models import Game, IdempotencyRecord, Move, Seat
from notifications.models import Notification
from players.models import User

pytestmark = pytest.mark.django_db


def fields_of(obj: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def table() -> Game:
    """A running game of three: alice, a bot and bob, who has left (a seat with no position
    would be a lobby's; the game goes on with alice and the bot)."""
    alice = User.objects.create_user(username="alice", display_name="Alice", time_zone="Asia/Tokyo")
    bob = User.objects.create_user(username="bob")
    game = services.create_game(host=alice, max_players=3, target_score=0)
    services.join_game(user=bob, invite_code=game.invite_code)
    services.add_bot(user=alice, game_id=game.pk)
    services.leave_game(user=bob, game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def test_the_locked_game_and_its_seats_are_the_orms_instances(
    table: Game, django_assert_num_queries: Any
) -> None:
    expected = list(Seat.objects.filter(game=table).select_related("game", "user"))
    assert any(s.user is None for s in expected) and any(s.left_at for s in expected)
    with transaction.atomic():
        found = direct_sql.lock_with_seats(table.pk)
    assert found is not None
    game, seats, seen_version = found
    assert seen_version == game.version == table.version
    assert fields_of(game) == fields_of(table)
    assert isinstance(game.state, dict) and game.state == table.state  # JSON, decoded
    assert [s.pk for s in seats] == [s.pk for s in expected]  # Seat.Meta.ordering
    for seat, orm in zip(seats, expected, strict=True):
        assert fields_of(seat) == fields_of(orm)
        assert seat.game is game  # one instance for all: a move saves it
        if orm.user is None:
            assert seat.user is None
        else:
            assert fields_of(seat.user) == fields_of(orm.user)
        assert not seat._state.adding and seat._state.db == "default"
    # Nothing left to load: the users came with the seats.
    with django_assert_num_queries(0):
        assert [s.user.username if s.user else None for s in seats]


def test_a_game_without_seats_is_none(table: Game) -> None:
    with transaction.atomic():
        assert direct_sql.lock_with_seats(uuid.uuid4()) is None


def test_the_statement_locks_the_game_row_where_the_database_can() -> None:
    sql = direct_sql._lock_with_seats_statement(connection.alias).sql
    if connection.features.has_select_for_update_of:  # PostgreSQL
        assert sql.endswith(" FOR UPDATE OF g")
    else:  # SQLite: no row locks, its writers take turns
        assert "FOR UPDATE" not in sql


def test_inserted_rows_are_the_rows_bulk_create_writes(table: Game) -> None:
    alice = User.objects.get(username="alice")
    now = timezone.now()
    mine = [
        Notification(user=alice, kind="your_turn", game=table, data={"n": i, "é": [None]}, key=k)
        for i, k in enumerate(["a", None, "c"])
    ]
    theirs = [
        Notification(user=alice, kind="your_turn", game=table, data={"n": i, "é": [None]}, key=k)
        for i, k in enumerate(["x", None, "z"])
    ]
    for n in mine + theirs:
        n.created_at = now
    direct_sql.insert(mine)
    Notification.objects.bulk_create(theirs)
    assert all(n.pk and not n._state.adding for n in mine)
    assert len({n.pk for n in mine + theirs}) == 6
    for ours, orms in zip(mine, theirs, strict=True):
        stored = fields_of(Notification.objects.get(pk=ours.pk))
        reference = fields_of(Notification.objects.get(pk=orms.pk))
        assert stored == fields_of(ours)
        for name in ("id", "key", "event_id"):
            stored.pop(name), reference.pop(name)
        assert stored == reference
    direct_sql.insert([])  # nothing to do


def test_a_duplicate_key_is_djangos_integrity_error(table: Game) -> None:
    alice = User.objects.get(username="alice")
    record = {"user": alice, "key": "k", "request_hash": "h", "response_body": {"ok": True}}
    direct_sql.insert([IdempotencyRecord(**record)])
    with pytest.raises(IntegrityError), transaction.atomic():
        direct_sql.insert([IdempotencyRecord(**record)])
    assert IdempotencyRecord.objects.get().response_body == {"ok": True}


def test_update_writes_every_column_as_save_does(table: Game) -> None:
    game = Game.objects.get(pk=table.pk)
    game.version += 1
    game.state = {**game.state, "marker": ["é", 1, None]}
    game.turn_deadline = timezone.now() + timedelta(hours=3)
    game.current_user = None
    game.options = {"speed_mode": True}
    direct_sql.update(game)
    assert fields_of(Game.objects.get(pk=table.pk)) == fields_of(game)
    Move.objects.filter(game=game).delete()
    Seat.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(Game.DoesNotExist):
        direct_sql.update(game)


def test_no_signal_is_missed() -> None:
    """The statements send no model signals: none may be connected to the models written."""
    for model in (Game, Move, Notification, IdempotencyRecord):
        assert not pre_save.has_listeners(model), model
        assert not post_save.has_listeners(model), model
