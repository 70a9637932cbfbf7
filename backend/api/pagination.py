"""Keyset (cursor) pagination on an indexed ``(key, id)`` ordering: no OFFSET, no COUNT(*).

The cursor is an opaque token carrying the last row's ``(key, id)``; the next page is the rows
strictly after it in the ordering, selected by a row-value comparison that PostgreSQL answers
from the matching composite index however deep the page is.
"""
from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet
from django.db.models.expressions import Expression
from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan, TupleLessThan

from backend.errors import InvalidInput

KEY_ALIAS = "keyset_key"
CURSOR_KEY, CURSOR_PK = "keyset_cursor_key", "keyset_cursor_pk"


@dataclass(frozen=True)
class Page:
    items: list[Any]
    next_cursor: str | None


def encode_cursor(key: Any, pk: int) -> str:
    raw = json.dumps([key, pk], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str) -> tuple[Any, int]:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        key, pk = json.loads(raw)
    except (binascii.Error, ValueError, TypeError) as exc:
        raise InvalidInput("invalid_cursor", "The cursor is not one this server issued.") from exc
    if not isinstance(pk, int) or isinstance(pk, bool) or not isinstance(key, (str, int, float)):
        raise InvalidInput("invalid_cursor", "The cursor is not one this server issued.")
    return key, pk


def keyset_page(queryset: QuerySet, *, key: Expression | str, descending: bool, cursor: str | None,
                page_size: int, values: Mapping[str, str | Expression]) -> Page:
    """One page of ``queryset`` ordered by ``(key, id)`` (both descending when ``descending``).

    Rows come back as dicts of ``values`` (output name -> field or expression): a list page
    shows a few columns, and building model instances for it would cost more than the query.
    """
    key_expr = F(key) if isinstance(key, str) else key
    qs = queryset.alias(**{KEY_ALIAS: key_expr})
    order = [f"-{KEY_ALIAS}", "-pk"] if descending else [KEY_ALIAS, "pk"]
    if cursor:
        after_key, after_pk = decode_cursor(cursor)
        compare = TupleLessThan if descending else TupleGreaterThan
        qs = qs.filter(compare(Tuple(F(KEY_ALIAS), F("pk")), (after_key, after_pk)))
    # Django refuses an expression named like a model field, so same-named columns go by name.
    plain = [name for name, source in values.items() if source == name]
    renamed = {name: F(source) if isinstance(source, str) else source
               for name, source in values.items() if source != name}
    rows = list(qs.order_by(*order).values(*plain, **renamed, **{CURSOR_KEY: F(KEY_ALIAS), CURSOR_PK: F("pk")})
                [: page_size + 1])
    next_cursor = None
    if len(rows) > page_size:
        rows = rows[:page_size]
        next_cursor = encode_cursor(rows[-1][CURSOR_KEY], rows[-1][CURSOR_PK])
    for row in rows:
        del row[CURSOR_KEY], row[CURSOR_PK]
    return Page(items=rows, next_cursor=next_cursor)
