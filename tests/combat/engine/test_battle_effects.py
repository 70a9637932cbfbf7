"""Effects in battle: haste, stun, damage over time, on-hit effects, amulets, ticking."""
from __future__ import annotations

from combat.engine import (
    AttackAction,
    BattleSetup,
    BattleState,
    DrinkPotion,
    EffectSpec,
    Outcome,
    Potion,
    PotionKind,
    Skip,
    Stats,
    act,
    resolve_enemy_turns,
    start_battle,
)
from combat.engine import events as E
from tests.combat.engine.factories import (
    ALWAYS_MISS,
    SURE_HIT,
    ScriptedRandom,
    battle,
    eff,
    enemy,
    kinds,
    npc,
    ok,
    player,
)

# --- haste, engine version 2: an extra turn -------------------------------------------------------


def test_haste_gives_the_carrier_a_whole_extra_turn_and_its_effects_tick_for_it() -> None:
    # haste for 2 turns and bleeding 1 for 3: both tick at the end of the regular turn and again
    # at the end of the extra turn
    hasted = player("p1", damage=3, effects=(eff("haste", turns=2), eff("bleeding", turns=3, magnitude=1)))
    state = battle([hasted, enemy("e1", hp=50), player("p2")], ["p1", "e1", "p2"])
    first = ok(act(state, AttackAction("p1", "e1")))
    assert kinds(first.events) == ["attack", "damage", "damage", "turn_ended", "extra_turn", "turn_started"]
    assert first.events[2] == E.Damage("p1", 1, 29, "bleeding")
    assert first.state.awaiting == "p1"
    assert {e.name: e.turns for e in first.state.get("p1").effects} == {"haste": 1, "bleeding": 2}

    second = ok(act(first.state, AttackAction("p1", "e1")))
    assert second.state.get("e1").hp == 44
    assert second.events[2] == E.Damage("p1", 1, 28, "bleeding")
    assert E.EffectExpired("p1", "haste") in second.events
    assert E.ExtraTurn("p1") not in second.events  # one extra turn per slot
    assert {e.name: e.turns for e in second.state.get("p1").effects} == {"bleeding": 1}
    assert second.state.awaiting == "p2"


def test_haste_for_one_turn_still_gives_the_extra_turn() -> None:
    state = battle([player("p1", effects=(eff("haste", turns=1),)), enemy("e1", hp=50), player("p2")],
                   ["p1", "e1", "p2"])
    first = ok(act(state, Skip("p1")))
    assert E.EffectExpired("p1", "haste") in first.events and E.ExtraTurn("p1") in first.events
    assert first.state.awaiting == "p1"
    assert ok(act(first.state, Skip("p1"))).state.awaiting == "p2"


def test_skipping_the_regular_turn_keeps_the_extra_turn() -> None:
    state = battle([player("p1", effects=(eff("haste"),)), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    skipped = ok(act(state, Skip("p1")))
    assert kinds(skipped.events)[-3:] == ["turn_ended", "extra_turn", "turn_started"]
    assert skipped.state.awaiting == "p1"


def test_a_hasted_enemy_takes_two_turns_and_bleeds_in_both() -> None:
    bleeding = eff("bleeding", turns=None, magnitude=1)
    hasted = enemy("e1", damage=2, effects=(eff("haste", turns=None), bleeding))
    state = battle([player("p1", hp=50), hasted], ["p1", "e1"])
    result = ok(act(state, Skip("p1")))
    assert [e.actor for e in result.events if isinstance(e, E.Attack)] == ["e1", "e1"]
    assert [e for e in result.events if isinstance(e, E.Damage) and e.target == "e1"] == [
        E.Damage("e1", 1, 11, "bleeding"), E.Damage("e1", 1, 10, "bleeding")]
    assert kinds(result.events).count("turn_started") == 3  # e1 twice, then p1's next turn
    assert result.state.get("p1").hp == 46


def test_a_carrier_killed_by_bleeding_at_the_end_of_its_turn_gets_no_extra_turn() -> None:
    doomed = player("p1", hp=1, effects=(eff("haste", turns=None), eff("bleeding", turns=None, magnitude=1)))
    state = battle([doomed, player("p2"), enemy("e1", hp=50)], ["p1", "p2", "e1"])
    result = ok(act(state, Skip("p1")))
    assert E.Death("p1") in result.events and E.ExtraTurn("p1") not in result.events
    assert result.state.awaiting == "p2"


# --- haste, engine version 1 (battles started before version 2 replay unchanged) ------------------


def test_v1_haste_gives_an_extra_action_in_the_turn() -> None:
    hasted = player("p1", damage=3, effects=(eff("haste", turns=1),))
    state = battle([hasted, enemy("e1", hp=50), player("p2")], ["p1", "e1", "p2"], version=1)
    first = ok(act(state, AttackAction("p1", "e1")))
    assert E.ExtraTurn("p1") in first.events
    assert first.state.awaiting == "p1"
    second = ok(act(first.state, AttackAction("p1", "e1")))
    assert second.state.get("e1").hp == 44
    assert E.EffectExpired("p1", "haste") in second.events  # ticked once for the whole turn
    assert second.state.awaiting == "p2"


def test_v1_a_hasted_enemy_attacks_twice() -> None:
    state = battle(
        [player("p1", hp=50), enemy("e1", damage=2, effects=(eff("haste", turns=None),))], ["p1", "e1"],
        version=1,
    )
    result = ok(act(state, Skip("p1")))
    assert [e.actor for e in result.events if isinstance(e, E.Attack)] == ["e1", "e1"]
    assert kinds(result.events).count("turn_started") == 2  # e1 once, then p1
    assert result.state.get("p1").hp == 46


def test_v1_skipping_gives_up_the_haste_action_too() -> None:
    state = battle([player("p1", effects=(eff("haste"),)), player("p2"), enemy("e1")], ["p1", "p2", "e1"],
                   version=1)
    assert ok(act(state, Skip("p1"))).state.awaiting == "p2"


def test_a_stunned_creature_loses_its_turn_and_the_lost_turn_counts() -> None:
    stunned = player("p1", effects=(eff("stun", turns=1),))
    state = BattleState(
        seed=1, combatants=(stunned, player("p2"), enemy("e1")), order=("p1", "p2", "e1"), rules=SURE_HIT
    )
    result = resolve_enemy_turns(state, rng=ScriptedRandom())
    assert kinds(result.events)[:4] == ["turn_started", "turn_skipped", "effect_expired", "turn_ended"]
    assert E.TurnSkipped("p1", "stunned") in result.events
    assert result.state.awaiting == "p2"
    assert not result.state.get("p1").has("stun")


def test_a_two_turn_stun_costs_two_turns() -> None:
    stunned = player("p1", effects=(eff("stun", turns=2),))
    state = battle([stunned, player("p2"), enemy("e1", damage=1)], ["p1", "p2", "e1"])
    assert state.awaiting == "p2"
    result = ok(act(state, Skip("p2")))
    assert E.TurnSkipped("p1", "stunned") in result.events
    assert result.state.awaiting == "p2"
    assert ok(act(result.state, Skip("p2"))).state.awaiting == "p1"


def test_a_stunning_hit_replaces_haste() -> None:
    stunning = enemy("e1", hp=50, damage=1, on_hit=(EffectSpec("stun", turns=1),))
    state = battle([player("p1", effects=(eff("haste", turns=None),)), stunning], ["p1", "e1"])
    state = ok(act(state, AttackAction("p1", "e1"))).state
    result = ok(act(state, AttackAction("p1", "e1")))
    assert E.EffectReplaced("p1", "stun", "haste") in result.events
    assert E.TurnSkipped("p1", "stunned") in result.events


def test_durations_tick_only_on_the_carriers_own_turns() -> None:
    state = battle(
        [player("p1", effects=(eff("vigor", turns=2),)), player("p2"), enemy("e1", damage=1)],
        ["p2", "p1", "e1"],
    )
    state = ok(act(state, Skip("p2"))).state
    assert state.get("p1").effects[0].turns == 2
    state = ok(act(state, Skip("p1"))).state
    assert state.get("p1").effects[0].turns == 1


def test_a_potion_effect_counts_the_turn_it_is_drunk_in() -> None:
    potion = Potion("v", PotionKind.EFFECT, effect=EffectSpec("vigor", turns=1))
    state = battle([player("p1", potions=(potion,)), enemy("e1", hp=90)], ["p1", "e1"])
    state = ok(act(state, DrinkPotion("p1", "v"))).state
    result = ok(act(state, AttackAction("p1", "e1")))
    assert E.EffectExpired("p1", "vigor") in result.events


def test_regeneration_heals_at_the_end_of_the_turn_boosted_by_metabolism() -> None:
    healer = player(
        "p1", hp=10, max_hp=30, stats=Stats(metabolism=5), effects=(eff("regeneration", magnitude=4),)
    )
    state = battle([healer, enemy("e1", damage=1)], ["p1", "e1"])
    result = ok(act(state, Skip("p1")))
    assert E.Healed("p1", 6, 16, "regeneration") in result.events  # 4 * (1 + 5 * 0.1)


def test_regeneration_never_heals_above_max_hp() -> None:
    state = battle(
        [player("p1", hp=29, max_hp=30, effects=(eff("regeneration", magnitude=9),)), enemy("e1")],
        ["p1", "e1"],
    )
    result = ok(act(state, Skip("p1")))
    assert E.Healed("p1", 1, 30, "regeneration") in result.events


def test_bleeding_burning_and_frostbite_hurt_every_turn() -> None:
    for name in ("bleeding", "burning", "frostbite"):
        state = battle(
            [player("p1", hp=30, effects=(eff(name, magnitude=3, turns=5),)), enemy("e1", damage=1)],
            ["p1", "e1"],
        )
        result = ok(act(state, Skip("p1")))
        assert E.Damage("p1", 3, 27, name) in result.events


def test_damage_over_time_can_kill_the_last_enemy() -> None:
    state = battle(
        [player("p1", hp=30), enemy("e1", hp=2, effects=(eff("burning", magnitude=3),))], ["p1", "e1"]
    )
    result = ok(act(state, Skip("p1")))
    assert E.Death("e1") in result.events
    assert result.state.outcome is Outcome.VICTORY


def test_a_weapon_hit_applies_its_effect_when_the_chance_roll_succeeds() -> None:
    claws = enemy("e1", damage=1, on_hit=(EffectSpec("bleeding", turns=2, magnitude=1, chance=0.5),))
    state = battle([player("p1", hp=50), claws], ["p1", "e1"])
    hit = ok(act(state, Skip("p1"), rng=ScriptedRandom([0.0, 0.5, 0.9, 0.49])))
    assert E.EffectApplied("p1", "bleeding", 2, 1.0, False) in hit.events
    spared = ok(act(state, Skip("p1"), rng=ScriptedRandom([0.0, 0.5, 0.9, 0.51])))
    assert not any(isinstance(e, E.EffectApplied) for e in spared.events)


def test_amulets_apply_permanently_before_any_other_effect() -> None:
    blessed = player("p1", amulets=(EffectSpec("blessing"),))
    setup = BattleSetup(
        players=(blessed,),
        enemies=(enemy("e1"),),
        starting_effects=(("p1", EffectSpec("curse", turns=3)), ("e1", EffectSpec("vigor", turns=2))),
        rules=SURE_HIT,
    )
    result = start_battle(setup, 1)
    effect_events = [e for e in result.events if e.kind.startswith("effect_")]
    assert effect_events[:3] == [
        E.EffectApplied("p1", "blessing", None, 1.0, True),
        E.EffectBlocked("p1", "curse", "blessing"),
        E.EffectApplied("e1", "vigor", 2, 0.25, False),
    ]


def test_a_permanent_effect_survives_the_whole_battle() -> None:
    amulet = EffectSpec("resilience", magnitude=0.5)
    setup = BattleSetup(
        players=(
            player("p1", hp=500, amulets=(amulet,)),
        ), enemies=(enemy("e1", hp=500, damage=1),), rules=SURE_HIT
    )
    state = start_battle(setup, 1).state
    for _ in range(10):
        state = ok(act(state, Skip("p1"))).state
    assert state.get("p1").effects[0].permanent


def test_npc_effects_tick_once_per_round() -> None:
    bleeding = npc(hp=10, effects=(eff("bleeding", turns=2, magnitude=1),))
    state = battle([player("p1"), bleeding, enemy("e1")], ["p1", "e1"], rules=ALWAYS_MISS)
    first = ok(act(state, Skip("p1")))
    assert E.Damage("npc", 1, 9, "bleeding") in first.events
    second = ok(act(first.state, Skip("p1")))
    assert E.Damage("npc", 1, 8, "bleeding") in second.events
    assert E.EffectExpired("npc", "bleeding") in second.events
