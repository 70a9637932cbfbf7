"""The damage formula with known values, and the seeded miss, critical and curse rolls."""
from __future__ import annotations

from dataclasses import replace

import pytest

from combat.engine import (
    AttackAction,
    CombatRules,
    Stats,
    act,
    crit_chance,
    hit_damage,
    miss_chance,
    roll_attack,
)
from combat.engine import events as E
from tests.combat.engine.factories import SURE_HIT, ScriptedRandom, battle, eff, enemy, ok, player

RULES = CombatRules()


def test_the_formula_with_every_term_gives_the_documented_value() -> None:
    # (6 + 2 * 0.5) = 7; vigor 0.25 -> 8.75; critical x2 -> 17.5; armor 10 -> x 10/20 = 8.75;
    # resilience 0.25 -> / 1.25 = 7.0 -> 7
    attacker = player("a", damage=6, stats=Stats(strength=2), effects=(eff("vigor", magnitude=0.25),))
    defender = enemy("d", armor=10, effects=(eff("resilience", magnitude=0.25),))
    assert hit_damage(attacker, defender, True, RULES) == 7
    assert hit_damage(attacker, defender, False, RULES) == 4  # 3.5 rounds half up


def test_weakness_lowers_and_vigor_raises_the_attack() -> None:
    target = enemy("d")
    assert hit_damage(
        player("a", damage=8, effects=(eff("weakness", magnitude=0.25),)), target, False, RULES
    ) == 6
    assert hit_damage(
        player("a", damage=8, effects=(eff("vigor", magnitude=0.5),)), target, False, RULES
    ) == 12


def test_fragility_raises_and_resilience_lowers_the_damage_taken() -> None:
    attacker = player("a", damage=9)
    assert hit_damage(attacker, enemy("d", effects=(eff("fragility", magnitude=0.25),)), False, RULES) == 12
    assert hit_damage(attacker, enemy("d", effects=(eff("resilience", magnitude=0.5),)), False, RULES) == 6


def test_extreme_fragility_is_bounded_by_the_minimum_defense_multiplier() -> None:
    attacker = player("a", damage=2)
    assert hit_damage(attacker, enemy("d", effects=(eff("fragility", magnitude=5),)), False, RULES) == 20


def test_armor_halves_damage_at_the_armor_constant() -> None:
    assert hit_damage(player("a", damage=10), enemy("d", armor=10), False, RULES) == 5
    assert hit_damage(
        player("a", damage=10), enemy("d", armor=30), False, RULES
    ) == 3  # 10 * 10/40 = 2.5, half up


def test_a_hit_always_deals_the_minimum_damage() -> None:
    assert hit_damage(player("a", damage=1), enemy("d", armor=1000), False, RULES) == RULES.min_damage
    weak = player("a", damage=5, effects=(eff("weakness", magnitude=1.0),))
    assert hit_damage(weak, enemy("d"), False, RULES) == RULES.min_damage


def test_miss_chance_moves_with_distraction_concentration_and_attentiveness() -> None:
    assert miss_chance(player("a"), RULES) == pytest.approx(0.10)
    assert miss_chance(
        player("a", effects=(eff("distraction", magnitude=0.15),)), RULES
    ) == pytest.approx(0.25)
    assert miss_chance(
        player("a", effects=(eff("concentration", magnitude=0.05),)), RULES
    ) == pytest.approx(0.05)
    assert miss_chance(player("a", stats=Stats(attentiveness=4)), RULES) == pytest.approx(0.06)
    assert miss_chance(player("a", effects=(eff("concentration", magnitude=1),)), RULES) == 0.0
    assert miss_chance(
        player("a", effects=(eff("distraction", magnitude=5),)), RULES
    ) == RULES.max_miss_chance


def test_luck_and_fearlessness_raise_and_fear_lowers_the_critical_chance() -> None:
    assert crit_chance(player("a"), RULES) == pytest.approx(0.05)
    assert crit_chance(player("a", stats=Stats(luck=5)), RULES) == pytest.approx(0.15)
    assert crit_chance(
        player("a", effects=(eff("fearlessness", magnitude=0.1),)), RULES
    ) == pytest.approx(0.15)
    assert crit_chance(player("a", effects=(eff("fear", magnitude=0.5),)), RULES) == 0.0
    assert crit_chance(player("a", stats=Stats(luck=100)), RULES) == RULES.max_crit_chance


def test_a_miss_roll_below_the_miss_chance_misses() -> None:
    roll = roll_attack(player("a"), enemy("d"), RULES, ScriptedRandom([0.05]))
    assert not roll.hit and roll.damage == 0
    roll = roll_attack(player("a"), enemy("d"), RULES, ScriptedRandom([0.10, 0.9]))
    assert roll.hit and not roll.critical


def test_a_critical_roll_doubles_the_damage() -> None:
    roll = roll_attack(player("a", damage=6), enemy("d"), RULES, ScriptedRandom([0.5, 0.01]))
    assert roll.critical and roll.damage == 12


def test_miss_and_critical_produce_their_events() -> None:
    state = battle(
        [player("p1", damage=6), enemy("e1", hp=50), player("p2")], ["p1", "e1", "p2"], rules=RULES
    )
    missed = ok(act(state, AttackAction("p1", "e1"), rng=ScriptedRandom([0.0])))
    assert E.Miss("p1", "e1") in missed.events
    assert not any(isinstance(e, E.Damage) and e.target == "e1" for e in missed.events)
    crit = ok(act(state, AttackAction("p1", "e1"), rng=ScriptedRandom([0.5, 0.0])))
    assert E.Critical("p1", "e1") in crit.events
    assert E.Damage("e1", 12, 38, "attack") in crit.events


def test_a_cursed_creature_may_die_from_any_hit() -> None:
    cursed = enemy("e1", hp=100, effects=(eff("curse", magnitude=0.3),))
    state = battle([player("p1", damage=1), cursed, enemy("e2")], ["p1", "e1", "e2"], rules=RULES)
    result = ok(act(state, AttackAction("p1", "e1"), rng=ScriptedRandom([0.5, 0.9, 0.29])))
    assert E.CurseStruck("e1") in result.events
    assert E.Death("e1") in result.events
    assert result.state.get("e1").hp == 0


def test_the_curse_roll_above_its_chance_spares_the_creature() -> None:
    cursed = enemy("e1", hp=100, effects=(eff("curse", magnitude=0.3),))
    state = battle([player("p1", damage=1), cursed, enemy("e2")], ["p1", "e1", "e2"], rules=RULES)
    result = ok(act(state, AttackAction("p1", "e1"), rng=ScriptedRandom([0.5, 0.9, 0.31])))
    assert E.CurseStruck("e1") not in result.events
    assert result.state.get("e1").hp == 99


def test_blessing_gives_immunity_to_the_curse() -> None:
    blessed = enemy("e1", hp=100, effects=(eff("blessing"),))
    roll = roll_attack(player("a", damage=1), blessed, RULES, ScriptedRandom([0.5, 0.9, 0.0]))
    assert not roll.curse_kills


def test_a_miss_never_triggers_the_curse() -> None:
    cursed = enemy("e1", hp=100, effects=(eff("curse", magnitude=1.0),))
    assert not roll_attack(player("a"), cursed, RULES, ScriptedRandom([0.0, 0.0, 0.0])).curse_kills


def test_every_number_of_the_formula_comes_from_the_rules() -> None:
    generous = replace(SURE_HIT, strength_damage_per_point=2.0, armor_constant=20.0, crit_multiplier=3.0)
    attacker = player("a", damage=4, stats=Stats(strength=1))
    assert hit_damage(attacker, enemy("d", armor=20), True, generous) == 9  # (4 + 2) * 3 * 20/40
