"""Precompiled SQL for the hottest statements: written once, run through ``connection.cursor``.

The ORM builds, clones and compiles a query on every call: for a request made of a few small
statements that is most of its Python time (issue 13). A statement whose shape never changes can
be a module-level SQL string instead; ``Columns`` names a model's columns for such a statement and
turns the selected values back into a model instance exactly as the ORM would (the same database
converters: JSON text, SQLite's dates and booleans; ``Model.from_db``, so unselected columns are
deferred and load on access). Use it only where a profile shows the ORM's cost; everything else
stays a queryset.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper

M = TypeVar("M", bound=models.Model)

_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


def quoted(name: str) -> str:
    """An identifier quoted for SQL (PostgreSQL and SQLite both use double quotes)."""
    return f'"{name}"'


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
        return ", ".join(f"{table}.{quoted(f.column)}" for f in self.fields)

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

    def instance(self, row: Sequence[Any], connection: BaseDatabaseWrapper, *, start: int = 0) -> M:
        """The model instance of ``row[start:start + width]`` (loaded from the database: not adding)."""
        values = list(row[start:start + self.width])
        for index, column, converters in self._converters_for(connection):
            value = values[index]
            for converter in converters:
                value = converter(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.attnames, values)
