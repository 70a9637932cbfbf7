"""``GET matches/{id}/stream/`` read incrementally through Django's AsyncClient (SPEC 13): the events a seat
may see, in order, each once, then live; a ``match`` message on each change; resume by ``Last-Event-ID`` or
``?since``; tickets; the cap of open streams; pings."""
from __future__ import annotations

import asyncio
import gc
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.utils import timezone
from rest_framework_simplejwt.tokens import RefreshToken

from backend.live import access, sse
from backend.live.access import STREAMS_PER_USER
from matches.models import Match
from players.models import Player
from tests.backend.live.sse_reader import GUARD_SECONDS, AsyncSseReader, Sse
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, started, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]


async def _headers(player: Player, **extra: str) -> dict[str, str]:
    token = await sync_to_async(lambda: str(RefreshToken.for_user(player.user).access_token))()
    return {"Authorization": f"Bearer {token}", **extra}


async def _open(player: Player, match_id: int, query: str = "", **headers: str) -> AsyncSseReader:
    headers = await _headers(player, **headers)
    response = await AsyncClient().get(url(match_id, f"stream/{query}"), headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return AsyncSseReader(response)


async def _move(people: list[Player], match_id: int, pick: int = 1) -> Player:
    def move() -> Player:
        mover = awaited(people, match_id)
        reply = act(mover, match_id, {"pick": pick})
        assert reply.status_code == 200, reply.json()
        return mover

    return await sync_to_async(move)()


async def _rest_events(player: Player, match_id: int) -> list[dict[str, Any]]:
    """The events ``GET matches/{id}/?since=0`` gives the player."""
    def read() -> list[dict[str, Any]]:
        return list(api_client(player).get(url(match_id), {"since": 0}).json()["events"])

    return await sync_to_async(read)()


def _events(messages: list[Sse]) -> list[Sse]:
    return [m for m in messages if m.id is not None]


async def test_a_stream_sends_the_past_then_the_header_then_each_move_live() -> None:
    # given a started match with one move made
    people, match = await sync_to_async(started)()
    await _move(people, match.pk)
    # when the second player streams from the start
    stream = await _open(people[1], match.pk, "?since=0")
    past = await stream.until("match")
    # then the events so far come first, in order, then the match header
    read = await _rest_events(people[1], match.pk)
    assert [(m.id, m.event, m.data) for m in past[:-1]] == [(e["seq"], e["kind"], e) for e in read]
    assert past[-1].event == "match"
    assert [m.id for m in _events(past)] == sorted(m.id for m in _events(past))
    assert past[-1].data["turn"] == 2 and past[-1].id is None
    # when the next move is made by whoever is awaited
    await _move(people, match.pk)
    live = await stream.until("match")
    # then its events arrive live, numbered after the past, and the header says turn 3
    assert min(m.id for m in _events(live)) > max(m.id for m in _events(past))
    assert live[-1].data["turn"] == 3
    await stream.close()


async def test_a_seats_private_events_never_reach_another_seats_stream() -> None:
    # given both seats streaming a match of the secret race (each pick is private to its seat)
    people, match = await sync_to_async(started)()
    streams = {p.pk: await _open(p, match.pk) for p in people}
    for stream in streams.values():
        await stream.until("match")
    # when the awaited player picks
    mover = await _move(people, match.pk, pick=3)
    other = next(p for p in people if p.pk != mover.pk)
    mine, theirs = await streams[mover.pk].until("match"), await streams[other.pk].until("match")
    # then the mover's stream has the pick, the other's only that the seat moved
    assert [m.event for m in _events(mine)] == ["picked", "moved"]
    assert mine[0].data["points"] == 3
    assert [m.event for m in _events(theirs)] == ["moved"]
    # and each event is the JSON the REST read returns for it
    read = await _rest_events(other, match.pk)
    assert [e for e in read if e["seq"] == theirs[0].id] == [theirs[0].data]
    for stream in streams.values():
        await stream.close()


async def test_resume_after_last_event_id_sends_what_was_missed_once_in_order() -> None:
    # given a stream that saw the start and then dropped
    people, match = await sync_to_async(started)()
    first = await _open(people[0], match.pk, "?since=0")
    seen = _events(await first.until("match"))
    await first.close()
    # when two moves are made meanwhile and the client comes back after its last event (the header wins)
    await _move(people, match.pk)
    await _move(people, match.pk)
    again = await _open(people[0], match.pk, "?since=0", **{"Last-Event-ID": str(seen[-1].id)})
    missed = _events(await again.until("match"))
    # then it gets exactly the events after that one, in order, none twice
    ids = [m.id for m in missed]
    assert ids == sorted(set(ids)) and min(ids) > seen[-1].id
    everything = await _rest_events(people[0], match.pk)
    assert [m.id for m in seen] + ids == [e["seq"] for e in everything]
    await again.close()


async def test_at_the_live_edge_a_stream_starts_with_the_header_alone() -> None:
    people, match = await sync_to_async(started)()
    stream = await _open(people[0], match.pk)
    assert [m.event for m in await stream.until("match")] == ["match"]
    await stream.close()


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "9" * 30])
async def test_a_non_numeric_event_id_is_a_400(bad: str) -> None:
    people, match = await sync_to_async(started)()
    headers = await _headers(people[0], **{"Last-Event-ID": bad})
    response = await AsyncClient().get(url(match.pk, "stream/"), headers=headers)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_event_id"
    headers = await _headers(people[0])
    since = await AsyncClient().get(url(match.pk, "stream/"), {"since": bad}, headers=headers)
    assert since.status_code == 400


async def test_a_player_not_seated_gets_a_404_and_a_stranger_a_401() -> None:
    _, match = await sync_to_async(started)()
    outsider = await sync_to_async(PlayerFactory)()
    response = await AsyncClient().get(url(match.pk, "stream/"), headers=await _headers(outsider))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "match_not_found"
    anonymous = await AsyncClient().get(url(match.pk, "stream/"))
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "not_authenticated"


async def _ticket(player: Player) -> str:
    reply = await sync_to_async(lambda: api_client(player).post("/api/v1/streams/ticket/"))()
    assert reply.status_code == 201
    body = reply.json()
    assert body["expires_in"] == 60
    return str(body["ticket"])


async def test_a_ticket_opens_one_stream_once_as_its_user() -> None:
    people, match = await sync_to_async(started)()
    ticket = await _ticket(people[0])
    # when the ticket opens a stream (no Authorization header)
    response = await AsyncClient().get(url(match.pk, "stream/"), {"ticket": ticket})
    assert response.status_code == 200
    stream = AsyncSseReader(response)
    header = (await stream.until("match"))[-1]
    assert header.data["id"] == match.pk
    await stream.close()
    # then it is used up
    again = await AsyncClient().get(url(match.pk, "stream/"), {"ticket": ticket})
    assert again.status_code == 401
    assert again.json()["error"]["code"] == "invalid_ticket"


async def test_a_ticket_is_bound_to_its_user() -> None:
    _, match = await sync_to_async(started)()
    outsider = await sync_to_async(PlayerFactory)()
    ticket = await _ticket(outsider)
    response = await AsyncClient().get(url(match.pk, "stream/"), {"ticket": ticket})
    assert response.status_code == 404  # the outsider's ticket reads as the outsider, who has no seat


async def test_a_ticket_expires_after_60_seconds(settings) -> None:
    # time moved on in this process: the cache in its memory (Redis expires its keys on its own clock)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    people, match = await sync_to_async(started)()
    ticket = await _ticket(people[0])
    with time_machine.travel(timezone.now() + timedelta(seconds=61), tick=False):
        response = await AsyncClient().get(url(match.pk, "stream/"), {"ticket": ticket})
    assert response.status_code == 401


async def test_a_user_holds_at_most_eight_open_streams() -> None:
    people, match = await sync_to_async(started)()
    # given the most streams a user may hold
    streams = [await _open(people[0], match.pk) for _ in range(STREAMS_PER_USER)]
    for stream in streams:
        await stream.until("match")
    # when one more is asked for
    response = await AsyncClient().get(url(match.pk, "stream/"), headers=await _headers(people[0]))
    # then it is refused, while another user may still open one
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "too_many_streams"
    other = await _open(people[1], match.pk)
    await other.close()
    # and once one is closed, a new one opens
    await streams.pop().close()
    streams.append(await _open(people[0], match.pk))
    for stream in streams:
        await stream.close()


async def test_an_idle_stream_sends_pings(settings) -> None:
    settings.LIVE_PING_SECONDS = 0.05
    people, match = await sync_to_async(started)()
    stream = await _open(people[0], match.pk)
    await stream.until("match")
    assert (await stream.next(skip_pings=False)).comment == "ping"
    await stream.close()


def _heartbeats() -> list[asyncio.Task[Any]]:
    return [task for task in asyncio.all_tasks() if task.get_name() == "live-heartbeat" and not task.done()]


async def test_idle_streams_share_one_heartbeat_which_pings_each_and_stops_with_the_last(settings) -> None:
    settings.LIVE_PING_SECONDS = 0.05
    people, match = await sync_to_async(started)()
    # given three idle streams
    streams = [await _open(player, match.pk) for player in (people[0], people[0], people[1])]
    for stream in streams:
        await stream.until("match")
    # then each is pinged, by the one heartbeat task of the event loop (no timer or task of its own)
    for stream in streams:
        assert (await stream.next(skip_pings=False)).comment == "ping"
    beats = _heartbeats()
    assert len(beats) == 1
    # and once the last one is closed (the view's generator is finalized once the client drops it), the
    # heartbeat stops
    for stream in streams:
        await stream.close()
    streams.clear()
    gc.collect()
    await asyncio.wait(beats, timeout=GUARD_SECONDS)
    assert beats[0].done()
    assert _heartbeats() == []


async def test_the_heartbeat_renews_the_slots_of_its_streams(settings, monkeypatch) -> None:
    settings.LIVE_PING_SECONDS = 0.05
    monkeypatch.setattr(sse, "RENEW_SECONDS", 0.0)  # at every tick
    people, match = await sync_to_async(started)()
    stream = await _open(people[0], match.pk)
    await stream.until("match")
    [(slot, lease_end)] = access._local_slots[people[0].user_id].items()
    # when the heartbeat has ticked a few times (a ping each second tick)
    for _ in range(3):
        assert (await stream.next(skip_pings=False)).comment == "ping"
    # then the slot's lease ends later than when it was taken
    assert access._local_slots[people[0].user_id][slot] > lease_end
    await stream.close()


async def test_the_stream_applies_a_passed_deadline_and_tells_who_is_awaited_next() -> None:
    # given a match whose turns time out after one second
    people, match = await sync_to_async(started)(deadline=1)
    stream = await _open(people[0], match.pk)
    header = (await stream.until("match"))[-1]
    # when nobody acts: the stream reads again at the deadline, which applies it
    timed_out = await stream.until("match")
    # then the timeout's event and the next turn arrive
    assert "turn_timed_out" in [m.event for m in timed_out]
    assert timed_out[-1].data["turn"] == header.data["turn"] + 1
    await stream.close()


def _language_of(messages: list[Sse]) -> Any:
    return next(m.data["text"] for m in messages if m.event == "match_started")


async def test_event_texts_speak_the_requests_language() -> None:
    people, match = await sync_to_async(started)()
    english = await _open(people[0], match.pk, "?since=0")
    russian = await _open(people[1], match.pk, "?since=0", **{"Accept-Language": "ru"})
    assert _language_of(await english.until("match")) != _language_of(await russian.until("match"))
    await english.close()
    await russian.close()


async def test_the_match_header_follows_the_end() -> None:
    people, match = await sync_to_async(started)(settings={"target": 1})
    stream = await _open(people[0], match.pk)
    await stream.until("match")
    await _move(people, match.pk)
    header = (await stream.until("match"))[-1]
    finished = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert header.data["status"] == finished.status == "finished"
    assert header.data["result"] == finished.result
    await stream.close()


@pytest.mark.anyio
async def test_under_wsgi_a_stream_answers_what_there_is_and_ends() -> None:
    # given a started match (the synchronous client is a WSGI request, as a WSGI server's would be)
    people, match = await sync_to_async(started)()

    def read() -> Any:
        return api_client(people[0]).get(url(match.pk, "stream/"), {"since": 0})

    response = await sync_to_async(read)()
    # then the body is the events so far and the header, and the response is over (no worker held)
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    body = response.content.decode()
    assert body.startswith("id: 1\nevent: match_started\n") and "event: match\n" in body
    assert body.endswith("\n\n")
