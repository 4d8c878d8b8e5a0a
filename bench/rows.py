"""Loading a benchmark's millions of rows fast: ``executemany`` on SQLite, ``COPY`` on PostgreSQL.

``bulk_create`` builds a model instance per row and compiles an INSERT per batch (about 80 rows
on SQLite, whose statements take 999 parameters): building 1,000,000 rating changes that way
took 25 to 40 minutes. A ``Rows`` takes a template instance's column values once, as Django
prepares them for this database (defaults, JSON, dates, UUIDs), and makes each row by replacing
only the columns that vary, so what is stored is what the ORM would have stored. Bench data only:
no signal is sent and no ``save()`` runs (as with ``bulk_create``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


class Rows:
    """Rows of ``model`` like ``model(**template)``, with the ``varying`` fields (attnames) set
    per row. A field with a callable default that must be unique (a UUID key, an invite code)
    gets a fresh default per row. An automatic id is left to the database."""

    def __init__(self, model: Any, template: dict[str, Any], varying: Sequence[str]) -> None:
        from django.db import connection, models

        self.model = model
        instance = model(**template)
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
        ]
        self.base = [self._prep(f, f.pre_save(instance, True)) for f in self.fields]
        index = {f.attname: i for i, f in enumerate(self.fields)}
        self.fresh = [
            (i, f)
            for i, f in enumerate(self.fields)
            if (f.unique or f.primary_key) and callable(f.default) and f.attname not in varying
        ]
        self.varying = [(index[name], self.fields[index[name]]) for name in varying]
        self.connection = connection

    def _prep(self, field: Any, value: Any) -> Any:
        from django.db import connection

        return field.get_db_prep_save(value, connection)

    def row(self, *values: Any) -> list[Any]:
        """One row: the template's values, ``values`` in the order of ``varying``."""
        row = list(self.base)
        for i, field in self.fresh:
            row[i] = self._prep(field, field.get_default())
        for (i, field), value in zip(self.varying, values, strict=True):
            row[i] = self._prep(field, value)
        return row

    def value(self, attname: str, row: list[Any]) -> Any:
        """A column's value in ``row`` as stored (a key to refer to the row by)."""
        return row[next(i for i, f in enumerate(self.fields) if f.attname == attname)]

    def insert(self, rows: Iterable[list[Any]]) -> None:
        """Write ``rows`` (in the caller's transaction)."""
        quote = self.connection.ops.quote_name
        table = quote(self.model._meta.db_table)
        columns = ", ".join(quote(f.column) for f in self.fields)
        with self.connection.cursor() as cursor:
            if self.connection.vendor == "postgresql":
                # psycopg's COPY (the wrapper hands the call to its cursor): no statement per row.
                with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * len(self.fields))
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(rows))
