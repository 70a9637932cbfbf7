"""``GET /api/v1/matches/{id}/stream/``: a seated player's live stream of a match (SPEC 13); and
``GET /api/v1/matches/stream/``: the caller's match list, live (``MatchListStreamApi``).

The events the player's seat may see, as ``GET matches/{id}/?since=N`` shows them (each with its ``text`` in
the request's language), and a ``match`` message whenever ``status``, ``turn``, ``awaiting``, ``deadline``
or ``result`` change. Each read applies passed deadlines first, as every read of a match does, and the stream
reads again when the awaited turn's deadline passes. The machinery (resume, pings, the cap) is
``backend.live.sse``'s.
"""
from __future__ import annotations

import math
from typing import Any

from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.pagination import Page
from backend.live.sse import Batch, Feed, Message, PageFeed, StreamApi, stream_query, stream_schema
from matches import selectors, services
from matches.serializers import MatchListLive, MatchListStreamQuery
from players.models import Player
from players.selectors import player_for_user

#: Seconds after a deadline at which the stream reads again (the deadline is then surely past).
DEADLINE_MARGIN_SECONDS = 0.05


class MatchFeed:
    """A player's reads of one match for its stream."""

    def __init__(self, match_id: int, player: Player, user_id: int) -> None:
        self.match_id = match_id
        self.player = player
        self.user_id = user_id
        self.channels = (f"match:{match_id}",)

    def read(self, after: int | None) -> Batch:
        if after is None:  # the live edge: where it is, the match tells (passed deadlines applied first)
            match = services.match_refresh(player=self.player, match_id=self.match_id)
            rows = None
        else:  # as GET matches/{id}/?since=N reads: one statement on PostgreSQL while no deadline has passed
            match, _, rows = services.match_read_for_user(user_id=self.user_id, match_id=self.match_id,
                                                          since=after)
        found = selectors.match_stream_read(match, self.player, since=after, rows=rows)
        events = [Message(str(event.get("kind")), event, id=int(event["seq"])) for event in found["events"]]
        deadline = found["header"]["deadline"]
        again = math.inf if deadline is None else max(
            (deadline - timezone.now()).total_seconds() + DEADLINE_MARGIN_SECONDS, 0
        )
        return Batch(events, found["last_event"], Message("match", found["header"]), more=found["more"],
                     look_again_in=again)


class MatchStreamApi(StreamApi):
    """A seated player's stream of a match: the events the seat may see (``id:`` = the event's ``seq``,
    ``event:`` its kind, ``data:`` its JSON as ``GET matches/{id}/?since=N`` shows it) and a ``match`` message
    (no ``id:``: status, turn, awaiting, deadline, result) whenever one of those changes. Resumes after
    ``Last-Event-ID``, else ``?since=N``, else from now; ``: ping`` at least every 15 s."""

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        match_id = int(kwargs["match_id"])
        player = player_for_user(user_id=user_id)
        selectors.match_for_reader(match_id=match_id, player=player)  # 404 unless the player may read it
        return MatchFeed(match_id, player, user_id)

    @stream_schema("Live: the match's events the caller may see, and a 'match' message on each change (SSE)")
    def get(self, request: Request, match_id: int) -> Response:  # the schema's; served by StreamApi.serve
        raise NotImplementedError


class MatchListStreamApi(StreamApi):
    """The caller's match list, live: a ``matches`` message (no ``id:``; ``MatchListLive``: ``results`` as
    ``GET matches/`` with the same ``mode``, ``status``, ``watchable`` and ``page_size`` gives its first page,
    and ``more``) when the stream opens and whenever the list changes; ``: ping`` at least every 15 s.

    Woken when a match enters, leaves or changes in somebody's list (``services.LIST_CHANNEL``: a lobby
    opened, a seat taken or given up, a start, an end, a lobby cancelled) and by each of the user's notices
    (``user:<id>``: their turn in one of their matches, its start or end); a move that concerns neither
    wakes no list."""

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        query = stream_query(MatchListStreamQuery, self.query)
        player = player_for_user(user_id=user_id)
        def first_page() -> Page:
            return services.match_list_read(player=player, mode=query["mode"] or None,
                                            status=query.get("status") or None, cursor=None,
                                            page_size=query["page_size"], watchable=query["watchable"])

        return PageFeed("matches", (services.LIST_CHANNEL, f"user:{user_id}"), first_page, MatchListLive)

    @stream_schema("Live: the caller's match list (GET matches/'s first page) on each change (SSE)",
                   parameters=[MatchListStreamQuery], operation_id="v1_matches_list_stream")
    def get(self, request: Request) -> Response:  # the schema's; served by StreamApi.serve
        raise NotImplementedError
