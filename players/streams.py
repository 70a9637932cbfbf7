"""``GET /api/v1/me/stream/``: the user's own live stream of notices (SPEC 13; docs/live.md).

Each notice as ``id:`` (its per-user ``seq``), ``event:`` (its kind) and ``data:`` (``NoticeOutput``, the
JSON of ``GET me/notices/``). The machinery (authentication, resume, pings, the cap) is
``backend.live.sse``'s; the stream wakes on ``user:<id>``, which ``players.notices.notify`` publishes.
"""
from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from backend.live.sse import Batch, Feed, Message, StreamApi, stream_schema
from players.selectors import notice_last, notice_page
from players.serializers import NoticeOutput


class NoticeFeed:
    """One user's reads of their notices for their stream."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.channels = (f"user:{user_id}",)

    def read(self, after: int | None) -> Batch:
        if after is None:  # the live edge: what comes after the last notice numbered so far
            return Batch([], notice_last(user_id=self.user_id))
        notices, more = notice_page(user_id=self.user_id, since=after)
        events = [Message(notice.kind, dict(NoticeOutput(notice).data), id=notice.seq) for notice in notices]
        return Batch(events, notices[-1].seq if notices else after, more=more)


class NoticeStreamApi(StreamApi):
    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        return NoticeFeed(user_id)

    @stream_schema("Live: the caller's notices (your_turn, match_started, match_ended, invitation, "
                   "application_decided, lobby_changed) as Server-Sent Events")
    def get(self, request: Request) -> Response:  # the schema's; served by StreamApi.serve
        raise NotImplementedError
