"""ASGI entry point (``uvicorn backend.asgi:application``): Django's application, which serves the API and
its streams (async views, SPEC 13), and the deadline clock.

HTTP goes to Django (with ``DEBUG`` on, the static files too, as ``runserver`` serves them). The server's
lifespan starts the deadline clock (backend/deadlines.py) when ``DEADLINE_CLOCK`` is on and stops it on
shutdown, so passed turn deadlines are applied with nobody reading, in the embedded default (one process)
and on every instance of a scaled-out deployment alike. The clock listens to the live hub: a step committed
on another instance (Redis pub/sub) makes it re-read the next deadline, which that step may have moved
earlier; a step of this process tells it its new deadline directly (``backend.deadlines.deadline_set``), so
its own messages coming back from Redis do not make it read (``tap(..., others_only=True)``).
"""
from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
django_application: Any = get_asgi_application()
if settings.DEBUG:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_application = ASGIStaticFilesHandler(django_application)

from backend.deadlines import DeadlineClock  # noqa: E402  (after Django is set up)
from backend.live import tap  # noqa: E402


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    else:
        await django_application(scope, receive, send)


def _waking(clock: DeadlineClock) -> Callable[[str], None]:
    """The hub's tap that makes ``clock`` re-read the next deadline on every published step."""

    def wake(channel: str) -> None:
        clock.wake()

    return wake


async def _lifespan(receive: Any, send: Any) -> None:
    clock: asyncio.Task[None] | None = None
    untap = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if settings.DEADLINE_CLOCK:
                ticking = DeadlineClock()
                clock = asyncio.create_task(ticking.run(), name="deadline-clock")
                if settings.REDIS_URL:  # steps on other instances; this one's tell it directly (deadline_set)
                    untap = tap(_waking(ticking), others_only=True)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if untap is not None:
                untap()
            if clock is not None:
                clock.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clock
            await send({"type": "lifespan.shutdown.complete"})
            return
