"""The API's JSON parser: bounded body size and nesting depth, and every parse failure a 400 JSON error.

DRF's parser hands the body to ``json.loads``, whose C scanner recurses once per nesting level:
2,000 levels raised ``RecursionError`` (a 500, without logging in, on every JSON route). Here the
body is read at most up to ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes, its depth is counted by a flat
scan before anything recurses, and undecodable text, bad JSON and non-standard constants (NaN,
Infinity) are all ``InvalidInput``.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers

from backend.errors import InvalidInput

#: The deepest nesting of arrays and objects a request body may have (ours need 3).
DEFAULT_MAX_DEPTH = 32

# A whole string literal (skipped: brackets inside strings do not nest), or one bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def json_depth(text: str, *, stop_above: int) -> int:
    """The nesting depth of JSON ``text`` (0 for a scalar), counted without recursion.

    Stops counting once the depth passes ``stop_above`` and returns that depth. Malformed text
    gives some number; ``json.loads`` refuses it afterwards.
    """
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_above:
                    break
        elif token in "]}":
            depth -= 1
    return deepest


def body_limit() -> int | None:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large(limit: int) -> InvalidInput:
    return InvalidInput("request_too_large", f"The request body is larger than {limit} bytes.",
                        {"limit": limit})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class JSONParser(parsers.JSONParser):
    def parse(self, stream: IO[bytes] | None, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        limit = body_limit()
        raw = b"" if stream is None else stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise too_large(limit)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise InvalidInput("malformed_request", f"The body is not {encoding} text.") from exc
        max_depth = getattr(settings, "API_JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)
        if json_depth(text, stop_above=max_depth) > max_depth:
            raise InvalidInput("json_too_deep", f"JSON nested deeper than {max_depth} levels.",
                               {"max_depth": max_depth})
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise InvalidInput("malformed_request", f"JSON parse error - {exc}") from exc
