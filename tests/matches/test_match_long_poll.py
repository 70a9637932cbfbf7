"""``GET matches/{id}/?since=N&wait=S``: a long-poll woken by the match's steps through the live hub, not by
reading again and again (SPEC 13)."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from backend.live import hub as live_hub
from matches import apis
from tests.factories import api_client
from tests.matches.helpers import act, awaited, read, started, url

pytestmark = pytest.mark.django_db(transaction=True)


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


def _poll_in_thread(player: Any, match_id: int, since: int, wait: float) -> tuple[threading.Thread, list]:
    answers: list[Any] = []

    def poll() -> None:
        answers.append(api_client(player).get(url(match_id), {"since": since, "wait": wait}))

    thread = threading.Thread(target=poll)
    thread.start()
    return thread, answers


def _until_listening(match_id: int, thread: threading.Thread) -> None:
    while live_hub.HUB.listening(f"match:{match_id}") == 0 and thread.is_alive():
        threading.Event().wait(0.01)


@pytest.mark.parametrize("wait", ["0", "-1", "30.5", "abc", "nan"])
def test_a_wait_outside_0_to_30_seconds_is_a_400(wait: str) -> None:
    people, match = started()
    reply = api_client(people[0]).get(url(match.pk), {"since": 0, "wait": wait})
    assert reply.status_code == 400


def test_a_long_poll_answers_when_a_move_is_made(waits: list[bool]) -> None:
    # given a player long-polling after the last event, for up to 30 s
    people, match = started()
    last = read(people[0], match.pk)["last_event"]
    thread, answers = _poll_in_thread(people[0], match.pk, last, 30)
    _until_listening(match.pk, thread)
    # when the awaited player moves
    mover = awaited(people, match.pk)
    assert act(mover, match.pk, {"pick": 1}).status_code == 200
    thread.join()
    # then the poll was woken by the move (not by its time running out) and answers with its events
    assert waits == [True]
    body = answers[0].json()
    assert body["events"] and min(e["seq"] for e in body["events"]) > last
    assert body["turn"] == 2


def test_a_long_poll_with_something_new_already_answers_at_once(waits: list[bool]) -> None:
    people, match = started()
    reply = api_client(people[0]).get(url(match.pk), {"since": 0, "wait": 30})
    assert reply.status_code == 200 and reply.json()["events"]
    assert waits == []  # it never waited


def test_a_long_poll_with_nothing_new_answers_after_its_time_unchanged(waits: list[bool]) -> None:
    people, match = started()
    last = read(people[0], match.pk)["last_event"]
    reply = api_client(people[0]).get(url(match.pk), {"since": last, "wait": 0.05})
    assert reply.status_code == 200
    assert waits == [False]
    assert reply.json()["events"] == [] and reply.json()["last_event"] == last


def test_a_long_poll_answers_when_the_turns_deadline_passes(waits: list[bool]) -> None:
    # given a match whose turns time out after a second, long-polled for up to 30 s
    people, match = started(deadline=1)
    last = read(people[0], match.pk)["last_event"]
    reply = api_client(people[0]).get(url(match.pk), {"since": last, "wait": 30})
    # then it answers once the deadline passed, with the timed-out turn applied
    assert waits == [True]
    assert "turn_timed_out" in [e["kind"] for e in reply.json()["events"]]
