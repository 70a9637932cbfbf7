"""Keyset (cursor) pagination on an indexed ``(key, id)`` ordering: no OFFSET, no COUNT(*).

The cursor is an opaque token carrying the last row's ``(key, id)``, signed with ``SECRET_KEY`` and
bound to the list and ordering it came from (a forged or foreign one is 400 ``invalid_cursor``,
never a query with a value of the wrong type); the next page is the rows
strictly after it in the ordering, selected by a row-value comparison that PostgreSQL answers
from the matching composite index however deep the page is.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import F, QuerySet
from django.db.models.expressions import Expression
from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan, TupleLessThan

from backend.api.converters import MAX_DB_ID
from backend.errors import InvalidInput

KEY_ALIAS = "keyset_key"
CURSOR_KEY, CURSOR_PK = "keyset_cursor_key", "keyset_cursor_pk"
CURSOR_SALT = "backend.api.pagination.cursor"
#: The longest string sort key a cursor may carry (names are far shorter).
MAX_KEY_LENGTH = 1000


@dataclass(frozen=True)
class Page:
    items: list[Any]
    next_cursor: str | None


def cursor_scope(queryset: QuerySet[Any], key: Expression | str, descending: bool) -> str:
    """What a cursor belongs to: the listed model and its ordering (a cursor of one ordering is
    refused by another, whose key column may have another type)."""
    key_expr = F(key) if isinstance(key, str) else key
    return f"{queryset.model._meta.label}:{key_expr}:{'desc' if descending else 'asc'}"


def encode_cursor(key: Any, pk: int, *, scope: str) -> str:
    """A signed token of the last row's ``(key, id)``: only this server (``SECRET_KEY``) makes one."""
    return signing.dumps([key, pk], salt=f"{CURSOR_SALT}:{scope}", compress=False)


def _invalid_cursor() -> InvalidInput:
    return InvalidInput("invalid_cursor", "The cursor is not one this server issued.")


def _bounded(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -MAX_DB_ID - 1 <= value <= MAX_DB_ID
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str) and len(value) <= MAX_KEY_LENGTH


def decode_cursor(token: str, *, scope: str) -> tuple[Any, int]:
    """The ``(key, id)`` of a cursor this server issued for ``scope``; anything else is 400 invalid_cursor.

    The signature is checked first; the values are then still checked against what a column can
    hold (64-bit ids, finite numbers), so a cursor signed by a leaked key cannot reach the database
    with a value it refuses.
    """
    try:
        key, pk = signing.loads(token, salt=f"{CURSOR_SALT}:{scope}")
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise _invalid_cursor() from exc
    if not (isinstance(pk, int) and _bounded(pk) and pk >= 1 and _bounded(key)):
        raise _invalid_cursor()
    return key, pk


def keyset_page(queryset: QuerySet[Any], *, key: Expression | str, descending: bool, cursor: str | None,
                page_size: int, values: Mapping[str, str | Expression], pk: str = "pk") -> Page:
    """One page of ``queryset`` ordered by ``(key, id)`` (both descending when ``descending``).

    Rows come back as dicts of ``values`` (output name -> field or expression): a list page
    shows a few columns, and building model instances for it would cost more than the query.
    ``pk`` names the id the ties break on and the cursor carries: the row's primary key, or a
    column equal to it in a joined table whose ``(key, that column)`` index serves the ordering
    (a row comparison must name one table's columns to be an index condition).
    """
    key_expr = F(key) if isinstance(key, str) else key
    scope = cursor_scope(queryset, key, descending)
    qs = queryset.alias(**{KEY_ALIAS: key_expr})
    order = [f"-{KEY_ALIAS}", f"-{pk}"] if descending else [KEY_ALIAS, pk]
    if cursor:
        after_key, after_pk = decode_cursor(cursor, scope=scope)
        compare = TupleLessThan if descending else TupleGreaterThan
        qs = qs.filter(compare(Tuple(F(KEY_ALIAS), F(pk)), (after_key, after_pk)))
    # Django refuses an expression named like a model field, so same-named columns go by name.
    plain = [name for name, source in values.items() if source == name]
    renamed = {name: F(source) if isinstance(source, str) else source
               for name, source in values.items() if source != name}
    rows = list(qs.order_by(*order).values(*plain, **renamed, **{CURSOR_KEY: F(KEY_ALIAS), CURSOR_PK: F(pk)})
                [: page_size + 1])
    next_cursor = None
    if len(rows) > page_size:
        rows = rows[:page_size]
        next_cursor = encode_cursor(rows[-1][CURSOR_KEY], rows[-1][CURSOR_PK], scope=scope)
    for row in rows:
        del row[CURSOR_KEY], row[CURSOR_PK]
    return Page(items=rows, next_cursor=next_cursor)
