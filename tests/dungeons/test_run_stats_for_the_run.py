"""A stat potion raises a stat for the rest of the run (SPEC sections 3 and 6): every rule of the run that
reads a stat reads the member's stats for this run (permanent + the run's boosts), one test per place:
traps and treasure (attentiveness), rest and regeneration (metabolism), the carry capacity (strength),
the escape loss (luck and attentiveness). Each member drinks the potion between rooms over HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from dungeons.models import Run, RunLoot, RunMember
from players.models import InventoryItem, Player
from tests.dungeons.run_helpers import (
    Party,
    assert_error,
    bestiary,
    item_kind,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

TREASURE_FIRST = ["treasure", "trap", "rest", "boss"]
TRAP_FIRST = ["trap", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=4)
    bestiary(enemy_hp=30, boss_hp=30)
    # traps hit for 10 and leave no effect; nothing heals unless a test says so
    run_settings(trap_damage_base=10, trap_damage_per_floor=0, trap_effect_chance=0.0, rest_heal_base=0,
                 room_regen_base=0, room_regen_per_metabolism=0)


def _drink_stat_potion(party: Party, who: Player, run: Run, stat: str, amount: int) -> None:
    kind = item_kind(f"Test {stat} draught {who.pk}", "potion", "stat", stat=stat, stat_amount=amount)
    potion = InventoryItem.objects.create(player=who, item_kind=kind)
    response = party.post(who, f"runs/{run.pk}/drink/", {"potion": potion.pk})
    assert response.status_code == 200, response.json()
    assert RunMember.objects.get(run=run, player=who).stat_boosts == {stat: amount}


def _advance(party: Party, who: Player, run: Run) -> dict[str, Any]:
    run.refresh_from_db()
    response = party.post(who, f"runs/{run.pk}/advance/", {"step": run.step})
    assert response.status_code == 200, response.json()
    return response.json()


def _hp(run: Run, who: Player) -> int:
    return RunMember.objects.get(run=run, player=who).hp


def test_a_trap_is_mitigated_by_the_attentiveness_a_potion_raised(monkeypatch) -> None:
    # given: +5 attentiveness for the run: the trap's 10 damage is mitigated by 5 x 0.10
    player = PlayerFactory()
    run = started([player], monkeypatch, TREASURE_FIRST)
    party = Party([player])
    _drink_stat_potion(party, player, run, "attentiveness", 5)
    # when
    state = _advance(party, player, run)
    # then: 5 damage, not 10
    assert state["log"][-1]["kind"] == "trap"
    assert state["log"][-1]["hits"][str(player.pk)]["damage"] == 5
    assert _hp(run, player) == 15


def test_treasure_counts_the_attentiveness_a_potion_raised(monkeypatch) -> None:
    # given: +10 attentiveness for the run: the extra item's chance is min(1, 10 x 0.10) = 1
    run_settings(trap_damage_base=0)
    player = PlayerFactory()
    run = started([player], monkeypatch, TRAP_FIRST)
    party = Party([player])
    _drink_stat_potion(party, player, run, "attentiveness", 10)
    # when
    state = _advance(party, player, run)
    # then: the base 2 items and the member's extra one
    assert state["log"][-1]["kind"] == "treasure"
    assert len(state["log"][-1]["items"]) == 3


def test_a_rest_room_heals_by_the_metabolism_a_potion_raised(monkeypatch) -> None:
    # given: +3 metabolism for the run; a rest heals 0 + 3 x metabolism
    run_settings(rest_heal_per_metabolism=3)
    player = PlayerFactory()
    run = started([player], monkeypatch, TREASURE_FIRST)
    party = Party([player])
    _drink_stat_potion(party, player, run, "metabolism", 3)
    _advance(party, player, run)  # the trap: 20 - 10
    assert _hp(run, player) == 10
    # when
    state = _advance(party, player, run)
    # then: healed 9
    assert state["log"][-1]["kind"] == "rested"
    assert _hp(run, player) == 19


def test_walking_on_regenerates_by_the_metabolism_a_potion_raised(monkeypatch) -> None:
    # given: walking on heals 0 + 1 x metabolism; +3 metabolism for the run, after the trap's 10
    run_settings(room_regen_per_metabolism=1)
    player = PlayerFactory()
    run = started([player], monkeypatch, TRAP_FIRST)
    party = Party([player])
    assert _hp(run, player) == 10
    _drink_stat_potion(party, player, run, "metabolism", 3)
    # when
    _advance(party, player, run)
    # then
    assert _hp(run, player) == 13


def test_the_carry_capacity_counts_the_strength_a_potion_raised(monkeypatch) -> None:
    # given: an item of weight 44 lying in the room; capacity 40 + 5 x strength (carry settings' defaults)
    player = PlayerFactory()
    run = started([player], monkeypatch, TREASURE_FIRST)
    party = Party([player])
    heavy = item_kind("Test Anvil", "armor", "cuirass", weight=44, armor=1)
    loot = RunLoot.objects.create(run=run, floor=0, room=0, item_kind=heavy)
    assert_error(party.post(player, f"runs/{run.pk}/loot/{loot.pk}/take/"), 409, "weight_limit")
    # when: +1 strength for the run (capacity 45)
    _drink_stat_potion(party, player, run, "strength", 1)
    response = party.post(player, f"runs/{run.pk}/loot/{loot.pk}/take/")
    # then
    assert response.status_code == 200, response.json()
    assert InventoryItem.objects.filter(player=player, item_kind=heavy).count() == 1


def test_the_escape_loss_counts_the_luck_a_potion_raised(monkeypatch) -> None:
    # given: +4 luck for the run: the loss is 80 - 5 x 4 = 60 percent
    player = PlayerFactory()
    run = started([player], monkeypatch, TREASURE_FIRST)
    party = Party([player])
    _drink_stat_potion(party, player, run, "luck", 4)
    # when
    run.refresh_from_db()
    response = party.post(player, f"runs/{run.pk}/escape/", {"step": run.step})
    # then
    assert response.status_code == 200, response.json()
    escaped = [e for e in response.json()["log"] if e["kind"] == "escaped" and "player" in e]
    assert [e["loss_percent"] for e in escaped] == [60]
