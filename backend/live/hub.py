"""The live hub: after a commit, wake every stream and long-poll waiting on a channel, in every process.

A channel names what changed (``match:<id>``, ``run:<id>``, ``user:<id>``, ``matches:list``). A message
carries nothing but the channel's name (on Redis, also which process sent it): whoever wakes reads what
changed from the database, so a lost message costs latency, never an event (docs/operations.md, "Live
streams").

- ``publish(channel)``: registered with ``transaction.on_commit`` (sent only once the change is committed;
  outside a transaction at once). With ``REDIS_URL`` set it goes out on one Redis pub/sub channel that every
  process listens to; otherwise (the embedded default: one server process) it is delivered in-process.
- ``listen(*channels)``: a ``Waiter`` woken by each message on any of the channels, waited on from async code
  (a stream) or from a thread (a long-poll).
- ``tap(callback)``: in-process code that wants every message; ``others_only=True``: only the messages sent
  by other processes (the deadline clock, which this process's steps tell directly).

Each process keeps one Redis subscriber connection, on a daemon thread started by its first ``listen`` or
``tap``, and fans each message out to its local waiters. After that connection is lost and made again,
every local waiter is woken once (a message may have been missed meanwhile).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)

#: The one Redis pub/sub channel every process subscribes to, followed by the Redis database's number (pub/sub
#: ignores databases: deployments sharing a Redis server on different databases must not wake each other's
#: streams); a message's payload is the hub channel's name and the sending process's.
REDIS_CHANNEL = "deepdelve:live"
#: Seconds between attempts to make the subscriber connection again after Redis went away.
RECONNECT_SECONDS = 1.0


class Waiter:
    """One stream's or long-poll's wake-up on a channel: a flag set by each message until the waiter takes it.

    Made inside a running event loop it is awaited (``wait``); made in a thread, waited on by the thread
    (``wait_blocking``). A wake arriving while the owner reads the database is kept for its next wait.
    """

    def __init__(self, channels: tuple[str, ...]) -> None:
        self.channels = channels
        self._flag = threading.Event()
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._event = asyncio.Event() if self._loop is not None else None

    def wake(self) -> None:
        """Called from any thread."""
        self._flag.set()
        if self._loop is not None and self._event is not None:
            try:
                self._loop.call_soon_threadsafe(self._event.set)
            except RuntimeError:  # the loop has closed: its stream is gone
                pass

    def _take(self) -> bool:
        woken = self._flag.is_set()
        self._flag.clear()
        if self._event is not None:
            self._event.clear()
        return woken

    def nudge(self) -> None:
        """Called in the waiter's loop: end the current ``wait`` without a wake (it returns False)."""
        if self._event is not None:
            self._event.set()

    async def wait(self, seconds: float) -> bool:
        """Wait in the event loop until woken (True), nudged or ``seconds`` passed (False); takes the wake.
        ``math.inf`` waits with no timer at all."""
        assert self._event is not None, "made outside an event loop: use wait_blocking"
        if not self._flag.is_set():
            if math.isinf(seconds):
                await self._event.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(seconds, 0)):
                        await self._event.wait()
        return self._take()

    def wait_blocking(self, seconds: float) -> bool:
        """Block this thread until woken (True) or ``seconds`` passed (False); takes the wake."""
        self._flag.wait(timeout=max(seconds, 0))
        return self._take()


class Hub:
    """The waiters and taps of this process, and its Redis subscriber (one per process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Waiter]] = {}
        #: (callback, others_only)
        self._taps: list[tuple[Callable[[str], None], bool]] = []
        self._origin = ""
        self._origin_pid = 0
        self._subscriber: threading.Thread | None = None
        self._subscriber_pid = 0
        self._publisher: Any = None
        self._publisher_url = ""

    # --- this process -------------------------------------------------------------------------

    @contextmanager
    def listen(self, *channels: str) -> Iterator[Waiter]:
        """A waiter woken by a message on any of ``channels`` for the ``with`` block (made before the first
        read, it loses no wake)."""
        waiter = Waiter(channels)
        with self._lock:
            for channel in channels:
                self._waiters.setdefault(channel, set()).add(waiter)
        self._subscribe()
        try:
            yield waiter
        finally:
            with self._lock:
                for channel in channels:
                    waiters = self._waiters.get(channel)
                    if waiters is not None:
                        waiters.discard(waiter)
                        if not waiters:
                            del self._waiters[channel]

    def tap(self, callback: Callable[[str], None], *, others_only: bool = False) -> Callable[[], None]:
        """Call ``callback(channel)`` for every message this process receives (``others_only``: for those sent
        by another process); returns the undo."""
        entry = (callback, others_only)
        with self._lock:
            self._taps.append(entry)
        self._subscribe()

        def untap() -> None:
            with self._lock:
                if entry in self._taps:
                    self._taps.remove(entry)

        return untap

    def listening(self, channel: str) -> int:
        """How many waiters of this process listen on ``channel``."""
        with self._lock:
            return len(self._waiters.get(channel, ()))

    def deliver(self, channel: str, *, from_here: bool = False) -> None:
        """Wake this process's waiters on ``channel`` and call its taps (``from_here``: this process sent the
        message, so the taps that want only the others' are not called)."""
        with self._lock:
            waiters = list(self._waiters.get(channel, ()))
            taps = [callback for callback, others_only in self._taps if not (others_only and from_here)]
        for waiter in waiters:
            waiter.wake()
        for callback in taps:
            try:
                callback(channel)
            except Exception:  # a tap's failure must not stop the delivery to the others
                logger.exception("live tap %r failed on %s", callback, channel)

    def _wake_all(self) -> None:
        with self._lock:
            channels = list(self._waiters)
        for channel in channels:
            self.deliver(channel)

    # --- every process ------------------------------------------------------------------------

    def send(self, channel: str) -> None:
        """Send a committed change's message to every process (Redis), or to this one (embedded default).

        Never raises: it runs after the commit, when the request has succeeded. With Redis unreachable the
        message reaches this process only; the others' streams see the change at their next read.
        """
        url = _redis_url()
        if not url:
            self.deliver(channel, from_here=True)
            return
        try:
            self._redis(url).publish(redis_channel(url), f"{channel} {self._origin_here()}")
        except Exception:
            logger.warning("live: Redis publish of %s failed; delivered in this process only", channel,
                           exc_info=True)
            self.deliver(channel, from_here=True)

    def _origin_here(self) -> str:
        """This process's name on Redis messages (a new one in a forked child)."""
        if self._origin_pid != os.getpid():
            self._origin, self._origin_pid = secrets.token_hex(8), os.getpid()
        return self._origin

    def _redis(self, url: str) -> Any:
        import redis

        if self._publisher is None or self._publisher_url != url:
            self._publisher = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
            self._publisher_url = url
        return self._publisher

    def _subscribe(self) -> None:
        """Start this process's subscriber thread once (again in a forked child) when Redis is set."""
        url = _redis_url()
        if not url:
            return
        with self._lock:
            alive = self._subscriber is not None and self._subscriber.is_alive()
            if alive and self._subscriber_pid == os.getpid():
                return
            self._subscriber_pid = os.getpid()
            ready = threading.Event()
            self._subscriber = threading.Thread(
                target=self._run_subscriber, args=(url, ready), name="live-subscriber", daemon=True
            )
            self._subscriber.start()
        # The first listener's wake must not be lost to a subscription still being made.
        ready.wait(timeout=2)

    def _run_subscriber(self, url: str, ready: threading.Event) -> None:
        import redis

        first = True
        while True:
            try:
                client = redis.Redis.from_url(url, socket_connect_timeout=2, health_check_interval=30)
                pubsub = client.pubsub()  # type: ignore[no-untyped-call]
                pubsub.subscribe(redis_channel(url))
                # Until Redis has the subscription: a message published after ``ready`` reaches us.
                while (got := pubsub.get_message(timeout=5)) is None or got["type"] != "subscribe":
                    pass
                ready.set()
                if not first:
                    self._wake_all()  # messages sent while the connection was down are lost: read again
                first = False
                while True:
                    message = pubsub.get_message(timeout=30)
                    if message is not None and message.get("type") == "message":
                        data = message["data"]
                        text = data.decode() if isinstance(data, bytes) else str(data)
                        channel, _, origin = text.partition(" ")
                        self.deliver(channel, from_here=bool(origin) and origin == self._origin_here())
            except Exception:
                logger.warning("live: Redis subscriber lost; connecting again", exc_info=True)
                ready.set()
                first = False
                time.sleep(RECONNECT_SECONDS)


def _redis_url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "")


def redis_channel(url: str) -> str:
    """The Redis pub/sub channel of the hub on the Redis database ``url`` names."""
    from redis.connection import parse_url

    return f"{REDIS_CHANNEL}:{parse_url(url).get('db', 0)}"  # type: ignore[no-untyped-call]


#: This process's hub.
HUB = Hub()


def publish(channel: str) -> None:
    """Wake every stream on ``channel`` in every process once the current transaction commits (at once
    outside a transaction; never when it rolls back)."""
    if connection.in_atomic_block:
        transaction.on_commit(lambda: HUB.send(channel))
    else:  # autocommit: the change is committed already
        HUB.send(channel)


def listen(*channels: str) -> Any:
    """``with listen("match:7") as waiter:``: a ``Waiter`` on the channels for the block."""
    return HUB.listen(*channels)


def tap(callback: Callable[[str], None], *, others_only: bool = False) -> Callable[[], None]:
    """Call ``callback(channel)`` on every message this process receives (``others_only``: on those sent by
    other processes); returns the undo."""
    return HUB.tap(callback, others_only=others_only)
