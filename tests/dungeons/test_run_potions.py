"""Potions between rooms over HTTP: a member drinks a healing or stat potion outside battle (e.g.
after a trap); effect potions only in battle; during a battle the battle's own action is the way.
Every refusal is checked with its status and code, and that nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.engine import setup_from_dict
from dungeons.models import MemberStatus, Run, RunMember
from players.models import InventoryItem, Player
from tests.dungeons.run_helpers import (
    Party,
    assert_error,
    bestiary,
    current_battle,
    item_kind,
    log_kinds,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

TRAP_FIRST = ["trap", "enemy", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=30, enemy_damage=1, boss_hp=30)
    run_settings(trap_damage_base=10, trap_damage_per_floor=0, trap_effect_chance=0.0,
                 room_regen_per_metabolism=0)


def _potion(player: Player, name: str, sub_kind: str, **fields: Any) -> InventoryItem:
    kind = item_kind(name, "potion", sub_kind, **fields)
    return InventoryItem.objects.create(player=player, item_kind=kind)


def _member(run: Run, player: Player) -> RunMember:
    return RunMember.objects.get(run=run, player=player)


def _state(run: Run) -> tuple:
    run.refresh_from_db()
    members = RunMember.objects.order_by("pk").values_list("hp", "max_hp", "stat_boosts")
    return (run.step, len(run.log), list(members),
            list(InventoryItem.objects.order_by("pk").values_list("pk", flat=True)))


def _drink(party: Party, who: Player, run: Run, potion: Any) -> Any:
    return party.post(who, f"runs/{run.pk}/drink/", {"potion": potion})


def test_after_a_trap_a_member_drinks_a_healing_potion(monkeypatch) -> None:
    # given: a member hurt by the trap (20 HP - 10), carrying a potion that heals 6
    drinker = PlayerFactory()
    potion = _potion(drinker, "Test Salve", "healing", heal=6)
    run = started([drinker], monkeypatch, TRAP_FIRST)
    party = Party([drinker])
    assert (_member(run, drinker).hp, _member(run, drinker).max_hp) == (10, 20)

    # when
    response = _drink(party, drinker, run, potion.pk)

    # then: healed by 6, the potion is gone, the log says so; the party has not moved
    assert response.status_code == 200, response.json()
    me = next(m for m in response.json()["members"] if m["player"] == drinker.pk)
    assert (me["hp"], me["max_hp"]) == (16, 20)
    assert not InventoryItem.objects.filter(pk=potion.pk).exists()
    assert response.json()["step"] == run.step
    entry = response.json()["log"][-1]
    assert entry.pop("seq") == response.json()["last_event"]  # the run's last event
    assert entry == {"kind": "potion_drunk", "floor": 0, "room": 0, "player": drinker.pk, "potion": "healing",
                     "item_kind": potion.item_kind_id, "hp": 16, "max_hp": 20, "healed": 6}



@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(heal=st.integers(min_value=1, max_value=40), trap=st.integers(min_value=0, max_value=19))
def test_healing_between_rooms_is_min_of_heal_and_missing_hp(monkeypatch, heal: int, trap: int) -> None:
    run_settings(trap_damage_base=trap)
    drinker = PlayerFactory()
    potion = _potion(drinker, f"Test Salve {heal}/{trap}/{drinker.pk}", "healing", heal=heal)
    run = started([drinker], monkeypatch, TRAP_FIRST)
    before = _member(run, drinker)

    response = _drink(Party([drinker]), drinker, run, potion.pk)

    assert response.status_code == 200, response.json()
    after = _member(run, drinker)
    assert after.hp == min(before.max_hp, before.hp + heal) and after.max_hp == before.max_hp
    assert response.json()["log"][-1]["healed"] == after.hp - before.hp


def test_a_stat_potion_lasts_for_the_rest_of_the_run_and_stamina_raises_max_hp(monkeypatch) -> None:
    # given: 5 HP per stamina point (the default); a +2 stamina and a +1 strength potion
    drinker = PlayerFactory(strength=1)
    stamina = _potion(drinker, "Test Oak Draught", "stat", stat="stamina", stat_amount=2)
    strength = _potion(drinker, "Test Bull Draught", "stat", stat="strength", stat_amount=1)
    run = started([drinker], monkeypatch, TRAP_FIRST)
    party = Party([drinker])

    assert _drink(party, drinker, run, stamina.pk).status_code == 200
    assert _drink(party, drinker, run, strength.pk).status_code == 200

    member = _member(run, drinker)
    assert (member.hp, member.max_hp) == (20, 30)  # 10 after the trap, +10 of both
    assert member.stat_boosts == {"stamina": 2, "strength": 1}
    assert [e["stat"] for e in Run.objects.get(pk=run.pk).log if e["kind"] == "potion_drunk"] == [
        "stamina", "strength"]
    # the next battle brings the raised stats and HP in
    state = party.post(drinker, f"runs/{run.pk}/advance/", {"step": run.step}).json()
    battle = current_battle(Run.objects.get(pk=run.pk))
    me = setup_from_dict(battle.setup).players[0]
    assert (me.stats.stamina, me.stats.strength, me.hp, me.max_hp) == (2, 2, 20, 30)
    assert state["current_room"]["kind"] == "enemy"


def test_an_effect_potion_is_refused_outside_battle_and_changes_nothing(monkeypatch) -> None:
    drinker = PlayerFactory()
    potion = _potion(drinker, "Test Quicksilver", "effect", effect="haste", effect_turns=2)
    run = started([drinker], monkeypatch, TRAP_FIRST)
    before = _state(run)

    response = _drink(Party([drinker]), drinker, run, potion.pk)
    error = assert_error(response, 409, "effect_potion_in_battle_only")

    assert error["details"] == {"potion": potion.pk, "effect": "haste"}
    assert _state(run) == before


def test_during_a_battle_drinking_goes_through_the_battle(monkeypatch) -> None:
    drinker = PlayerFactory()
    potion = _potion(drinker, "Test Salve", "healing", heal=6)
    run = started([drinker], monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    battle = current_battle(run)
    before = _state(run)

    error = assert_error(_drink(Party([drinker]), drinker, run, potion.pk), 409, "in_battle")

    assert error["details"] == {"battle": battle.pk}
    assert _state(run) == before


def test_a_potion_one_does_not_carry_is_404_and_bad_input_400(monkeypatch) -> None:
    drinker, other = PlayerFactory(), PlayerFactory()
    theirs = _potion(other, "Test Salve", "healing", heal=6)
    sword = InventoryItem.objects.create(player=drinker, item_kind=item_kind("Test Sword", "weapon", "sword",
                                                                              damage=3))
    run = started([drinker], monkeypatch, TRAP_FIRST)
    party = Party([drinker])
    before = _state(run)

    for item in (theirs.pk, sword.pk, 10**9):
        assert_error(_drink(party, drinker, run, item), 404, "potion_not_found")
    for bad in ("x", None, 0, -1, 2**63):
        assert_error(_drink(party, drinker, run, bad), 400, "invalid")
    assert _state(run) == before


def test_only_members_inside_an_active_run_drink(monkeypatch) -> None:
    inside, outside = PlayerFactory(), PlayerFactory()
    potion = _potion(inside, "Test Salve", "healing", heal=6)
    stranger_potion = _potion(outside, "Test Tonic", "healing", heal=6)
    run = started([inside], monkeypatch, TRAP_FIRST)
    party = Party([inside, outside])

    assert_error(_drink(party, outside, run, stranger_potion.pk), 404, "run_not_found")
    RunMember.objects.filter(run=run, player=inside).update(status=MemberStatus.ESCAPED, active=False)
    assert_error(_drink(party, inside, run, potion.pk), 409, "not_in_party")
    lobby = party.post(outside, "runs/", {"kind": "ordinary"}).json()
    assert_error(party.post(outside, f"runs/{lobby['id']}/drink/", {"potion": stranger_potion.pk}), 409,
                 "run_not_active")
    assert InventoryItem.objects.filter(pk__in=[potion.pk, stranger_potion.pk]).count() == 2
    assert "potion_drunk" not in log_kinds(Run.objects.get(pk=run.pk))
