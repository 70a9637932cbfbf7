"""URL converters: an object id in a path is a positive 64-bit integer, or the route does not match.

Django's ``int`` converter accepts any run of digits, and SQLite refuses to bind an integer past
64 bits (``OverflowError``: a 500). Routes name objects with ``<id:...>`` instead, so such a
path is a plain 404 before any view or query runs.
"""
from __future__ import annotations

# The largest primary key a BigAutoField (PostgreSQL bigint, SQLite INTEGER) can hold.
MAX_DB_ID = 2**63 - 1


class ObjectIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_DB_ID:
            raise ValueError(f"{value} is not an object id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)
