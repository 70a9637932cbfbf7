"""Reading a Server-Sent Events stream in tests, message by message: from an ``AsyncClient`` response's
async content, or from a real server's socket (``http.client``)."""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

#: How long a test waits for a message before it fails instead of hanging (a guard, not a measure).
GUARD_SECONDS = 30.0


@dataclass(frozen=True)
class Sse:
    """One message: an event (``id`` set), a header (``id`` None) or a comment (``comment`` set)."""

    event: str | None = None
    data: Any = None
    id: int | None = None
    comment: str | None = None


def parse(raw: bytes) -> Sse:
    fields: dict[str, str] = {}
    comment = None
    for line in raw.decode().split("\n"):
        if line.startswith(":"):
            comment = line[1:].strip()
        elif line:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
    return Sse(
        event=fields.get("event"),
        data=json.loads(fields["data"]) if "data" in fields else None,
        id=int(fields["id"]) if "id" in fields else None,
        comment=comment,
    )


class AsyncSseReader:
    """The messages of an ``AsyncClient`` streaming response, read one at a time."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self._content: AsyncIterator[bytes] = response.streaming_content.__aiter__()
        self._buffer = b""

    async def next(self, *, skip_pings: bool = True) -> Sse:
        while True:
            while b"\n\n" not in self._buffer:
                self._buffer += await asyncio.wait_for(self._content.__anext__(), GUARD_SECONDS)
            raw, self._buffer = self._buffer.split(b"\n\n", 1)
            message = parse(raw)
            if not (skip_pings and message.comment == "ping"):
                return message

    async def until(self, event: str) -> list[Sse]:
        """Every message up to and including the first ``event`` one."""
        seen = [await self.next()]
        while seen[-1].event != event:
            seen.append(await self.next())
        return seen

    async def close(self) -> None:
        """End the stream as a server does when its client goes: the view's generator is closed (its
        ``finally`` frees the slot). The test client's wrapper alone would leave it to the collector."""
        await self._content.aclose()  # type: ignore[attr-defined]
        await self.response._iterator.aclose()


async def stream_get(player: Any, url: str) -> Any:
    """``GET url`` through Django's ``AsyncClient`` as ``player`` (a real JWT): a stream's answer, or its
    refusal."""
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient
    from rest_framework_simplejwt.tokens import RefreshToken

    token = await sync_to_async(lambda: str(RefreshToken.for_user(player.user).access_token))()
    return await AsyncClient().get(url, headers={"Authorization": f"Bearer {token}"})


async def stream_open(player: Any, url: str) -> AsyncSseReader:
    """The stream at ``url``, opened as ``player`` (200, ``text/event-stream``), read message by message."""
    response = await stream_get(player, url)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return AsyncSseReader(response)
