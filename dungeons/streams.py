"""``GET /api/v1/runs/{id}/stream/``: a member's live stream of a run (SPEC 13; docs/runs.md, "Live"); and
``GET /api/v1/runs/lobbies/stream/``: the open lobbies, live (``RunLobbiesStreamApi``).

The run's events in its one sequence (its log's entries and its battles' events), as
``GET runs/{id}/?since=N`` shows them (each with its ``text`` in the request's language), and a ``run``
message whenever ``step``, ``status``, ``awaiting`` or ``deadline`` change. A read that finds the awaited
battle turn past its deadline applies it first (as a read of the battle does), and the stream reads again
when that deadline passes. The stream wakes on ``run:<id>``, which every run step and battle step publishes
after its commit (``dungeons.runs.core.run_locked``, ``dungeons.runs.battles._woken``). The machinery
(resume, pings, the cap) is ``backend.live.sse``'s.
"""
from __future__ import annotations

import math
from typing import Any

from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from backend.live.sse import Batch, Feed, Message, PageFeed, StreamApi, stream_query, stream_schema
from dungeons import selectors
from dungeons.runs.battles import run_deadline_refresh
from dungeons.runs.lobby import LOBBIES_CHANNEL
from dungeons.serializers import RunLobbiesLive, RunLobbiesStreamQuery
from players.models import Player
from players.selectors import player_for_user

#: Seconds after a deadline at which the stream reads again (the deadline is then surely past).
DEADLINE_MARGIN_SECONDS = 0.05
#: Seconds after which a read that found the deadline passed but not yet applied reads again.
PASSED_RETRY_SECONDS = 1.0


class RunFeed:
    """A member's reads of one run for its stream."""

    def __init__(self, run_id: int, player: Player) -> None:
        self.run_id = run_id
        self.player = player
        self.channels = (f"run:{run_id}",)

    def read(self, after: int | None) -> Batch:
        found = selectors.run_stream_read(run_id=self.run_id, player_id=self.player.pk, since=after)
        if run_deadline_refresh(player=self.player, battle_id=found["battle"],
                                deadline=found["header"]["deadline"]):  # a timed-out turn applied: read again
            found = selectors.run_stream_read(run_id=self.run_id, player_id=self.player.pk, since=after)
        deadline = found["header"]["deadline"]
        events = [Message(str(event["kind"]), event, id=int(event["seq"])) for event in found["events"]]
        left = math.inf if deadline is None else (deadline - timezone.now()).total_seconds()
        # a deadline still shown as passed (being applied by another reader or the clock) is looked at
        # again after a second, not at once and again and again
        again = left + DEADLINE_MARGIN_SECONDS if left > 0 else PASSED_RETRY_SECONDS
        return Batch(events, found["last_event"], Message("run", found["header"]), look_again_in=again)


class RunStreamApi(StreamApi):
    """A member's stream of a run: its log's entries and its battles' events (``id:`` = the event's ``seq``
    in the run's one sequence, ``event:`` its kind, ``data:`` its JSON as ``GET runs/{id}/?since=N`` shows
    it) and a ``run`` message (no ``id:``: id, step, status, awaiting, deadline) whenever one of those
    changes. Resumes after ``Last-Event-ID``, else ``?since=N``, else from now; ``: ping`` at least every
    15 s."""

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        run_id = int(kwargs["run_id"])
        player = player_for_user(user_id=user_id)
        selectors.run_stream_read(run_id=run_id, player_id=player.pk, since=None)  # 404 unless a member
        return RunFeed(run_id, player)

    @stream_schema("Live: the run's log entries and its battles' events, and a 'run' message on each change "
                   "(SSE)")
    def get(self, request: Request, run_id: int) -> Response:  # the schema's; served by StreamApi.serve
        raise NotImplementedError


class RunLobbiesStreamApi(StreamApi):
    """The open lobbies, live: a ``lobbies`` message (no ``id:``; ``RunLobbiesLive``: ``results`` as
    ``GET runs/lobbies/`` with the same ``page_size`` gives its first page, and ``more``) when the stream
    opens and whenever the list changes (a lobby opened, its host changed, started or cancelled:
    ``runs:lobbies`` on the hub); ``: ping`` at least every 15 s."""

    def open_feed(self, user_id: int, **kwargs: Any) -> Feed:
        query = stream_query(RunLobbiesStreamQuery, self.query)
        player_for_user(user_id=user_id)  # a player's stream, as GET runs/lobbies/ is a player's read
        return PageFeed("lobbies", (LOBBIES_CHANNEL,),
                        lambda: selectors.run_list_lobbies(cursor=None, page_size=query["page_size"]),
                        RunLobbiesLive)

    @stream_schema("Live: the open lobbies (GET runs/lobbies/'s first page) on each change (SSE)",
                   parameters=[RunLobbiesStreamQuery], operation_id="v1_runs_lobbies_stream")
    def get(self, request: Request) -> Response:  # the schema's; served by StreamApi.serve
        raise NotImplementedError
