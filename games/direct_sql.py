"""Hand-written SQL for the statements every game action runs: lock the game with its seats,
insert rows, save the game.

Django's ORM compiles each query anew, and on the action path that compiling was most of the
work: 0.7 to 2.5 ms of CPU per statement against about 0.1 ms for the same round trip by hand
(docs/performance.md). Here each statement's SQL is built once per model and database from the
model's ``_meta``, quoted by the backend, and cached. Values go through the field methods the
ORM itself uses (``pre_save`` and ``get_db_prep_save`` on the way in; the backend's and the
field's converters on the way out), so the rows written are the ORM's rows and the instances read
are the ORM's instances, on SQLite and PostgreSQL alike. The statements run on Django's cursor:
transactions, savepoints and query counting see them as usual.

No model signal is sent. None is connected to the models written here; tests/games/
test_direct_sql.py fails if one ever is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper

from games.models import Game, Seat
from players.models import User

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


def _connection(model: type[models.Model]) -> BaseDatabaseWrapper:
    return connections[router.db_for_write(model)]


def _q(connection: BaseDatabaseWrapper, name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _insert_fields(model: type[models.Model]) -> tuple[models.Field[Any, Any], ...]:
    """The columns an insert writes: all but a primary key the database numbers itself."""
    return tuple(f for f in model._meta.local_concrete_fields if f is not model._meta.auto_field)


# ---------------------------------------------------------------------------------------------
# Writing


@cache
def _insert_sql(model: type[models.Model], alias: str, rows: int) -> str:
    connection = connections[alias]
    fields = _insert_fields(model)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (
        f"INSERT INTO {_q(connection, model._meta.db_table)} "
        f"({', '.join(_q(connection, f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * rows)} RETURNING {_q(connection, model._meta.pk.column)}"
    )


def insert(objs: Sequence[models.Model]) -> None:
    """INSERT these new instances of one model in one statement, and set their primary keys
    (as ``bulk_create`` on PostgreSQL would, without compiling the statement each time)."""
    if not objs:
        return
    model = type(objs[0])
    connection = _connection(model)
    if not connection.features.can_return_rows_from_bulk_insert:
        model._default_manager.bulk_create(objs)  # a database without INSERT … RETURNING
        return
    fields = _insert_fields(model)
    params: list[Any] = []
    for obj in objs:
        params.extend(f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, connection.alias, len(objs)), params)
        keys = cursor.fetchall()
    pk = model._meta.pk
    col = pk.get_col(model._meta.db_table)
    converters = _converters(connection, pk)
    for obj, (key,) in zip(objs, keys, strict=True):
        for convert in converters:
            key = convert(key, col, connection)
        obj.pk = key
        obj._state.adding = False
        obj._state.db = connection.alias


@cache
def _update_sql(model: type[models.Model], alias: str) -> str:
    connection = connections[alias]
    pk = model._meta.pk
    sets = ", ".join(
        f"{_q(connection, f.column)} = %s" for f in model._meta.local_concrete_fields if f != pk
    )
    return (
        f"UPDATE {_q(connection, model._meta.db_table)} SET {sets} "
        f"WHERE {_q(connection, pk.column)} = %s"
    )


def update(obj: models.Model) -> None:
    """UPDATE every column of a saved instance's row, as ``obj.save()`` does."""
    model = type(obj)
    connection = _connection(model)
    pk = model._meta.pk
    params = [
        f.get_db_prep_save(f.pre_save(obj, False), connection)
        for f in model._meta.local_concrete_fields
        if f != pk
    ]
    params.append(pk.get_db_prep_value(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, connection.alias), params)
        if cursor.rowcount != 1:
            raise model.DoesNotExist(f"No {model.__name__} row {obj.pk} to update.")


# ---------------------------------------------------------------------------------------------
# Reading


def _converters(connection: BaseDatabaseWrapper, field: models.Field[Any, Any]) -> list[Converter]:
    # What the ORM's compiler applies to a plain column: the backend's, then the field's.
    col = field.get_col(field.model._meta.db_table)
    return [*connection.ops.get_db_converters(col), *field.get_db_converters(connection)]


class _Columns:
    """One model's concrete columns in a hand-written SELECT, and a row back into an instance."""

    def __init__(self, model: type[models.Model], table: str, connection: BaseDatabaseWrapper):
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f"{table}.{_q(connection, f.column)}" for f in self.fields)
        # Built with the first connection of this alias; each call passes its own connection
        # (the converters read settings and their arguments, not a connection's state).
        converters = [
            (i, f.get_col(table), _converters(connection, f)) for i, f in enumerate(self.fields)
        ]
        self.converters = [c for c in converters if c[2]]

    def load(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> Any:
        row = list(values)
        for i, col, converters in self.converters:
            for convert in converters:
                row[i] = convert(row[i], col, connection)
        return self.model.from_db(connection.alias, self.names, row)


class _LockWithSeats:
    """The statement behind ``lock_with_seats`` on one database, built once."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        q = connection.ops.quote_name
        self.seat = _Columns(Seat, "s", connection)
        self.game = _Columns(Game, "g", connection)
        self.user = _Columns(User, "u", connection)
        game_pk = q(Game._meta.pk.column)
        lock = ""
        if connection.features.has_select_for_update_of:
            lock = " FOR UPDATE OF g"
        elif connection.features.has_select_for_update:
            lock = " FOR UPDATE"
        # The subquery reads the game's version in the statement's own snapshot; the joined row
        # is the locked one, as its holder committed it (see games.services._locked_with_seats).
        self.sql = (
            f"SELECT {self.seat.sql}, {self.game.sql}, {self.user.sql}, "
            f"(SELECT v.{q('version')} FROM {q(Game._meta.db_table)} v "
            f"WHERE v.{game_pk} = s.{q('game_id')}) "
            f"FROM {q(Seat._meta.db_table)} s "
            f"INNER JOIN {q(Game._meta.db_table)} g ON g.{game_pk} = s.{q('game_id')} "
            f"LEFT OUTER JOIN {q(User._meta.db_table)} u "
            f"ON u.{q(User._meta.pk.column)} = s.{q('user_id')} "
            f"WHERE s.{q('game_id')} = %s "
            f"ORDER BY s.{q('position')} ASC, s.{q('joined_at')} ASC{lock}"
        )
        self.seat_end = len(self.seat.fields)
        self.game_end = self.seat_end + len(self.game.fields)
        self.user_end = self.game_end + len(self.user.fields)


@cache
def _lock_with_seats_statement(alias: str) -> _LockWithSeats:
    return _LockWithSeats(connections[alias])


def lock_with_seats(game_pk: Any) -> tuple[Game, list[Seat], int] | None:
    """The game row locked until the transaction ends (on PostgreSQL; SQLite's writers take
    turns), its seats in ``Seat.Meta.ordering`` with their users, and the game's version as the
    statement's snapshot saw it. None when the game has no seat (no such game). ``game_pk`` is a
    UUID already (``Game._meta.pk.to_python``). Caller holds a transaction."""
    connection = _connection(Seat)
    statement = _lock_with_seats_statement(connection.alias)
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [Game._meta.pk.get_db_prep_value(game_pk, connection)])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    game: Game = statement.game.load(connection, first[statement.seat_end : statement.game_end])
    seats = []
    for row in rows:
        seat: Seat = statement.seat.load(connection, row[: statement.seat_end])
        user_values = row[statement.game_end : statement.user_end]
        user = statement.user.load(connection, user_values) if user_values[0] is not None else None
        # As select_related would leave them: one Game instance for all seats (the move saves
        # it, and every seat must see that), and each seat's user or None.
        seat._state.fields_cache["game"] = game
        seat._state.fields_cache["user"] = user
        seats.append(seat)
    return game, seats, first[statement.user_end]
