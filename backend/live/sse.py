"""Server-Sent Event streams as async Django views (SPEC 13): authentication, resume, the cap, pings.

A stream endpoint subclasses ``StreamApi`` and says what it reads: ``open_feed`` (run once, in a thread: may
the user read this at all?) gives a ``Feed``, whose ``read(after)`` returns the events after ``after`` that
the user may see (``None``: the live edge) and the header message of the object. The machinery here:

- authenticates by ``Authorization: Bearer`` (as every route) or by a one-time ``?ticket=``;
- starts after the ``Last-Event-ID`` header, else ``?since=N``, else at the live edge (a non-numeric id is
  400 ``invalid_event_id``); the events missed come first, in order, each once;
- sends each event as ``id:`` (its sequence number), ``event:`` (its kind) and ``data:`` (its JSON), and the
  header (no ``id:`` line) whenever it differs from the last one sent;
- sleeps on the hub between reads (woken by a publish on the feed's channel, or when the feed asked to look
  again, e.g. at a turn's deadline), holding no database connection; a ``: ping`` comment at least every
  ``LIVE_PING_SECONDS`` (15);
- holds one of the user's ``STREAMS_PER_USER`` slots while open (429 ``too_many_streams`` beyond).

DRF has no async views: the endpoint's class is an ``APIView`` for the OpenAPI schema only, and ``as_view``
returns the async view that serves it.
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from backend.api.authentication import JWTAuthentication
from backend.api.errors import error_body
from backend.api.schema import ErrorBody, errors
from backend.errors import DomainError, InvalidInput, NotAuthenticated, TooMany
from backend.live.access import STREAMS_PER_USER, slot_release, slot_renew, slot_take, ticket_redeem
from backend.live.hub import listen
from backend.live.wait import release_connection

#: Seconds of silence after which a stream sends a ``: ping`` comment (SPEC 13: at least every 15 s).
PING_SECONDS = 15.0
#: How often a running stream renews its slot's lease (seconds).
RENEW_SECONDS = 20.0


@dataclass(frozen=True)
class Message:
    """One SSE message: an event (with ``id``) or a header (``id`` None)."""

    event: str
    data: dict[str, Any]
    id: int | None = None

    def encode(self) -> bytes:
        lines = [] if self.id is None else [f"id: {self.id}"]
        data = json.dumps(self.data, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))
        lines += [f"event: {self.event}", f"data: {data}"]
        return ("\n".join(lines) + "\n\n").encode()


PING = b": ping\n\n"
#: A stream's headers: never cached, and passed on by nginx at once, message by message.
NO_BUFFERING = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class Batch:
    """What one read of a feed found."""

    events: list[Message]
    #: the last sequence number the read covered (the next read starts after it)
    cursor: int
    header: Message | None = None
    #: more events wait beyond this read's page: read again at once
    more: bool = False
    #: read again after this many seconds even without a publish (e.g. a turn's deadline)
    look_again_in: float = math.inf
    #: the stream ends after this batch (the reader may no longer read the object)
    last: bool = False


class Feed(Protocol):
    """What a stream reads: its hub channel, and a synchronous read (run in a thread, then the database
    connection is given back)."""

    channel: str

    def read(self, after: int | None) -> Batch: ...


def error_response(error: DomainError) -> JsonResponse:
    return JsonResponse(error_body(error.code, error.message, error.details), status=error.status_code)


def resume_point(request: HttpRequest) -> int | None:
    """After which event the stream starts: ``Last-Event-ID``, else ``?since=``, else the live edge (None)."""
    for name, raw in (("Last-Event-ID", request.headers.get("Last-Event-ID")),
                      ("since", request.GET.get("since"))):
        if raw is None:
            continue
        text = raw.strip()
        if not text.isdigit() or len(text) > 18:
            raise InvalidInput("invalid_event_id", "The event id to resume after is not a number.",
                               {"field": name, "value": raw[:40]})
        return int(text)
    return None


def stream_user(request: HttpRequest) -> int:
    """The user id of a stream request: by bearer token, else by a one-time ticket (used up here)."""
    if request.headers.get("Authorization"):
        try:
            found = JWTAuthentication().authenticate(request)  # type: ignore[arg-type]  # reads META only
        except exceptions.AuthenticationFailed as exc:
            raise NotAuthenticated("authentication_failed", "The token is invalid or expired.") from exc
        if found is not None:
            return int(found[0].pk)
    ticket = request.GET.get("ticket")
    if ticket is not None:
        user_id = ticket_redeem(ticket)
        if user_id is None:
            raise NotAuthenticated("invalid_ticket", "The stream ticket is unknown, used or expired.")
        return user_id
    raise NotAuthenticated("not_authenticated", "Authentication credentials were not provided.")


def _in_thread(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` run in the request's thread for the database, whose connection is then given back:
    between reads a stream holds none."""

    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            release_connection()

    return sync_to_async(run)


@dataclass
class _Stream:
    feed: Feed
    user_id: int
    slot: str
    language: str
    after: int | None
    header: dict[str, Any] | None = None
    last_sent: float = field(default_factory=time.monotonic)
    renewed: float = field(default_factory=time.monotonic)

    def _read(self) -> Batch:
        with translation.override(self.language):
            return self.feed.read(self.after)

    def _chunk(self, batch: Batch) -> bytes:
        """The batch's messages as they go out (the header only when it changed); moves the cursor on."""
        chunk = b"".join(message.encode() for message in batch.events)
        self.after = batch.cursor
        if batch.header is not None and batch.header.data != self.header:
            self.header = batch.header.data
            chunk += batch.header.encode()
        return chunk

    def backlog(self) -> bytes:
        """Synchronous: everything there is to send now (the missed events, the header), for a WSGI server."""
        chunks = []
        while True:
            batch = self._read()
            chunks.append(self._chunk(batch))
            if not batch.more or batch.last:
                return b"".join(chunks)

    async def messages(self) -> AsyncIterator[bytes]:
        read = _in_thread(self._read)
        try:
            with listen(self.feed.channel) as waiter:  # listening before the first read: no wake is lost
                while True:
                    try:
                        batch: Batch = await read()
                    except DomainError:  # e.g. no longer allowed to read: the stream ends
                        return
                    chunk = self._chunk(batch)
                    if chunk:
                        yield chunk
                        self.last_sent = time.monotonic()
                    if batch.last:
                        return
                    if batch.more:
                        continue
                    read_at = time.monotonic()
                    async for ping in self._sleep(waiter, read_at + batch.look_again_in):
                        yield ping
        finally:
            await sync_to_async(slot_release)(self.user_id, self.slot)

    async def _sleep(self, waiter: Any, until: float) -> AsyncIterator[bytes]:
        """Wait for a wake or ``until``, sending a ping after each ``PING_SECONDS`` of silence."""
        ping_every = float(getattr(settings, "LIVE_PING_SECONDS", PING_SECONDS))
        while True:
            now = time.monotonic()
            if now - self.last_sent >= ping_every:
                yield PING
                self.last_sent = now
                if now - self.renewed >= RENEW_SECONDS:
                    await sync_to_async(slot_renew)(self.user_id, self.slot)
                    self.renewed = now
            timeout = min(self.last_sent + ping_every, until) - now
            if await waiter.wait(timeout) or time.monotonic() >= until:
                return


class StreamApi(APIView):
    """Base of a stream endpoint (``GET``, ``text/event-stream``); subclasses give ``open_feed``.

    The class is what the OpenAPI schema documents (decorate ``get`` with ``extend_schema``); requests are
    served by the async view that ``as_view`` returns, never by DRF.
    """

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        """Synchronous (run in a thread): this stream's feed for the user, or a DomainError (e.g. 404)."""
        raise NotImplementedError

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        async def view(request: HttpRequest, **kwargs: Any) -> HttpResponse | StreamingHttpResponse:
            return await cls(**initkwargs).serve(request, **kwargs)

        view.cls = cls  # type: ignore[attr-defined]  # what drf-spectacular reads
        view.initkwargs = initkwargs  # type: ignore[attr-defined]
        view.csrf_exempt = True  # type: ignore[attr-defined]  # a GET; authenticated by token or ticket
        return view

    async def serve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | StreamingHttpResponse:
        if request.method != "GET":
            return JsonResponse(error_body("method_not_allowed", f'Method "{request.method}" not allowed.'),
                                status=405)
        try:
            after = resume_point(request)
            user_id = await _in_thread(stream_user)(request)
            feed = await _in_thread(self.open_feed)(user_id, **kwargs)
            slot = await sync_to_async(slot_take)(user_id)
            if slot is None:
                raise TooMany("too_many_streams", "Too many open streams: close one first.",
                                     {"limit": STREAMS_PER_USER})
        except DomainError as error:
            return error_response(error)
        language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language() or "en"
        stream = _Stream(feed, user_id, slot, language, after)
        if not isinstance(request, ASGIRequest):
            # Served by a WSGI server (or the synchronous test client), a stream would hold a worker for
            # good: it answers what there is now and ends; EventSource comes back with Last-Event-ID.
            try:
                body = await _in_thread(stream.backlog)()
            except DomainError as error:
                return error_response(error)
            finally:
                await sync_to_async(slot_release)(user_id, slot)
            return HttpResponse(body, content_type="text/event-stream", headers=NO_BUFFERING)
        response = StreamingHttpResponse(stream.messages(), content_type="text/event-stream",
                                         headers=NO_BUFFERING)
        return response



#: a stream class's ``get``, kept as it is by its schema decorator
_View = TypeVar("_View", bound=Callable[..., Any])

STREAM_PARAMETERS = [
    OpenApiParameter("since", OpenApiTypes.INT, description="Start after this event (unless Last-Event-ID)."),
    OpenApiParameter(
        "ticket", OpenApiTypes.STR, description="A one-time ticket (POST streams/ticket/), for EventSource."
    ),
    OpenApiParameter(
        "Last-Event-ID", OpenApiTypes.STR, OpenApiParameter.HEADER,
        description="Resume after this event id (a number: the browser's EventSource sends it).",
    ),
]
STREAM_RESPONSES: dict[Any, Any] = {
    (200, "text/event-stream"): OpenApiResponse(
        {
            "type": "object",
            "description": "One Server-Sent Events message.",
            "properties": {
                "id": {"type": "string", "description": "The event's sequence number; absent on a header."},
                "event": {"type": "string", "description": "The event's kind, or the header's name."},
                "data": {"type": "string", "description": "One JSON object."},
            },
            "required": ["event", "data"],
        },
        description="Server-Sent Events: each event with id (its seq), event (its kind) and data (its JSON, "
        "as the REST read shows it); a header message without id when the object's state changes; "
        "': ping' comments at least every 15 s.",
    ),
    **errors(400, 401, 404),
    429: OpenApiResponse(ErrorBody, description="too_many_streams: the user holds 8 open streams."),
}


def stream_schema(summary: str) -> Callable[[_View], _View]:
    """The OpenAPI description of a stream endpoint's ``get`` (its parameters, the SSE answer, its errors)."""
    return extend_schema(parameters=STREAM_PARAMETERS, responses=STREAM_RESPONSES, summary=summary)
