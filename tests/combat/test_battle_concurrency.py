"""One action per turn under real concurrent requests on PostgreSQL: 32 clients of the awaited player
send the same action for the same turn through the live server at once (threads released by a
barrier); exactly one takes effect. Readers racing to apply a passed deadline skip the turn once."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from functools import partial

import pytest
import time_machine

from combat.models import Battle, BattleAction, BattleEvent
from players.models import Player
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.dungeons.run_helpers import bestiary, combat_settings, current_battle, small_dungeons, started
from tests.factories import PlayerFactory

pytestmark = pytest.mark.postgres

CLIENTS = 32


def _battle(monkeypatch, deadline: int = 3600) -> tuple[list[Player], Battle]:
    """A battle awaiting one of two players; a long turn deadline so a slow machine never times a turn out."""
    small_dungeons(rooms=5)
    bestiary(enemy_hp=200, enemy_damage=1)
    combat_settings(turn_deadline_seconds=deadline)
    players = [PlayerFactory(stamina=20), PlayerFactory(stamina=20)]
    run = started(players, monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    return players, current_battle(run)


def _assert_log_is_whole(battle: Battle) -> None:
    battle.refresh_from_db()
    seqs = list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, battle.event_count + 1))


def test_32_identical_actions_without_a_key_take_effect_once(live_url, monkeypatch) -> None:
    # given: a battle awaiting one player, and that player's 32 clients
    _players, battle = _battle(monkeypatch)
    actor = Player.objects.get(pk=battle.awaiting_id)
    step, events_before = battle.step, battle.event_count
    url = f"{live_url}/api/v1/battles/{battle.pk}/actions/"
    body = {"turn": step, "action": {"kind": "attack", "target": "e1"}}

    # when: all of them send the same attack for the same turn at once
    replies = all_at_once([partial(request, "POST", url, token(actor), body) for _ in range(CLIENTS)])

    # then: one was applied, every other one is a stale turn
    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_turn"}
    winner = next(r.body for r in replies if r.status == 200)
    assert BattleAction.objects.filter(battle=battle).count() == 1
    assert BattleAction.objects.get(battle=battle).step == step
    battle.refresh_from_db()
    assert battle.step == winner["next_turn"]
    assert battle.event_count == events_before + len(winner["events"])
    new = [e.data for e in BattleEvent.objects.filter(battle=battle, seq__gt=events_before).order_by("seq")]
    # the answer shows the stored events, each with its sentence added at read time
    assert all(e["text"] for e in winner["events"])
    assert new == [{key: value for key, value in e.items() if key != "text"} for e in winner["events"]]
    assert sum(1 for e in new if e["kind"] == "attack" and e["actor"] == f"p{actor.pk}") == 1
    _assert_log_is_whole(battle)


def test_32_retries_with_one_idempotency_key_all_get_the_one_original_answer(live_url, monkeypatch) -> None:
    _players, battle = _battle(monkeypatch)
    actor = Player.objects.get(pk=battle.awaiting_id)
    step, events_before = battle.step, battle.event_count
    url = f"{live_url}/api/v1/battles/{battle.pk}/actions/"
    body = {"turn": step, "action": {"kind": "attack", "target": "e1"}, "idempotency_key": "tap-tap-tap"}

    replies = all_at_once([partial(request, "POST", url, token(actor), body) for _ in range(CLIENTS)])

    assert Counter(r.status for r in replies) == {200: CLIENTS}, replies
    assert Counter(r.body["replayed"] for r in replies) == {False: 1, True: CLIENTS - 1}
    original = next(r.body for r in replies if not r.body["replayed"])
    assert all({**r.body, "replayed": False} == original for r in replies)
    assert BattleAction.objects.filter(battle=battle).count() == 1
    battle.refresh_from_db()
    assert battle.event_count == events_before + len(original["events"])
    _assert_log_is_whole(battle)


def test_32_different_keys_for_one_turn_still_take_effect_once(live_url, monkeypatch) -> None:
    _players, battle = _battle(monkeypatch)
    actor = Player.objects.get(pk=battle.awaiting_id)
    url = f"{live_url}/api/v1/battles/{battle.pk}/actions/"

    replies = all_at_once(
        [
            partial(
                request,
                "POST",
                url,
                token(actor),
                {
                    "turn": battle.step,
                    "action": {"kind": "attack", "target": "e1"},
                    "idempotency_key": f"k{n}",
                },
            )
            for n in range(CLIENTS)
        ]
    )

    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_turn"}
    assert BattleAction.objects.filter(battle=battle).count() == 1
    _assert_log_is_whole(battle)


def test_readers_and_a_late_actor_racing_over_a_passed_deadline_skip_the_turn_once(
    live_url, monkeypatch
) -> None:
    # given: the awaited player stayed silent past the deadline
    players, battle = _battle(monkeypatch, deadline=60)
    silent = Player.objects.get(pk=battle.awaiting_id)
    step = battle.step
    read = f"{live_url}/api/v1/battles/{battle.pk}/"
    act = f"{live_url}/api/v1/battles/{battle.pk}/actions/"
    calls = []
    for n in range(CLIENTS):
        reader = players[n % 2]
        calls.append(
            partial(request, "GET", read, token(reader))
            if n % 4
            else partial(
                request,
                "POST",
                act,
                token(silent),
                {"turn": step, "action": {"kind": "attack", "target": "e1"}},
            )
        )

    # when: everyone reads, and the silent player finally acts, a second after the deadline
    with time_machine.travel(battle.turn_started_at + timedelta(seconds=61), tick=False):
        replies = all_at_once(calls)

    # then: the turn was skipped exactly once; the late action is stale; every reader sees the same turn
    gets = [r for r, call in zip(replies, calls, strict=True) if call.args[0] == "GET"]
    posts = [r for r, call in zip(replies, calls, strict=True) if call.args[0] == "POST"]
    assert {r.status for r in gets} == {200}
    assert {(r.status, r.code) for r in posts} == {(409, "stale_turn")}
    timeouts = BattleAction.objects.filter(battle=battle, response={"timeout": True})
    assert list(timeouts.values_list("step", "player_id")) == [(step, silent.pk)]
    battle.refresh_from_db()
    assert {r.body["turn"] for r in gets} == {battle.step}
    assert {r.body["awaiting"] for r in gets} == {battle.awaiting_id} != {silent.pk}
    _assert_log_is_whole(battle)
