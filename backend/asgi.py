"""ASGI entry point (uvicorn backend.asgi:application): Django's application, and the deadline clock.

HTTP (and any other connection) goes to Django. The server's lifespan starts the deadline clock
(backend/deadlines.py) when ``DEADLINE_CLOCK`` is on and stops it on shutdown, so passed turn deadlines
are applied with nobody reading, in the embedded default (one process) and on every instance of a
scaled-out deployment alike.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

from backend.deadlines import DeadlineClock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
django_application = get_asgi_application()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    else:
        await django_application(scope, receive, send)


async def _lifespan(receive: Any, send: Any) -> None:
    clock: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if settings.DEADLINE_CLOCK:
                clock = asyncio.create_task(DeadlineClock().run(), name="deadline-clock")
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if clock is not None:
                clock.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clock
            await send({"type": "lifespan.shutdown.complete"})
            return
