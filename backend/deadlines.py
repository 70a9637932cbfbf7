"""Deadlines fire by themselves: the clock inside the server process that applies every passed turn deadline.

A turn's deadline is applied by the same code a read applies it with (``backend.turns.deadlines_apply``
under the row lock, docs/matches.md and docs/runs.md), so nobody needs to read for a silent player to
be moved on, and a read that comes first gives the same result. The kinds of turn-based rows register
here from their apps' ``ready()`` (a match, a run's battle): the plumbing names no app
(docs/architecture.md). Each kind answers three questions cheaply:

- ``next()``: its earliest pending deadline, one query on a partial index of the running rows, so
  millions of finished rows cost nothing;
- ``due(now, limit)``: the rows whose deadline has passed;
- ``fire(id, now)``: apply that row's passed deadlines in a transaction of its own, under its lock, with
  the re-check every read makes under it (another instance, or a reader, that applied them first leaves
  nothing to do: a deadline is never applied twice).

``DeadlineClock`` sleeps until the next deadline (at most ``resync_seconds``, a safety re-read), fires
what is due in a worker thread, and holds no database connection while it sleeps. ``deadline_set``,
called by every step that stores a turn, wakes the clock of this process when that turn's deadline is
earlier than the one it sleeps until. The ASGI server's lifespan starts it (``backend/asgi.py``,
setting ``DEADLINE_CLOCK``); every server instance runs one.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from abc import ABC, abstractmethod
from datetime import datetime

from asgiref.sync import sync_to_async
from django.db import connections, transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

#: The most rows of one kind fired in one pass; more are fired by the next pass, at once.
FIRE_BATCH = 200
#: The longest the clock sleeps without re-reading the next deadline (a step made outside this process,
#: e.g. on another instance, wakes nobody here).
RESYNC_SECONDS = 30.0
#: How long the clock waits before trying again a deadline it could not apply (it keeps failing).
RETRY_SECONDS = 1.0


class DeadlineKind(ABC):
    """One kind of turn-based row whose deadlines the clock fires; its app registers it in ``ready()``."""

    #: the kind's name in logs ("match", "battle")
    name: str

    @abstractmethod
    def next(self) -> datetime | None:
        """The earliest deadline of a turn being waited for; None: no turn has one."""

    @abstractmethod
    def due(self, now: datetime, limit: int) -> list[int]:
        """The ids of rows whose deadline is ``now`` or earlier, earliest first, at most ``limit``."""

    @abstractmethod
    def fire(self, object_id: int, now: datetime) -> int:
        """Apply the row's deadlines passed by ``now`` as a read does, in a transaction of its own under the
        row lock; returns how many turns timed out (0: nothing had passed any more, or the row is gone)."""


_kinds: dict[str, DeadlineKind] = {}


def deadline_kind_register(kind: DeadlineKind) -> None:
    """Register (or replace) a kind of turn-based row for the clock."""
    _kinds[kind.name] = kind


def deadline_next() -> datetime | None:
    """The earliest pending deadline over every registered kind (one indexed query each)."""
    found = [at for at in (kind.next() for kind in _kinds.values()) if at is not None]
    return min(found, default=None)


def deadlines_fire_due(now: datetime | None = None) -> int:
    """Apply every deadline passed by ``now``, each row in its own transaction; returns the turns timed out.

    A row that fails is logged and left for the next pass (a read still applies its deadline); the other
    rows are fired.
    """
    now = now or timezone.now()
    fired = 0
    for kind in _kinds.values():
        for object_id in kind.due(now, FIRE_BATCH):
            try:
                fired += kind.fire(object_id, now)
            except Exception:  # one broken row must not stop the clock for every other game
                logger.exception("the deadline of %s %s could not be applied", kind.name, object_id)
    return fired


# --- the clock ----------------------------------------------------------------------------------------

_clocks: set[DeadlineClock] = set()
_clocks_lock = threading.Lock()


def deadline_clock_running() -> bool:
    """Whether a clock runs in this process (a caller may skip working out a deadline nobody would hear)."""
    return bool(_clocks)


def deadline_set(at: datetime | None) -> None:
    """A step stores a turn whose deadline is ``at`` (None: no deadline): once its transaction commits, the
    running clock of this process re-reads the next deadline if ``at`` is earlier than the one it waits for.
    Call inside the step's transaction (or outside any: it wakes at once)."""
    if at is None or not _clocks:
        return
    transaction.on_commit(lambda: _wake_all(at))


def _wake_all(at: datetime | None) -> None:
    with _clocks_lock:
        running = list(_clocks)
    for clock in running:
        clock.wake(at)


class DeadlineClock:
    """Applies passed deadlines with nobody reading: sleeps until the next one, fires what is due, repeats.

    ``run()`` goes on until cancelled. The database work runs in a worker thread that closes its
    connection after each pass, so the clock holds none while it sleeps.
    """

    def __init__(self, *, resync_seconds: float = RESYNC_SECONDS) -> None:
        self.resync_seconds = resync_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None
        # The deadline the clock sleeps until (None: it knows none); while it reads, any wake counts.
        self._until: datetime | None = None
        self._reading = True

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        with _clocks_lock:
            _clocks.add(self)
        try:
            while True:
                await self._wait(await self._pass())
        finally:
            with _clocks_lock:
                _clocks.discard(self)

    async def _pass(self) -> float:
        """Fire what is due, then read the next deadline; returns the seconds to sleep."""
        assert self._woken is not None
        self._woken.clear()  # a wake from here on (a step committed meanwhile) cuts the next sleep short
        self._reading = True
        now = timezone.now()
        try:
            fired, upcoming = await sync_to_async(_fire_and_read, thread_sensitive=False)(now)
        except Exception:  # e.g. the database is down: try again soon, reads still apply deadlines
            logger.exception("the deadline clock's pass failed")
            return RETRY_SECONDS
        self._until, self._reading = upcoming, False
        if upcoming is None:
            return self.resync_seconds
        if upcoming <= now and not fired:  # due but nothing applied: a row that keeps failing
            return RETRY_SECONDS
        return min(self.resync_seconds, max(0.0, (upcoming - timezone.now()).total_seconds()))

    async def _wait(self, seconds: float) -> None:
        assert self._woken is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._woken.wait(), seconds)

    def wake(self, at: datetime | None = None) -> None:
        """Make the clock re-read the next deadline now (thread-safe); with ``at``, only if it is earlier than
        the deadline the clock sleeps until."""
        loop, woken = self._loop, self._woken
        if loop is None or woken is None:
            return
        until = self._until
        if at is not None and not self._reading and until is not None and at >= until:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed: the clock is gone
            loop.call_soon_threadsafe(woken.set)


def _fire_and_read(now: datetime) -> tuple[int, datetime | None]:
    """One pass of the clock in its worker thread: fire what is due, read the next deadline, let go of the
    connection."""
    try:
        return deadlines_fire_due(now), deadline_next()
    finally:
        connections.close_all()
