"""Raw SQL for hot write paths, where building the ORM's statement costs more than running it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.db import models, transaction

M = TypeVar("M", bound=models.Model)


def rows_update(objs: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Save ``fields`` of model instances (one model) in one ``UPDATE ... FROM (VALUES ...)`` statement.

    What ``bulk_update`` does, without its ``CASE WHEN`` per row and field (slow to build and to
    plan). PostgreSQL and SQLite (3.33+) both speak ``UPDATE ... FROM``, and both name the columns
    of ``VALUES`` column1, column2, ...; every value is cast to its column's type.
    """
    if not objs:
        return
    meta = type(objs[0])._meta
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    casts = [f"CAST(v.column{i} AS {field.db_type(connection)})" for i, field in enumerate(columns, start=1)]
    sets = ", ".join(f"{quote(field.column)} = {cast}" for field, cast in zip(columns[1:], casts[1:]))
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    table = quote(meta.db_table)
    sql = (f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(objs))}) AS v "
           f"WHERE {table}.{quote(meta.pk.column)} = {casts[0]}")
    params = [field.get_db_prep_save(getattr(obj, field.attname), connection) for obj in objs for field in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rows_insert(objs: Sequence[M]) -> list[M]:
    """Insert new model instances (one model, an auto primary key) as ``bulk_create`` does, in one
    statement ``RETURNING`` their primary keys (set on them, in the order of the rows).

    Without the ORM's per-object compilation (slow to build for a few dozen rows). PostgreSQL
    receives one array per column (``UNNEST``); SQLite (3.35+) rows of ``VALUES``, in batches of
    as many parameters as it allows.
    """
    if not objs:
        return list(objs)
    meta = type(objs[0])._meta
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
    tail = f" RETURNING {quote(meta.pk.column)}"
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
        statements = [(f"{head}SELECT * FROM UNNEST({arrays}){tail}", objs,
                       [[field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs]
                        for field in fields])]
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
