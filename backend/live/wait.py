"""Long-poll: block a request's thread until something it reads has changed, woken by the hub (no polling).

``wait_for(channel, check, seconds=S)`` answers as soon as ``check()`` says the awaited change is there,
re-checking only when a message arrives on ``channel`` (or when ``check`` asked to look again at a given
time, e.g. a turn's deadline), else after ``S`` seconds. While it waits it holds no database connection.
Any read with ``?since=N&wait=S`` (matches now, runs later) uses it.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from django.db import connection

from backend.live.hub import listen

#: The longest wait a client may ask for (SPEC 13: 0 < S <= 30).
MAX_WAIT_SECONDS = 30


def release_connection() -> None:
    """Give the database connection back (to the pool, or closed) unless a transaction still needs it."""
    if not connection.in_atomic_block:
        connection.close()


def wait_for(channel: str, check: Callable[[], float | None], *, seconds: float) -> bool:
    """Wait until ``check()`` returns None (the change is there: True), or ``seconds`` pass (False).

    ``check`` returns None when the caller should answer now, else how many seconds may pass before it
    must look again even without a message (``math.inf``: only a message can change its answer). It runs
    once at the start, after the waiter is registered (a change committed in between still wakes it).
    """
    end = time.monotonic() + seconds
    with listen(channel) as waiter:
        while True:
            again_in = check()
            if again_in is None:
                return True
            release_connection()
            left = end - time.monotonic()
            if left <= 0:
                return False
            waiter.wait_blocking(min(left, again_in))
