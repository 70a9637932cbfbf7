"""Turn deadlines: a silent player's turn is skipped when anyone next reads or acts (if the deadline clock,
tests/backend/test_deadlines.py, has not yet), and deadlines chain from the moment the previous one
passed. Clock: ``now=`` at the service level, time_machine over HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from backend.errors import RuleViolation
from combat.models import Battle, BattleAction
from dungeons.models import RunMember
from dungeons.runs.battles import battle_act, battle_refresh
from players.models import Player
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    combat_settings,
    current_battle,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ENEMY_FIRST = ["enemy", "trap", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=30, enemy_damage=1)
    combat_settings(turn_deadline_seconds=60)


def _two_in_battle(monkeypatch) -> tuple[list[Player], Battle]:
    players = [PlayerFactory(stamina=20), PlayerFactory(stamina=20)]
    return players, current_battle(started(players, monkeypatch, ENEMY_FIRST))


def _timeouts(battle: Battle) -> list[tuple[int, int]]:
    return list(
        BattleAction.objects.filter(battle=battle, response={"timeout": True})
        .order_by("step")
        .values_list("step", "player_id")
    )


def _skips(battle: Battle) -> list[str]:
    return [
        e["actor"]
        for e in battle.events.order_by("seq").values_list("data", flat=True)
        if e["kind"] == "turn_skipped" and e["reason"] == "timeout"
    ]


def test_nothing_is_skipped_before_the_deadline(monkeypatch) -> None:
    players, battle = _two_in_battle(monkeypatch)
    t0, step = battle.turn_started_at, battle.step

    read = battle_refresh(player=players[0], battle_id=battle.pk, now=t0 + timedelta(seconds=59))

    assert (read.step, read.awaiting_id, read.turn_started_at) == (step, battle.awaiting_id, t0)
    assert _timeouts(battle) == []


def test_a_read_after_the_deadline_skips_the_silent_player_and_the_next_turn_starts_at_the_deadline(
    monkeypatch,
) -> None:
    players, battle = _two_in_battle(monkeypatch)
    t0, silent = battle.turn_started_at, battle.awaiting_id
    other = next(p.pk for p in players if p.pk != silent)

    # read by the player who is not awaited, one second after the deadline
    read = battle_refresh(
        player=Player.objects.get(pk=other), battle_id=battle.pk, now=t0 + timedelta(seconds=61)
    )

    assert _timeouts(battle) == [(battle.step, silent)]
    assert _skips(read) == [f"p{silent}"]
    assert read.awaiting_id == other
    assert read.turn_started_at == t0 + timedelta(seconds=60)  # not the moment somebody looked
    assert RunMember.objects.get(run_id=battle.run_id, player_id=silent).status == "in_dungeon"


def test_deadlines_chain_so_a_silent_party_times_out_as_if_a_clock_ran(monkeypatch) -> None:
    players, battle = _two_in_battle(monkeypatch)
    t0, first = battle.turn_started_at, battle.awaiting_id
    second = next(p.pk for p in players if p.pk != first)

    # 3 minutes and a second later: first (at 60 s), second (120 s), first again (180 s)
    read = battle_refresh(player=players[0], battle_id=battle.pk, now=t0 + timedelta(seconds=181))

    assert [player for _, player in _timeouts(battle)] == [first, second, first]
    assert _skips(read) == [f"p{first}", f"p{second}", f"p{first}"]
    assert read.awaiting_id == second and read.turn_started_at == t0 + timedelta(seconds=180)
    # reading again at the same moment skips nothing more
    again = battle_refresh(player=players[1], battle_id=battle.pk, now=t0 + timedelta(seconds=181))
    assert again.step == read.step and len(_timeouts(battle)) == 3


def test_an_action_after_ones_deadline_is_stale_because_the_turn_was_skipped(monkeypatch) -> None:
    _players, battle = _two_in_battle(monkeypatch)
    t0, step, late = battle.turn_started_at, battle.step, battle.awaiting_id
    late_player = Player.objects.get(pk=late)

    with pytest.raises(RuleViolation) as refused:
        battle_act(
            player=late_player,
            battle_id=battle.pk,
            turn=step,
            action={"kind": "attack", "target": "e1"},
            now=t0 + timedelta(seconds=61),
        )

    assert refused.value.code == "stale_turn"
    assert refused.value.details["turn"] == step and refused.value.details["current_turn"] > step
    # the skip happened exactly once, whoever applies it
    read = battle_refresh(player=late_player, battle_id=battle.pk, now=t0 + timedelta(seconds=61))
    assert _timeouts(battle) == [(step, late)] and read.awaiting_id != late


def test_an_action_in_time_resets_the_clock_for_the_next_player(monkeypatch) -> None:
    _players, battle = _two_in_battle(monkeypatch)
    t0, actor = battle.turn_started_at, Player.objects.get(pk=battle.awaiting_id)
    acted_at = t0 + timedelta(seconds=59)

    outcome = battle_act(
        player=actor, battle_id=battle.pk, turn=battle.step, action={"kind": "skip"}, now=acted_at
    )

    assert outcome.battle.turn_started_at == acted_at
    # the next player has a full minute from then: nothing is skipped at t0 + 118 s
    read = battle_refresh(player=actor, battle_id=battle.pk, now=acted_at + timedelta(seconds=59))
    assert _timeouts(battle) == [] and read.awaiting_id != actor.pk


def test_over_http_a_silent_players_turn_is_skipped_when_someone_reads_the_battle(monkeypatch) -> None:
    players, battle = _two_in_battle(monkeypatch)
    party = Party(players)
    silent = battle.awaiting_id
    other = next(p for p in players if p.pk != silent)
    seen = party.battle(battle.pk, other)
    assert seen["deadline"] is not None

    with time_machine.travel(battle.turn_started_at + timedelta(seconds=61), tick=False):
        after = party.battle(battle.pk, other, since=seen["last_event"])
        late = party.act(silent, battle.pk, seen["turn"], {"kind": "attack", "target": "e1"})

    assert after["awaiting"] == other.pk and after["turn"] > seen["turn"]
    names = {c["id"]: c["name"] for c in after["combatants"]}
    assert next(e for e in after["events"] if e["kind"] == "turn_skipped") == {
        "seq": seen["last_event"] + 1,
        "kind": "turn_skipped",
        "actor": f"p{silent}",
        "reason": "timeout",
        "text": f"{names[f'p{silent}']}'s time ran out: the turn is skipped.",  # said at read time
    }
    assert {a["kind"] for a in after["allowed_actions"]} >= {"attack", "skip"}
    assert_error(late, 409, "stale_turn")
    assert len(_timeouts(battle)) == 1


def test_the_deadline_is_balancing_data(monkeypatch) -> None:
    combat_settings(turn_deadline_seconds=5)
    players, battle = _two_in_battle(monkeypatch)
    party = Party(players)

    with time_machine.travel(battle.turn_started_at + timedelta(seconds=6), tick=False):
        party.battle(battle.pk)

    assert len(_timeouts(battle)) == 1
    assert_error(party.client(players[0]).get(f"{API}/battles/{battle.pk}/?since=-1"), 400, "invalid")
