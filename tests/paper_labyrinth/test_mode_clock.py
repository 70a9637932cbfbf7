"""Mode labyrinth_paper's clock (seed 002, C§9) through the match routes, with moved time: no limit until
the timer is called (by another player, or by the game master after a long silence), then a minute or
the player loses; one five-minute pause per player and game; "every_turn" keeps the minute on every turn."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from matches.models import Match, MatchAction
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, url
from tests.paper_labyrinth.mode_helpers import SKIP, Table
from tests.paper_labyrinth.test_mode_games import safe_step

pytestmark = pytest.mark.django_db
CALM = {"starts": "random", "nstop": 500, "cure_time": "unlimited"}
TIMER = {"type": "timer"}
PAUSE = {"type": "pause"}


def deadline(body: dict[str, Any]) -> datetime | None:
    value = body["deadline"]
    return None if value is None else datetime.fromisoformat(value)


def kinds(body: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in body["events"]]


def health(table: Table, player: Any) -> str:
    return str(table.read(player)["view"]["status"]["health"])


def test_by_default_a_turn_waits_until_another_player_calls_the_timer_then_a_minute_loses() -> None:
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # given: a table on the default settings, the admin's deadline at the old minute
        table = Table.open(3, CALM, deadline=60)
        silent = table.awaited()
        caller, third = (p for p in table.people if p != silent)
        started = table.match().turn_started_at
        body = table.read(caller)
        assert deadline(body) == started + timedelta(days=1)  # only the game master's patience
        assert body["allowed_actions"] == [TIMER]
        assert body["view"]["clock"] == {"timer": "on_call", "timer_running": False, "paused": False,
                                         "pause_used": False, "gm_timer_after": 86400}
        # when: ten minutes pass in silence
        clock.shift(timedelta(minutes=10))
        # then: nothing happened
        assert table.read(third)["turn"] == 1 and health(table, silent) == "healthy"
        # when: another player calls the timer on the silent one
        called_at = timezone.now()
        reply = table.post(caller, TIMER)
        # then: a step every seat hears, recorded as the caller's; the silent player has a minute
        assert reply["turn"] == 1 and reply["next_turn"] == 2
        event = reply["events"][0]
        assert (event["kind"], event["seat"], event["by"], event["seconds"]) == (
            "timer_started", table.seat_of(silent), table.seat_of(caller), 60)
        for player in table.people:
            assert "timer_started" in kinds(table.read(player))
        step = MatchAction.objects.get(match_id=table.match_id)
        assert (step.seat, step.player_id, step.action) == (table.seat_of(caller), caller.pk, TIMER)
        body = table.read(silent)
        assert deadline(body) == called_at + timedelta(seconds=60) and body["awaiting"] == silent.pk
        assert body["view"]["clock"]["timer_running"] is True
        assert table.read(third)["allowed_actions"] == []  # no second call on a running timer
        # when: the minute passes
        clock.shift(timedelta(seconds=61))
        # then: the silent player lost (C§9: dead, the corpse stays), and the next one's turn is untimed
        assert health(table, silent) == "dead"
        after = table.read(caller)
        assert any(e.get("code") == "timeout" for e in after["events"])
        assert after["awaiting"] != silent.pk and after["view"]["clock"]["timer_running"] is False
        table.assert_nothing_leaked()


def test_the_game_master_calls_the_timer_after_the_tables_long_silence() -> None:
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # given: a table whose game master waits ten minutes
        table = Table.open(2, {**CALM, "gm_timer_after": 600})
        silent = table.awaited()
        started = table.match().turn_started_at
        # when: ten minutes and a second pass
        clock.shift(timedelta(seconds=601))
        body = table.read(silent)
        # then: the game master called the timer (a timed-out step), and the minute runs from there
        assert kinds(body)[-2:] == ["turn_timed_out", "timer_started"]
        assert body["events"][-1]["by"] is None and body["awaiting"] == silent.pk
        assert deadline(body) == started + timedelta(seconds=660) and health(table, silent) == "healthy"
        # when: the minute passes too, the player lost, and the last one left wins (C§3.5)
        clock.shift(timedelta(seconds=60))
        end = table.read(silent)
        assert end["status"] == "finished" and end["result"]["winners"] != [silent.pk]


def test_each_player_has_one_five_minute_pause_which_stops_the_timer() -> None:
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # given: a running timer on the awaited player
        table = Table.open(3, CALM)
        mover = table.awaited()
        other = next(p for p in table.people if p != mover)
        table.post(other, TIMER)
        assert PAUSE in table.read(mover)["allowed_actions"]
        # when: the awaited player takes the pause
        paused_at = timezone.now()
        reply = table.post(mover, PAUSE)
        # then: five minutes to think, heard by all; nobody calls the timer meanwhile
        assert reply["events"][0]["kind"] == "pause_taken" and reply["events"][0]["seconds"] == 300
        body = table.read(mover)
        assert deadline(body) == paused_at + timedelta(seconds=300)
        assert body["view"]["clock"] == {"timer": "on_call", "timer_running": False, "paused": True,
                                         "pause_used": True, "gm_timer_after": 86400}
        assert PAUSE not in body["allowed_actions"]
        assert table.read(other)["allowed_actions"] == []
        assert table.post(other, TIMER, status=409)["error"]["code"] == "not_your_turn"
        # when: the pause ends, the minute runs; the player is still in the game
        clock.shift(timedelta(seconds=301))
        body = table.read(mover)
        assert kinds(body)[-1] == "pause_over" and body["view"]["clock"]["timer_running"] is True
        assert deadline(body) == paused_at + timedelta(seconds=360) and health(table, mover) == "healthy"
        # and when the player moves, and comes round again, the pause is gone for the rest of the game
        table.post(mover, safe_step(table))
        for _ in range(2):
            table.post(table.awaited(), SKIP)
        assert table.awaited() == mover and PAUSE not in table.read(mover)["allowed_actions"]
        assert table.post(mover, PAUSE, status=409)["error"]["code"] == "pause_used"
        assert table.read(other)["allowed_actions"] == [TIMER]  # a new turn: the timer may be called again
        table.assert_nothing_leaked()


def test_a_call_is_refused_to_the_awaited_player_and_to_one_who_walked_out_and_retries_replay() -> None:
    table = Table.open(3, CALM)
    mover = table.awaited()
    others = [p for p in table.people if p != mover]
    # the awaited player cannot time himself
    assert table.post(mover, TIMER, status=409)["error"]["code"] == "own_turn"
    # a player who walked out sends nothing, not even a call
    walked = others[1]
    assert table.clients[walked.pk].post(url(table.match_id, "leave/")).status_code == 200
    assert table.read(walked)["allowed_actions"] == []
    assert table.post(walked, TIMER, status=409)["error"]["code"] == "not_your_turn"
    # a call retried with its key is answered once
    client = table.clients[others[0].pk]
    body = {"turn": table.match().turn, "action": TIMER, "idempotency_key": "call-1"}
    first = client.post(url(table.match_id, "actions/"), body, format="json").json()
    again = client.post(url(table.match_id, "actions/"), body, format="json").json()
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert {**again, "replayed": False} == first
    assert MatchAction.objects.filter(match_id=table.match_id, action=TIMER).count() == 1


def test_an_every_turn_table_keeps_the_minute_and_has_no_calls_or_pauses() -> None:
    with time_machine.travel(timezone.now(), tick=False) as clock:
        table = Table.open(2, {**CALM, "timer": "every_turn"}, deadline=60)
        mover = table.awaited()
        other = next(p for p in table.people if p != mover)
        body = table.read(mover)
        assert deadline(body) == table.match().turn_started_at + timedelta(seconds=60)
        assert PAUSE not in body["allowed_actions"] and body["view"]["clock"] == {"timer": "every_turn"}
        assert table.read(other)["allowed_actions"] == []
        assert table.post(mover, PAUSE, status=409)["error"]["code"] == "timer_every_turn"
        assert "clock" not in table.state()  # as the state of a match started before the clock
        clock.shift(timedelta(seconds=61))
        assert table.read(mover)["status"] == "finished"  # the silent one lost; the other is left


@pytest.mark.parametrize(("given", "code"), [
    ({"timer": "sometimes"}, "bad_timer"),
    ({"gm_timer_after": 59}, "bad_gm_timer_after"),
    ({"gm_timer_after": 7 * 86400 + 1}, "bad_gm_timer_after"),
    ({"gm_timer_after": "600"}, "bad_gm_timer_after"),
])
def test_bad_clock_settings_are_400(given: dict[str, Any], code: str) -> None:
    lobby = {"mode": "labyrinth_paper", "settings": given}
    reply = api_client(PlayerFactory()).post(MATCHES, lobby, format="json")
    assert reply.status_code == 400 and reply.json()["error"]["code"] == code
    assert not Match.objects.exists()
