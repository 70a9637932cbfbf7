"""``GET runs/{id}/stream/`` read incrementally through Django's AsyncClient (SPEC 13): a member gets the
run's log entries and its battles' events in the run's one sequence, in order, each once, then live (a party
member's advance, a battle action, a deadline applied by the clock); a ``run`` message when ``step``,
``status``, ``awaiting`` or ``deadline`` change; resume by ``Last-Event-ID``; 404 for a non-member, 400 for an
id that is not a number."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from rest_framework_simplejwt.tokens import RefreshToken

from backend.deadlines import deadlines_fire_due
from dungeons.models import Run
from players.models import Player
from tests.backend.live.sse_reader import AsyncSseReader, Sse
from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    current_battle,
    first_attack,
    fix_seed,
    guild_party,
    lobby,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]

ROOMS = ["trap", "enemy", "treasure", "rest", "boss"]


@pytest.fixture
def _steered() -> None:
    """Small dungeons, sturdy enemies (a battle lasts), no loot or trap effects to vary the log."""
    small_dungeons(rooms=5)
    bestiary(enemy_hp=40, enemy_damage=1, boss_hp=40)
    run_settings(trap_damage_base=1, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)


def _stream_url(run_id: int, query: str = "") -> str:
    return f"{API}/runs/{run_id}/stream/{query}"


async def _headers(player: Player, **extra: str) -> dict[str, str]:
    token = await sync_to_async(lambda: str(RefreshToken.for_user(player.user).access_token))()
    return {"Authorization": f"Bearer {token}", **extra}


async def _open(player: Player, run_id: int, query: str = "", **headers: str) -> AsyncSseReader:
    response = await AsyncClient().get(_stream_url(run_id, query), headers=await _headers(player, **headers))
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return AsyncSseReader(response)


async def _read(party: Party, run_id: int, who: Player, since: int = 0) -> dict[str, Any]:
    """``GET runs/{id}/?since=N`` as ``who`` sees it."""
    def read() -> dict[str, Any]:
        reply = party.client(who).get(f"{API}/runs/{run_id}/", {"since": since})
        assert reply.status_code == 200, reply.json()
        return dict(reply.json())

    return await sync_to_async(read)()


async def _until_event(stream: AsyncSseReader, last: int) -> list[Sse]:
    """Every message up to and including the event numbered ``last``."""
    seen = [await stream.next()]
    while seen[-1].id != last:
        assert seen[-1].id is None or seen[-1].id < last, seen
        seen.append(await stream.next())
    return seen


def _events(messages: list[Sse]) -> list[Sse]:
    return [m for m in messages if m.id is not None]


def _headers_of(messages: list[Sse]) -> list[dict[str, Any]]:
    return [m.data for m in messages if m.event == "run"]


def _advance(party: Party, who: Player, run_id: int) -> dict[str, Any]:
    step = party.run(run_id, who)["step"]
    reply = party.post(who, f"runs/{run_id}/advance/", {"step": step})
    assert reply.status_code == 200, reply.json()
    return dict(reply.json())


def _battle_now(run: Run) -> Any:
    """The battle of the party's room as it stands now."""
    run.refresh_from_db()
    return current_battle(run)


def _started(monkeypatch: Any, size: int = 2) -> tuple[list[Player], Run, Party]:
    players, _ = guild_party(size)
    run = started(players, monkeypatch, ROOMS)
    return players, run, Party(players)


@pytest.mark.usefixtures("_steered")
async def test_a_member_gets_the_past_then_a_party_members_advance_live(monkeypatch: Any) -> None:
    # given a started run of two, streamed by the second member from the start
    players, run, party = await sync_to_async(_started)(monkeypatch)
    stream = await _open(players[1], run.pk, "?since=0")
    past = await stream.until("run")
    # then the events so far come first, in order, as the REST read gives them, then the run header
    before = await _read(party, run.pk, players[1])
    assert [(m.id, m.event, m.data) for m in past[:-1]] == [(e["seq"], e["kind"], e)
                                                             for e in before["events"]]
    assert past[-1].id is None
    assert past[-1].data == {"id": run.pk, "step": before["step"], "status": "active", "awaiting": None,
                             "deadline": None}
    # when the first member advances into the enemy room (a battle begins)
    await sync_to_async(_advance)(party, players[0], run.pk)
    after = await _read(party, run.pk, players[1], since=before["last_event"])
    live = await _until_event(stream, after["last_event"])
    # then exactly the new events arrive live, numbered on after the past, as the REST read shows them
    assert [(m.id, m.event, m.data) for m in _events(live)] == [(e["seq"], e["kind"], e)
                                                                 for e in after["events"]]
    assert min(m.id for m in _events(live)) == before["last_event"] + 1
    assert "entered" in [m.event for m in _events(live)]
    # and a run header says the new step, whom the battle awaits and until when
    header = (await stream.until("run"))[-1]
    assert header.data["step"] == after["step"] == before["step"] + 1
    assert header.data["awaiting"] == after["awaiting"] is not None
    assert header.data["deadline"] == after["deadline"] is not None
    await stream.close()


@pytest.mark.usefixtures("_steered")
async def test_a_battle_action_reaches_the_other_members_stream_with_its_ids(monkeypatch: Any) -> None:
    # given a run of two in a battle, the second member streaming from the live edge
    players, run, party = await sync_to_async(_started)(monkeypatch)
    await sync_to_async(_advance)(party, players[0], run.pk)
    battle_id = (await sync_to_async(_battle_now)(run)).pk
    stream = await _open(players[1], run.pk)
    edge = await stream.until("run")
    assert [m.event for m in edge] == ["run"]  # from the live edge: the header alone
    before = await _read(party, run.pk, players[1])

    # when the awaited member attacks
    def attack() -> None:
        awaited = party.battle(battle_id)["awaiting"]
        mine = party.battle(battle_id, who=awaited)
        assert party.act(awaited, battle_id, mine["turn"], first_attack(mine)).status_code == 200

    await sync_to_async(attack)()
    after = await _read(party, run.pk, players[1], since=before["last_event"])
    live = _events(await _until_event(stream, after["last_event"]))
    # then the battle's events arrive, in the run's sequence, each naming its battle and its number there
    assert [m.data for m in live] == after["events"]
    assert [m.id for m in live] == list(range(before["last_event"] + 1, after["last_event"] + 1))
    assert {m.data["origin"] for m in live} == {"battle"}
    assert {m.data["battle"] for m in live} == {battle_id}
    battle_events = await sync_to_async(party.battle)(battle_id, players[1])
    by_battle_seq = {e["seq"]: e["kind"] for e in battle_events["events"]}
    assert all(by_battle_seq[m.data["battle_seq"]] == m.event for m in live)
    await stream.close()


@pytest.mark.usefixtures("_steered")
async def test_a_deadline_applied_by_the_clock_reaches_the_stream(monkeypatch: Any) -> None:
    # given a run in a battle, streamed from the live edge by a member
    players, run, party = await sync_to_async(_started)(monkeypatch)
    await sync_to_async(_advance)(party, players[0], run.pk)
    battle = await sync_to_async(_battle_now)(run)
    stream = await _open(players[1], run.pk)
    header = (await stream.until("run"))[-1].data
    before = await _read(party, run.pk, players[1])
    # when the deadline clock applies the awaited turn's deadline (nobody reading)
    assert await sync_to_async(deadlines_fire_due)(battle.turn_started_at + timedelta(days=1)) >= 1
    after = await _read(party, run.pk, players[1], since=before["last_event"])
    live = await _until_event(stream, after["last_event"])
    # then the timed-out turn's events arrive live, the first saying the turn was lost to the timeout
    assert [m.data for m in _events(live)] == after["events"]
    assert live[0].event == "turn_skipped" and live[0].data["reason"] == "timeout"
    # and the header follows with the new deadline
    new = (await stream.until("run"))[-1].data
    assert new["deadline"] != header["deadline"] and new["deadline"] == after["deadline"]
    await stream.close()


async def test_a_lobby_member_sees_the_status_change_when_the_host_starts(monkeypatch: Any) -> None:
    # given a lobby of two (the dungeon steered), streamed by the member who is not the host
    await sync_to_async(small_dungeons)(rooms=5)
    fix_seed(monkeypatch, 7)
    players, _ = await sync_to_async(guild_party)(2)
    party = await sync_to_async(Party)(players)
    run = await sync_to_async(lobby)(players)
    stream = await _open(players[1], run.pk)
    header = (await stream.until("run"))[-1].data
    assert header["status"] == "lobby"
    before = await _read(party, run.pk, players[1])
    # when the host starts the run
    reply = await sync_to_async(party.post)(players[0], f"runs/{run.pk}/start/")
    assert reply.status_code == 200, reply.json()
    # then the stream sends the start's events and a header saying the run is active, at its new step
    after = await _read(party, run.pk, players[1], since=before["last_event"])
    messages = await stream.until("run")
    assert [m.data for m in _events(messages)] == after["events"] != []
    assert messages[-1].data["status"] == "active"
    assert messages[-1].data["step"] == after["step"]
    await stream.close()


@pytest.mark.usefixtures("_steered")
async def test_resume_after_last_event_id_sends_only_what_was_missed(monkeypatch: Any) -> None:
    # given a member's stream that saw everything so far, then dropped
    players, run, party = await sync_to_async(_started)(monkeypatch)
    first = await _open(players[0], run.pk, "?since=0")
    seen = _events(await first.until("run"))
    await first.close()
    # when the party advances meanwhile and the client comes back after its last event (over ?since=0)
    await sync_to_async(_advance)(party, players[1], run.pk)
    everything = await _read(party, run.pk, players[0])
    again = await _open(players[0], run.pk, "?since=0", **{"Last-Event-ID": str(seen[-1].id)})
    missed = _events(await _until_event(again, everything["last_event"]))
    # then it gets exactly the events after that one, in order, none twice, and nothing is lost
    assert [m.id for m in seen] + [m.id for m in missed] == [e["seq"] for e in everything["events"]]
    assert [m.data for m in missed] == [e for e in everything["events"] if e["seq"] > seen[-1].id]
    await again.close()


@pytest.mark.usefixtures("_steered")
async def test_a_non_member_gets_a_404_and_a_stranger_without_credentials_a_401(monkeypatch: Any) -> None:
    players, run, _ = await sync_to_async(_started)(monkeypatch)
    outsider = await sync_to_async(PlayerFactory)()
    response = await AsyncClient().get(_stream_url(run.pk), headers=await _headers(outsider))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "run_not_found"
    missing = await AsyncClient().get(_stream_url(run.pk + 1000), headers=await _headers(players[0]))
    assert missing.status_code == 404
    anonymous = await AsyncClient().get(_stream_url(run.pk))
    assert anonymous.status_code == 401


async def test_a_lobby_is_streamed_by_its_members_only() -> None:
    # given an open lobby (any player may read it over REST)
    host, stranger = await sync_to_async(PlayerFactory)(), await sync_to_async(PlayerFactory)()
    run = await sync_to_async(lobby)([host])
    # then its stream is its members' only
    response = await AsyncClient().get(_stream_url(run.pk), headers=await _headers(stranger))
    assert response.status_code == 404
    stream = await _open(host, run.pk)
    assert (await stream.until("run"))[-1].data["status"] == "lobby"
    await stream.close()


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "9" * 30])
async def test_an_event_id_that_is_not_a_number_is_a_400(bad: str) -> None:
    host = await sync_to_async(PlayerFactory)()
    run = await sync_to_async(lobby)([host])
    headers = await _headers(host, **{"Last-Event-ID": bad})
    response = await AsyncClient().get(_stream_url(run.pk), headers=headers)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_event_id"
    since = await AsyncClient().get(_stream_url(run.pk), {"since": bad}, headers=await _headers(host))
    assert since.status_code == 400
    assert since.json()["error"]["code"] == "invalid_event_id"


@pytest.mark.usefixtures("_steered")
async def test_the_events_speak_the_streams_language(monkeypatch: Any) -> None:
    # given a started run, streamed from the start in Russian
    players, run, party = await sync_to_async(_started)(monkeypatch)
    stream = await _open(players[0], run.pk, "?since=0", **{"Accept-Language": "ru"})
    events = _events(await stream.until("run"))
    # then each event's text is the Russian the REST read gives in Russian, not the English one
    russian = await sync_to_async(lambda: party.client(players[0]).get(
        f"{API}/runs/{run.pk}/", HTTP_ACCEPT_LANGUAGE="ru").json()["events"])()
    english = await _read(party, run.pk, players[0])
    assert [m.data["text"] for m in events] == [e["text"] for e in russian]
    assert [m.data["text"] for m in events] != [e["text"] for e in english["events"]]
    await stream.close()


async def test_a_ticket_opens_the_run_stream_once_for_a_member() -> None:
    # given a lobby's host with a one-time ticket (EventSource sends no headers)
    host = await sync_to_async(PlayerFactory)()
    run = await sync_to_async(lobby)([host])
    reply = await AsyncClient().post(f"{API}/streams/ticket/", headers=await _headers(host))
    assert reply.status_code == 201
    ticket = reply.json()["ticket"]
    # when the ticket opens the run's stream
    response = await AsyncClient().get(_stream_url(run.pk), {"ticket": ticket})
    assert response.status_code == 200
    stream = AsyncSseReader(response)
    # then the stream is the host's (the run header), and the ticket is used up
    assert (await stream.until("run"))[-1].data["id"] == run.pk
    await stream.close()
    again = await AsyncClient().get(_stream_url(run.pk), {"ticket": ticket})
    assert again.status_code == 401
    assert again.json()["error"]["code"] == "invalid_ticket"
