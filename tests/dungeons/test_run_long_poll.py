"""``GET runs/{id}/?since=N&wait=S``: a long-poll woken by the run's and its battles' steps through the live
hub, not by reading again and again (SPEC 13); a wait outside 0 < S <= 30 is a 400 as for matches."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from backend.live import hub as live_hub
from dungeons import apis
from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    combat_settings,
    current_battle,
    first_attack,
    guild_party,
    run_settings,
    small_dungeons,
    started,
)

pytestmark = pytest.mark.django_db(transaction=True)

ROOMS = ["trap", "enemy", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=40, enemy_damage=1, boss_hp=40)
    run_settings(trap_damage_base=1, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)


@pytest.fixture
def waits(settings, monkeypatch) -> list[bool]:
    """What each long-poll's wait ended with: True when the change came, False when its time ran out."""
    settings.REDIS_URL = ""
    ended: list[bool] = []
    original = apis.wait_for

    def recorded(*args: Any, **kwargs: Any) -> bool:
        ended.append(original(*args, **kwargs))
        return ended[-1]

    monkeypatch.setattr(apis, "wait_for", recorded)
    return ended


def _party(monkeypatch: Any) -> tuple[list[Any], Any, Party]:
    players, _ = guild_party(2)
    run = started(players, monkeypatch, ROOMS)
    return players, run, Party(players)


def _poll_in_thread(party: Party, who: Any, run_id: int, since: int, wait: float
                    ) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []

    def poll() -> None:
        answers.append(party.client(who).get(f"{API}/runs/{run_id}/", {"since": since, "wait": wait}))

    thread = threading.Thread(target=poll)
    thread.start()
    return thread, answers


def _until_listening(run_id: int, thread: threading.Thread) -> None:
    while live_hub.HUB.listening(f"run:{run_id}") == 0 and thread.is_alive():
        threading.Event().wait(0.01)


@pytest.mark.parametrize("wait", ["0", "-1", "30.5", "abc", "nan"])
def test_a_wait_outside_0_to_30_seconds_is_a_400(monkeypatch: Any, wait: str) -> None:
    players, run, party = _party(monkeypatch)
    reply = party.client(players[0]).get(f"{API}/runs/{run.pk}/", {"since": 0, "wait": wait})
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "invalid"
    assert reply.json()["error"]["details"]["fields"]["wait"]


def test_a_long_poll_answers_when_a_party_member_advances(monkeypatch: Any, waits: list[bool]) -> None:
    # given the second member long-polling after the last event, for up to 30 s
    players, run, party = _party(monkeypatch)
    last = party.run(run.pk, players[1])["last_event"]
    thread, answers = _poll_in_thread(party, players[1], run.pk, last, 30)
    _until_listening(run.pk, thread)
    # when the first member advances
    step = party.run(run.pk, players[0])["step"]
    assert party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    thread.join()
    # then the poll was woken by the step (not by its time running out) and answers with its events
    assert waits == [True]
    body = answers[0].json()
    assert body["events"]
    assert [e["seq"] for e in body["events"]] == list(range(last + 1, body["last_event"] + 1))
    assert body["step"] == step + 1


def test_a_long_poll_answers_when_a_battle_action_is_taken(monkeypatch: Any, waits: list[bool]) -> None:
    # given a run in a battle, long-polled by a member after the last event
    players, run, party = _party(monkeypatch)
    step = party.run(run.pk)["step"]
    assert party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    run.refresh_from_db()
    battle_id = current_battle(run).pk
    last = party.run(run.pk, players[1])["last_event"]
    thread, answers = _poll_in_thread(party, players[1], run.pk, last, 30)
    _until_listening(run.pk, thread)
    # when the awaited member attacks
    awaited = party.battle(battle_id)["awaiting"]
    mine = party.battle(battle_id, who=awaited)
    assert party.act(awaited, battle_id, mine["turn"], first_attack(mine)).status_code == 200
    thread.join()
    # then the poll answers with the battle's events, in the run's sequence
    assert waits == [True]
    events = answers[0].json()["events"]
    assert events and {e["origin"] for e in events} == {"battle"}
    assert min(e["seq"] for e in events) == last + 1


def test_a_long_poll_with_something_new_already_answers_at_once(monkeypatch: Any, waits: list[bool]) -> None:
    players, run, party = _party(monkeypatch)
    reply = party.client(players[0]).get(f"{API}/runs/{run.pk}/", {"since": 0, "wait": 30})
    assert reply.status_code == 200 and reply.json()["events"]
    assert waits == []  # it never waited


def test_a_long_poll_with_nothing_new_answers_after_its_time_unchanged(monkeypatch: Any,
                                                                     waits: list[bool]) -> None:
    players, run, party = _party(monkeypatch)
    before = party.run(run.pk, players[0])
    query = {"since": before["last_event"], "wait": 0.05}
    reply = party.client(players[0]).get(f"{API}/runs/{run.pk}/", query)
    assert reply.status_code == 200
    assert waits == [False]
    assert reply.json()["events"] == [] and reply.json()["last_event"] == before["last_event"]
    assert reply.json()["step"] == before["step"]


def test_a_long_poll_applies_the_awaited_turns_passed_deadline(monkeypatch: Any, waits: list[bool]) -> None:
    # given a run in a battle whose turns time out after a second, long-polled for up to 30 s
    players, run, party = _party(monkeypatch)
    combat_settings(turn_deadline_seconds=1)
    step = party.run(run.pk)["step"]
    assert party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    last = party.run(run.pk, players[1])["last_event"]
    reply = party.client(players[1]).get(f"{API}/runs/{run.pk}/", {"since": last, "wait": 30})
    # then it answers once the deadline passed, with the timed-out turn applied
    assert waits == [True]
    events = reply.json()["events"]
    assert {"kind": "turn_skipped", "reason": "timeout"}.items() <= events[0].items()


def test_the_stream_and_the_long_poll_are_in_the_openapi_schema(admin_client: Any) -> None:
    # when the served schema is read
    schema = admin_client.get("/api/schema/", {"format": "json"}).json()
    # then the run's stream answers Server-Sent Events, with its resume parameters and its refusals
    stream = schema["paths"]["/api/v1/runs/{run_id}/stream/"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert {"since", "ticket", "Last-Event-ID"} <= {p["name"] for p in stream["parameters"]}
    assert {"400", "401", "404", "429"} <= set(stream["responses"])
    # and the run's read takes wait next to since
    read = schema["paths"]["/api/v1/runs/{run_id}/"]["get"]
    assert {"since", "wait"} <= {p["name"] for p in read["parameters"]}
