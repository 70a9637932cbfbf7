"""The stores' toolbox: precompiled SQL for the hottest statements, run through ``connection.cursor``.

The stores (``dungeons/runs/store.py``, ``combat/store.py``) hold every statement of their aggregate and
use these helpers; no domain module composes SQL with them itself.

The ORM builds, clones and compiles a query on every call: for a request made of a few small
statements that is most of its Python time (issue 13). A statement whose shape never changes can
be a module-level SQL string instead; ``Columns`` names a model's columns for such a statement and
turns the selected values back into a model instance exactly as the ORM would (the same database
converters: JSON text, SQLite's dates and booleans; ``Model.from_db``, so unselected columns are
deferred and load on access). Use it only where a profile shows the ORM's cost; everything else
stays a queryset.

``singletons_load`` reads several settings rows in one such statement.

``Prepared`` runs such a statement as a PostgreSQL prepared statement, planned once per session: for
the few statements whose planning costs more than their execution (an action's lock and write).

The write helpers ``rows_update`` and ``rows_insert`` replace ``bulk_update`` and ``bulk_create``
on the run paths, where building the ORM's statement costs more than running it; ``rows_update_sql``
gives ``rows_update``'s statement unexecuted, for a part of a store's data-modifying ``WITH``.
"""
from __future__ import annotations

import itertools
import json
import re
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import connection as default_connection
from django.db import models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

M = TypeVar("M", bound=models.Model)

_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

#: The largest id a row can have (PostgreSQL's bigint, SQLite's INTEGER). An id from a URL above it
#: names no row: a precompiled statement checks it first, as the ORM's lookups do (SQLite cannot even
#: bind such a number).
MAX_ROW_ID = 2**63 - 1


def quoted(name: str) -> str:
    """An identifier quoted for SQL (PostgreSQL and SQLite both use double quotes)."""
    return f'"{name}"'


def column_of(field: models.Field[Any, Any]) -> str:
    """A concrete field's column (the stubs allow None, which only a field without a column has)."""
    if field.column is None:
        raise ValueError(f"{field} has no column")
    return field.column


def concrete_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's field ``name``, which must be a column (not a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


class Columns(Generic[M]):
    """The concrete columns of ``model`` but ``exclude`` (field names), in the model's order."""

    def __init__(self, model: type[M], *, exclude: Iterable[str] = ()) -> None:
        skipped = set(exclude)
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if f.name not in skipped]
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: dict[str, list[tuple[int, Any, list[_Converter]]]] = {}

    def select(self) -> str:
        """The select list: ``"table"."column", ...``."""
        table = quoted(self.model._meta.db_table)
        return ", ".join(f"{table}.{quoted(column_of(f))}" for f in self.fields)

    def _converters_for(self, connection: BaseDatabaseWrapper) -> list[tuple[int, Any, list[_Converter]]]:
        found = self._converters.get(connection.vendor)
        if found is None:  # what SQLCompiler.get_converters finds for these columns
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if converters:
                    found.append((index, column, converters))
            self._converters[connection.vendor] = found
        return found

    def values(self, row: Sequence[Any], connection: BaseDatabaseWrapper, *, start: int = 0) -> list[Any]:
        """The values of ``row[start:start + width]`` as the ORM converts them, in ``attnames`` order."""
        values = list(row[start:start + self.width])
        for index, column, converters in self._converters_for(connection):
            value = values[index]
            for converter in converters:
                value = converter(value, column, connection)
            values[index] = value
        return values

    def mapping(self, row: Sequence[Any], connection: BaseDatabaseWrapper, *,
                start: int = 0) -> dict[str, Any]:
        """``values`` by attname (e.g. to build a store's frozen row)."""
        return dict(zip(self.attnames, self.values(row, connection, start=start)))

    def instance(self, row: Sequence[Any], connection: BaseDatabaseWrapper, *, start: int = 0) -> M:
        """The model instance of ``row[start:start + width]`` (loaded from the database: not adding)."""
        return self.model.from_db(connection.alias, self.attnames, self.values(row, connection, start=start))


#: The write helpers' statements, built once per model, fields, row count and database vendor.
_WRITES: dict[tuple[Any, ...], Any] = {}


def rows_update(objs: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Save ``fields`` of model instances (one model) in one ``UPDATE ... FROM (VALUES ...)`` statement.

    What ``bulk_update`` does, without its ``CASE WHEN`` per row and field (slow to build and to
    plan). PostgreSQL and SQLite (3.33+) both speak ``UPDATE ... FROM``, and both name the columns
    of ``VALUES`` column1, column2, ...; on PostgreSQL every value is cast to its column's type.
    """
    if not objs:
        return
    connection = transaction.get_connection()
    sql, params = rows_update_sql(objs, fields, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rows_update_sql(objs: Sequence[models.Model], fields: Sequence[str],
                    connection: BaseDatabaseWrapper) -> tuple[str, list[Any]]:
    """``rows_update``'s statement and parameters, unexecuted (e.g. a part of a data-modifying ``WITH``)."""
    model = type(objs[0])
    key = ("update", model, tuple(fields), len(objs), connection.vendor)
    found = _WRITES.get(key)
    if found is None:
        meta = model._meta
        quote = connection.ops.quote_name
        columns = [meta.pk, *(concrete_field(model, name) for name in fields)]
        # SQLite's CAST converts by the type name's affinity (a datetime's text would become a number):
        # there the values are stored as an ordinary UPDATE's are, by the column's affinity.
        casts = [f"v.column{i}" if connection.vendor == "sqlite"
                 else f"CAST(v.column{i} AS {field.db_type(connection)})"
                 for i, field in enumerate(columns, start=1)]
        sets = ", ".join(f"{quote(column_of(field))} = {cast}"
                         for field, cast in zip(columns[1:], casts[1:], strict=True))
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        table = quote(meta.db_table)
        rows = ", ".join([row] * len(objs))
        found = _WRITES[key] = (columns, (f"UPDATE {table} SET {sets} FROM (VALUES {rows}) AS v "
                                          f"WHERE {table}.{quote(column_of(meta.pk))} = {casts[0]}"))
    columns, sql = found
    return sql, [field.get_db_prep_save(getattr(obj, field.attname), connection)
                 for obj in objs for field in columns]


#: Columns whose prepared values are JSON's own (numbers, strings, booleans, null): an insert of many rows
#: passes them to PostgreSQL as one JSON document (``rows_insert``). Text is cast to ``text`` (the column
#: then refuses an over-long value, where a cast to ``varchar(n)`` would cut it).
_JSON_CASTS = {
    "AutoField": None, "BigAutoField": None, "SmallAutoField": None, "IntegerField": None,
    "BigIntegerField": None, "SmallIntegerField": None, "PositiveIntegerField": None,
    "PositiveSmallIntegerField": None, "PositiveBigIntegerField": None, "BooleanField": None,
    "FloatField": None, "CharField": "text", "TextField": "text",
}


def _from_json(field: models.Field[Any, Any], index: int, connection: BaseDatabaseWrapper) -> str | None:
    """The SQL of ``field``'s value in the element ``r`` of a JSON array of rows (``rows_insert``), or
    None if its values are not JSON's own. A JSON column (no encoder of its own) is the element itself,
    as its ``json.dumps`` would write it (None: SQL NULL, as the ORM stores it)."""
    if isinstance(field, models.JSONField):
        return None if field.encoder is not None else f"NULLIF(r->{index}, 'null'::jsonb)"
    target = field.target_field if isinstance(field, models.ForeignKey) else field
    internal = target.get_internal_type()
    if internal not in _JSON_CASTS:
        return None
    return f"(r->>{index})::{_JSON_CASTS[internal] or field.db_type(connection)}"


def _json_value(field: models.Field[Any, Any], obj: models.Model, connection: BaseDatabaseWrapper) -> Any:
    value = field.pre_save(obj, True)
    if isinstance(field, models.JSONField):
        return None if value is None else field.get_prep_value(value)
    return field.get_db_prep_save(value, connection)


def rows_insert(objs: Sequence[M]) -> list[M]:
    """Insert new model instances (one model, an auto primary key) as ``bulk_create`` does, in one
    statement ``RETURNING`` their primary keys (set on them, in the order of the rows).

    Without the ORM's per-object compilation (slow to build for a few dozen rows). PostgreSQL receives
    the rows as one JSON document (``jsonb_array_elements``) when every column's values are JSON's own
    (numbers, strings, booleans, JSON: one parameter to quote instead of one per value), else one array per
    column (``UNNEST``), and a single row as one row of ``VALUES``; SQLite (3.35+) rows of ``VALUES``,
    in batches of as many parameters as it allows.
    """
    if not objs:
        return list(objs)
    model = type(objs[0])
    connection = transaction.get_connection()
    many = connection.vendor == "postgresql" and len(objs) > 1
    key = ("insert", model, many, connection.vendor)
    found = _WRITES.get(key)
    if found is None:
        meta = model._meta
        quote = connection.ops.quote_name
        fields = [field for field in meta.concrete_fields if field is not meta.pk]
        head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
        values = [_from_json(field, i, connection) for i, field in enumerate(fields)] if many else []
        if many and all(values):
            head += f"SELECT {', '.join(v for v in values if v)} FROM jsonb_array_elements(%s::jsonb) r"
        elif many:
            arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
            head += f"SELECT * FROM UNNEST({arrays})"
        found = _WRITES[key] = (fields, head, many and all(values))
    fields, head, as_json = found
    tail = f" RETURNING {connection.ops.quote_name(model._meta.pk.column)}"
    statements: list[tuple[str, Sequence[M], list[Any]]]
    if as_json:
        rows = [[_json_value(field, obj, connection) for field in fields] for obj in objs]
        statements = [(f"{head}{tail}", objs, [json.dumps(rows, allow_nan=False)])]
    elif many:
        statements = [(f"{head}{tail}", objs, [[field.get_db_prep_save(field.pre_save(obj, True), connection)
                                                 for obj in objs] for field in fields])]
    else:
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        size = max(1, connection.ops.bulk_batch_size(fields, objs))
        statements = [(f"{head}VALUES {', '.join([row] * len(batch))}{tail}", batch,
                       [field.get_db_prep_save(field.pre_save(obj, True), connection)
                        for obj in batch for field in fields])
                      for batch in (objs[start:start + size] for start in range(0, len(objs), size))]
    with connection.cursor() as cursor:
        for sql, batch, params in statements:
            cursor.execute(sql, params)
            for obj, (pk,) in zip(batch, cursor.fetchall()):
                obj.pk = pk
                obj._state.adding, obj._state.db = False, connection.alias
    return list(objs)


_SINGLETONS: dict[tuple[type[models.Model], ...], tuple[list[Columns[Any]], str]] = {}


def singletons_load(*settings: type[Any]) -> list[Any]:
    """The rows of several ``backend.models.SingletonSettings`` tables read in one statement, as each
    one's ``load()`` reads it (for services that enforce the rules); a missing row is created by its
    ``load()``."""
    found = _SINGLETONS.get(settings)
    if found is None:
        columns = [Columns(model) for model in settings]
        tables = ", ".join(quoted(model._meta.db_table) for model in settings)
        where = " AND ".join(
            f"{quoted(model._meta.db_table)}.{quoted(model._meta.pk.column)} = {int(model.singleton_id)}"
            for model in settings)
        found = _SINGLETONS[settings] = (columns, (f"SELECT {', '.join(c.select() for c in columns)} "
                                                  f"FROM {tables} WHERE {where}"))
    columns, sql = found
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
    if row is None:
        return [model.load() for model in settings]
    rows, start = [], 0
    for column in columns:
        rows.append(column.instance(row, connection, start=start))
        start += column.width
    return rows


#: Every ``Prepared`` statement by its name (``prepared_sql``).
_PREPARED: dict[str, Prepared] = {}


def prepared_sql(statement: str) -> str:
    """The SQL a logged statement ran: a ``Prepared`` statement's own for its ``EXECUTE``, else itself
    (for tests and benches that read the statements' text)."""
    if statement.startswith("EXECUTE dd_"):
        found = _PREPARED.get(statement.split(" ", 2)[1])
        if found is not None:
            return found.sql
    return statement


class Prepared:
    """A fixed statement (``%s`` placeholders) that PostgreSQL plans once per database session.

    Issue 13: with client-side binding (server-side binding stays off) PostgreSQL plans every
    statement anew, and an action's locking join took 0.6 ms planned each time against 0.16 ms
    prepared. On a connection's first use the statement is ``PREPARE``d (directly on the driver's
    connection: it is not one of the request's statements, and it outlives a rollback), then each
    call is ``EXECUTE name(...)`` with the parameters still bound client-side. Elsewhere (SQLite, or
    ``settings.DB_PREPARED_STATEMENTS`` off: PgBouncer in transaction mode) the plain statement.
    """

    _names = itertools.count(1)

    def __init__(self, name: str, sql: str) -> None:
        self.sql = sql
        self.name = f"dd_{name}_{next(self._names)}"
        count = itertools.count(1)
        self._prepare = f"PREPARE {self.name} AS " + re.sub("%s", lambda _: f"${next(count)}", sql)
        self._execute = f"EXECUTE {self.name} ({', '.join(['%s'] * (next(count) - 1))})"
        self._sessions: weakref.WeakSet[Any] = weakref.WeakSet()
        _PREPARED[self.name] = self

    def execute(self, cursor: Any, params: Sequence[Any],
                connection: BaseDatabaseWrapper = default_connection) -> None:
        """Run the statement on ``cursor`` (a cursor of ``connection``)."""
        if connection.vendor != "postgresql" or not settings.DB_PREPARED_STATEMENTS:
            cursor.execute(self.sql, params)
            return
        session = connection.connection
        if session not in self._sessions:
            session.execute(self._prepare)
            self._sessions.add(session)
        cursor.execute(self._execute, params)
