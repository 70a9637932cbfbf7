"""Every step that writes a run's events wakes its streams (``run:<id>`` on the live hub) once it commits:
the lobby's, a room's, a battle action and a deadline applied by the clock; a refused step wakes nobody."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from backend.deadlines import deadlines_fire_due
from backend.live import tap
from tests.dungeons.run_helpers import (
    Party,
    bestiary,
    current_battle,
    first_attack,
    fix_seed,
    guild_party,
    lobby,
    rooms_are,
    run_settings,
    seed_where,
    small_dungeons,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(settings):
    settings.REDIS_URL = ""  # delivered in this process
    seen: list[str] = []
    undo = tap(seen.append)
    yield seen
    undo()


def test_each_run_and_battle_step_publishes_the_run_once_it_commits(monkeypatch: Any,
                                                                   published: list[str]) -> None:
    # given a lobby of two over a steered dungeon
    small_dungeons(rooms=5)
    bestiary(enemy_hp=40, enemy_damage=1, boss_hp=40)
    run_settings(trap_damage_base=1, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)
    players, _ = guild_party(2)
    fix_seed(monkeypatch, seed_where(rooms_are("trap", "enemy", "treasure", "rest", "boss"), players=players))
    run = lobby(players)
    party = Party(players)
    channel = f"run:{run.pk}"
    published.clear()
    # when the host starts the run
    assert party.post(players[0], f"runs/{run.pk}/start/").status_code == 200
    assert published.count(channel) == 1
    # and a refused step (a stale step) comes
    assert party.post(players[1], f"runs/{run.pk}/advance/", {"step": 99}).status_code == 409
    # then it publishes nothing
    assert published.count(channel) == 1
    # when a member advances into the battle, the awaited member acts, and the clock times the next turn out
    step = party.run(run.pk)["step"]
    assert party.post(players[1], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    assert published.count(channel) == 2
    run.refresh_from_db()
    battle = current_battle(run)
    awaited = party.battle(battle.pk)["awaiting"]
    mine = party.battle(battle.pk, who=awaited)
    assert party.act(awaited, battle.pk, mine["turn"], first_attack(mine)).status_code == 200
    assert published.count(channel) == 3
    battle.refresh_from_db()
    assert deadlines_fire_due(battle.turn_started_at + timedelta(days=1)) >= 1  # timeouts applied
    # then each of them published the run (the clock's pass at least once)
    assert published.count(channel) > 3
