"""Server-Sent Event streams as async Django views (SPEC 13): authentication, resume, the cap, pings.

A stream endpoint subclasses ``StreamApi`` and says what it reads: ``open_feed`` (run once, in a thread: may
the user read this at all?) gives a ``Feed``, whose ``read(after)`` returns the events after ``after`` that
the user may see (``None``: the live edge) and the header message of the object. The machinery here:

- authenticates by ``Authorization: Bearer`` (as every route) or by a one-time ``?ticket=``;
- starts after the ``Last-Event-ID`` header, else ``?since=N``, else at the live edge (a non-numeric id is
  400 ``invalid_event_id``); the events missed come first, in order, each once;
- sends each event as ``id:`` (its sequence number), ``event:`` (its kind) and ``data:`` (its JSON), and the
  header (no ``id:`` line) whenever it differs from the last one sent;
- sleeps on the hub between reads (woken by a publish on one of the feed's channels, or when the feed asked
  to look again, e.g. at a turn's deadline), holding no database connection; a ``: ping`` comment at least
  every ``LIVE_PING_SECONDS`` (15);
- holds one of the user's ``STREAMS_PER_USER`` slots while open (429 ``too_many_streams`` beyond).

An idle stream costs nothing of its own between pings: no timer, no polling, no thread. One heartbeat per
event loop (``_Heartbeat``) ticks for all of its streams: it nudges the streams due a ping, and renews the
slots of all of them in one call (one Redis round trip) every ``RENEW_SECONDS``. A stream waits on its hub
waiter alone, with a timer only while its feed asked to look again at a given time (a turn's deadline).

DRF has no async views: the endpoint's class is an ``APIView`` for the OpenAPI schema only, and ``as_view``
returns the async view that serves it.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import math
import time
import weakref
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
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
from rest_framework.serializers import Serializer
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from backend.api.authentication import JWTAuthentication
from backend.api.errors import error_body
from backend.api.pagination import Page
from backend.api.schema import ErrorBody, errors
from backend.errors import DomainError, InvalidInput, NotAuthenticated, TooMany
from backend.live.access import STREAMS_PER_USER, slot_release, slot_take, slots_renew, ticket_redeem
from backend.live.hub import Waiter, listen
from backend.live.wait import release_connection

logger = logging.getLogger(__name__)

#: Seconds of silence after which a stream sends a ``: ping`` comment (SPEC 13: at least every 15 s).
PING_SECONDS = 15.0
#: Seconds a list's stream waits after a read before the next one (``PageFeed``; ``LIVE_LIST_QUIET_SECONDS``).
LIST_QUIET_SECONDS = 1.0
#: How often the heartbeat renews the leases of its streams' slots (seconds; a lease lasts 60).
RENEW_SECONDS = 20.0
#: The heartbeat ticks every this share of the ping interval; a stream silent for 1.5 ticks gets a ping at
#: the tick, so an idle stream pings every second tick and none stays silent two ticks (under the interval).
TICK_SHARE = 0.45


def ping_seconds() -> float:
    """The longest silence of a stream (setting ``LIVE_PING_SECONDS``, default 15)."""
    return float(getattr(settings, "LIVE_PING_SECONDS", PING_SECONDS))


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
    #: the next read comes no sooner than this many seconds after this one: the wakes meanwhile are kept and
    #: answered by one read (a list's streams, which every change of any of its rows wakes)
    quiet_for: float = 0.0


class Feed(Protocol):
    """What a stream reads: the hub channels that wake it, and a synchronous read (run in a thread, then the
    database connection is given back)."""

    @property
    def channels(self) -> tuple[str, ...]: ...

    def read(self, after: int | None) -> Batch: ...


def list_quiet_seconds() -> float:
    """How long a list's stream waits after a read before the next (setting ``LIVE_LIST_QUIET_SECONDS``,
    default 1): a burst of changes costs each open list one read per second, not one read per change."""
    return float(getattr(settings, "LIVE_LIST_QUIET_SECONDS", LIST_QUIET_SECONDS))


class PageFeed:
    """A stream of one list (a header-only feed): ``read_page`` reads the list's first page, sent as the
    ``name`` message, ``{results, more}`` in the shape of ``live`` (a serializer of those two fields), when
    the stream opens and again whenever it differs from the last one sent, at most once every
    ``list_quiet_seconds()``. Its messages have no id, so ``since`` and ``Last-Event-ID`` change nothing."""

    def __init__(self, name: str, channels: tuple[str, ...], read_page: Callable[[], Page],
                 live: type[Serializer[Any]]) -> None:
        self.name = name
        self.channels = channels
        self._read_page = read_page
        self._live = live

    def read(self, after: int | None) -> Batch:
        page = self._read_page()
        data = dict(self._live({"results": page.items, "more": page.next_cursor is not None}).data)
        return Batch([], 0, Message(self.name, data), quiet_for=list_quiet_seconds())


def stream_query(serializer_class: Any, query: Mapping[str, str]) -> dict[str, Any]:
    """A stream's own parameters, checked as a REST read checks its query (400 ``invalid``, the fields'
    errors in ``details.fields``)."""
    checked = serializer_class(data=query)
    if not checked.is_valid():
        raise InvalidInput("invalid", "The request body is invalid.", {"fields": checked.errors})
    return dict(checked.validated_data)


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


class _Heartbeat:
    """The streams of one event loop, and the one task that ticks for all of them: each tick nudges the
    streams silent for 1.5 ticks (they send a ping), and every ``RENEW_SECONDS`` the slots of all of them are
    renewed in one call, in a worker thread. The task runs while the loop has a stream."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.streams: set[_Stream] = set()
        self.task: asyncio.Task[None] | None = None
        self.renewing: asyncio.Future[None] | None = None

    def join(self, stream: _Stream) -> None:
        self.streams.add(stream)
        if self.task is None:
            # A context of its own: not the first stream's request (its thread, its language).
            self.task = self.loop.create_task(self._run(), name="live-heartbeat",
                                              context=contextvars.Context())

    def leave(self, stream: _Stream) -> None:
        self.streams.discard(stream)
        if not self.streams and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        renewed = next_tick = self.loop.time()
        while True:
            tick = ping_seconds() * TICK_SHARE
            next_tick = max(next_tick + tick, self.loop.time())  # a fixed beat: late ticks do not add up
            await asyncio.sleep(next_tick - self.loop.time())
            now = time.monotonic()
            for stream in self.streams:
                if now - stream.last_sent >= 1.5 * tick:
                    stream.nudge()
            idle_renewal = self.renewing is None or self.renewing.done()
            if self.loop.time() - renewed >= RENEW_SECONDS and idle_renewal:
                renewed = self.loop.time()
                slots = [(stream.user_id, stream.slot) for stream in self.streams]
                self.renewing = self.loop.run_in_executor(None, _renew, slots)


def _renew(slots: list[tuple[int, str]]) -> None:
    """The heartbeat's renewal, in a worker thread: a failure (Redis away) is logged and the next renewal,
    ``RENEW_SECONDS`` later, tries again (a lease lasts three renewals)."""
    try:
        slots_renew(slots)
    except Exception:
        logger.warning("live: renewing %d stream slots failed", len(slots), exc_info=True)


_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Heartbeat] = weakref.WeakKeyDictionary()


def _heartbeat() -> _Heartbeat:
    loop = asyncio.get_running_loop()
    beat = _heartbeats.get(loop)
    if beat is None:
        beat = _heartbeats[loop] = _Heartbeat(loop)
    return beat


@dataclass(eq=False)
class _Stream:
    feed: Feed
    user_id: int
    slot: str
    language: str
    after: int | None
    header: dict[str, Any] | None = None
    last_sent: float = field(default_factory=time.monotonic)
    #: the heartbeat asked for a ping
    ping_due: bool = False
    waiter: Waiter | None = None

    def nudge(self) -> None:
        """The heartbeat's call (in the loop): send a ping at the next chance."""
        self.ping_due = True
        if self.waiter is not None:
            self.waiter.nudge()

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
        heartbeat = _heartbeat()
        heartbeat.join(self)
        try:
            with listen(*self.feed.channels) as waiter:  # listening before the first read: no wake is lost
                self.waiter = waiter
                while True:
                    try:
                        batch: Batch = await read()
                    except DomainError:  # e.g. no longer allowed to read: the stream ends
                        return
                    chunk = self._chunk(batch)
                    if chunk:
                        yield chunk
                        self.last_sent, self.ping_due = time.monotonic(), False
                    if batch.last:
                        return
                    if batch.more:
                        continue
                    read_at = time.monotonic()
                    if batch.quiet_for > 0:
                        await asyncio.sleep(batch.quiet_for)
                    async for ping in self._sleep(waiter, read_at + batch.look_again_in):
                        yield ping
        finally:
            self.waiter = None
            heartbeat.leave(self)
            try:
                await sync_to_async(slot_release)(self.user_id, self.slot)
            except Exception:  # e.g. Redis away: the slot's lease ends within a minute
                logger.warning("live: the slot of a closed stream of user %s was not released", self.user_id,
                               exc_info=True)

    async def _sleep(self, waiter: Waiter, until: float) -> AsyncIterator[bytes]:
        """Wait for a wake or ``until``, sending a ping whenever the heartbeat asks for one."""
        while True:
            if self.ping_due:
                self.ping_due = False
                yield PING
                self.last_sent = time.monotonic()
            if await waiter.wait(until - time.monotonic()) or time.monotonic() >= until:
                return


class StreamApi(APIView):
    """Base of a stream endpoint (``GET``, ``text/event-stream``); subclasses give ``open_feed``.

    The class is what the OpenAPI schema documents (decorate ``get`` with ``extend_schema``); requests are
    served by the async view that ``as_view`` returns, never by DRF.
    """

    #: the request's query (``?since=``, ``?ticket=`` and the stream's own parameters), for ``open_feed``
    query: Mapping[str, str]

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        """Synchronous (run in a thread): this stream's feed for the user, or a DomainError (e.g. 404 or a
        400 for a bad parameter of ``query``)."""
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
        self.query = request.GET
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


def stream_schema(summary: str, *, parameters: Sequence[Any] = (),
                  operation_id: str | None = None) -> Callable[[_View], _View]:
    """The OpenAPI description of a stream endpoint's ``get`` (its parameters, the SSE answer, its errors);
    ``parameters``: the stream's own, before the streams' common ones."""
    return extend_schema(parameters=[*parameters, *STREAM_PARAMETERS], responses=STREAM_RESPONSES,
                         summary=summary, operation_id=operation_id)
