"""Player actions: attack, potions, weapon switch, skip, timeout, flee, and their refusals."""
from __future__ import annotations

from combat.engine import (
    AttackAction,
    DrinkPotion,
    EffectSpec,
    Flee,
    Outcome,
    Potion,
    PotionKind,
    Skip,
    Stats,
    SwitchWeapon,
    Timeout,
    Weapon,
    act,
    allowed_actions,
)
from combat.engine import actions as A
from combat.engine import events as E
from tests.combat.engine.factories import (
    ALWAYS_MISS,
    SURE_HIT,
    battle,
    eff,
    enemy,
    kinds,
    npc,
    ok,
    player,
    refused,
)

HEAL = Potion("heal-1", PotionKind.HEALING, heal=10)
VIGOR = Potion("vigor-1", PotionKind.EFFECT, effect=EffectSpec("vigor", turns=3, magnitude=0.5))
LUCK = Potion("luck-1", PotionKind.STAT, stat="luck", amount=2)
STAMINA = Potion("stam-1", PotionKind.STAT, stat="stamina", amount=1)


def test_attack_hits_an_enemy_and_passes_the_turn() -> None:
    state = battle([player("p1", damage=5), enemy("e1", hp=20, damage=1), player("p2")], ["p1", "e1", "p2"])
    result = ok(act(state, AttackAction("p1", "e1")))
    assert E.Damage("e1", 5, 15, "attack") in result.events
    assert result.state.get("e1").hp == 15
    assert result.state.awaiting == "p2"


def test_drinking_a_healing_potion_keeps_the_turn_and_caps_at_max_hp() -> None:
    state = battle([player("p1", hp=25, max_hp=30, potions=(HEAL,)), enemy("e1")], ["p1", "e1"])
    result = ok(act(state, DrinkPotion("p1", "heal-1")))
    assert result.state.awaiting == "p1"
    assert result.state.get("p1").hp == 30
    assert result.state.get("p1").potions == ()
    assert result.events == (E.PotionDrunk("p1", "heal-1", "healing"), E.Healed("p1", 5, 30, "potion"))


def test_potion_then_attack_in_the_same_turn() -> None:
    state = battle(
        [player("p1", damage=4, potions=(VIGOR,)), enemy("e1", hp=50), player("p2")], ["p1", "e1", "p2"]
    )
    state = ok(act(state, DrinkPotion("p1", "vigor-1"))).state
    assert state.get("p1").effects[0].name == "vigor"
    result = ok(act(state, AttackAction("p1", "e1")))
    assert E.Damage("e1", 6, 44, "attack") in result.events  # 4 * 1.5


def test_effect_potion_applies_its_effect_to_the_drinker() -> None:
    state = battle([player("p1", potions=(VIGOR,)), enemy("e1")], ["p1", "e1"])
    result = ok(act(state, DrinkPotion("p1", "vigor-1")))
    assert E.EffectApplied("p1", "vigor", 3, 0.5, False) in result.events


def test_stat_potion_raises_the_stat_for_the_battle() -> None:
    state = battle([player("p1", stats=Stats(luck=1), potions=(LUCK,)), enemy("e1")], ["p1", "e1"])
    result = ok(act(state, DrinkPotion("p1", "luck-1")))
    assert result.state.get("p1").stats.luck == 3
    assert E.StatRaised("p1", "luck", 2, 3) in result.events


def test_stamina_potion_raises_max_hp_and_hp_alike() -> None:
    state = battle([player("p1", hp=10, max_hp=20, potions=(STAMINA,)), enemy("e1")], ["p1", "e1"])
    p1 = ok(act(state, DrinkPotion("p1", "stam-1"))).state.get("p1")
    assert (p1.hp, p1.max_hp) == (10 + SURE_HIT.hp_per_stamina, 20 + SURE_HIT.hp_per_stamina)


def test_drinking_a_potion_not_carried_is_impossible() -> None:
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"])
    assert refused(act(state, DrinkPotion("p1", "nope"))) == A.NO_SUCH_POTION


def test_switching_weapon_is_free_and_changes_the_damage() -> None:
    weapons = (Weapon("dagger", 2), Weapon("axe", 9))
    state = battle([player("p1", weapons=weapons), enemy("e1", hp=50), player("p2")], ["p1", "e1", "p2"])
    result = ok(act(state, SwitchWeapon("p1", 1)))
    assert result.state.awaiting == "p1"
    assert result.events == (E.WeaponSwitched("p1", "axe", 1),)
    attacked = ok(act(result.state, AttackAction("p1", "e1")))
    assert E.Attack("p1", "e1", "axe") in attacked.events
    assert E.Damage("e1", 9, 41, "attack") in attacked.events


def test_switching_to_the_weapon_in_hand_or_an_empty_slot_is_impossible() -> None:
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"])
    assert refused(act(state, SwitchWeapon("p1", 0))) == A.WEAPON_IN_HAND
    assert refused(act(state, SwitchWeapon("p1", 1))) == A.NO_SUCH_WEAPON


def test_fists_deal_the_fist_damage() -> None:
    state = battle([player("p1", weapons=()), enemy("e1", hp=50)], ["p1", "e1"])
    result = ok(act(state, AttackAction("p1", "e1")))
    assert E.Attack("p1", "e1", "fists") in result.events
    assert E.Damage("e1", SURE_HIT.fist_damage, 50 - SURE_HIT.fist_damage, "attack") in result.events


def test_skip_passes_the_turn() -> None:
    state = battle([player("p1"), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    result = ok(act(state, Skip("p1")))
    assert E.TurnSkipped("p1", "skip") in result.events
    assert result.state.awaiting == "p2"


def test_timeout_skips_the_turn_with_its_own_reason() -> None:
    state = battle([player("p1"), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    result = ok(act(state, Timeout("p1")))
    assert E.TurnSkipped("p1", "timeout") in result.events
    assert result.state.awaiting == "p2"


def test_fleeing_leaves_the_battle_and_the_others_fight_on() -> None:
    state = battle([player("p1"), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    result = ok(act(state, Flee("p1")))
    assert E.Fled("p1") in result.events
    assert result.state.get("p1").fled
    assert result.state.outcome is Outcome.ONGOING
    assert result.state.awaiting == "p2"
    # the enemy can no longer reach the fled player
    after = ok(act(result.state, Skip("p2")))
    assert all(e.target != "p1" for e in after.events if isinstance(e, E.Attack))
    assert "p1" not in [e.actor for e in after.events if isinstance(e, E.TurnStarted)]


def test_when_the_last_player_flees_the_battle_ends_as_escaped() -> None:
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"])
    result = ok(act(state, Flee("p1")))
    assert result.state.outcome is Outcome.ESCAPED
    assert kinds(result.events) == ["fled", "battle_over"]


def test_nobody_flees_from_a_boss() -> None:
    state = battle([player("p1"), enemy("boss", boss=True), enemy("minion")], ["p1", "boss", "minion"])
    assert refused(act(state, Flee("p1"))) == A.CANNOT_FLEE_BOSS
    assert Flee("p1") not in allowed_actions(state)


def test_acting_out_of_turn_is_impossible() -> None:
    state = battle([player("p1"), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    assert refused(act(state, AttackAction("p2", "e1"))) == A.NOT_YOUR_TURN
    assert refused(act(state, Skip("e1"))) == A.NOT_YOUR_TURN
    assert refused(act(state, Skip("ghost"))) == A.NOT_YOUR_TURN


def test_acting_after_the_battle_is_impossible() -> None:
    state = battle([player("p1", damage=99), enemy("e1", hp=1)], ["p1", "e1"])
    over = ok(act(state, AttackAction("p1", "e1"))).state
    assert refused(act(over, Skip("p1"))) == A.BATTLE_OVER


def test_attacking_a_friend_an_unknown_or_a_dead_target_is_impossible() -> None:
    state = battle(
        [player("p1"), player("p2"), npc(), enemy("e1"), enemy("e2", hp=1)], ["p1", "p2", "e1", "e2"]
    )
    assert refused(act(state, AttackAction("p1", "p2"))) == A.NOT_AN_ENEMY
    assert refused(act(state, AttackAction("p1", "npc"))) == A.NOT_AN_ENEMY
    assert refused(act(state, AttackAction("p1", "zz"))) == A.UNKNOWN_TARGET
    state = ok(act(state, AttackAction("p1", "e2"))).state
    assert refused(act(state, AttackAction("p2", "e2"))) == A.TARGET_DOWN


def test_a_camouflaged_enemy_cannot_be_attacked_while_another_is_visible() -> None:
    hidden = enemy("e1", effects=(eff("camouflage"),))
    state = battle([player("p1"), hidden, enemy("e2")], ["p1", "e1", "e2"])
    assert refused(act(state, AttackAction("p1", "e1"))) == A.TARGET_CAMOUFLAGED
    assert AttackAction("p1", "e1") not in allowed_actions(state)
    assert ok(act(state, AttackAction("p1", "e2")))


def test_when_every_enemy_is_camouflaged_camouflage_is_ignored() -> None:
    state = battle([player("p1"), enemy("e1", effects=(eff("camouflage"),))], ["p1", "e1"])
    assert ok(act(state, AttackAction("p1", "e1")))


def test_a_provoking_enemy_must_be_attacked() -> None:
    state = battle(
        [player("p1"), enemy("e1"), enemy("e2", effects=(eff("provocation"),))], ["p1", "e1", "e2"]
    )
    assert refused(act(state, AttackAction("p1", "e1"))) == A.MUST_TARGET_PROVOKER
    assert ok(act(state, AttackAction("p1", "e2")))


def test_a_refused_action_changes_nothing() -> None:
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"])
    before = state.to_dict()
    refused(act(state, SwitchWeapon("p1", 3)))
    assert state.to_dict() == before


def test_allowed_actions_lists_what_the_awaiting_player_may_do() -> None:
    weapons = (Weapon("dagger", 2), Weapon("axe", 9))
    state = battle(
        [
            player("p1", weapons=weapons, potions=(HEAL, HEAL)),
            enemy("e1"),
            enemy("e2", effects=(eff("camouflage"),)),
        ],
        ["p1", "e1", "e2"],
    )
    assert allowed_actions(state) == (
        AttackAction("p1", "e1"),
        DrinkPotion("p1", "heal-1"),
        SwitchWeapon("p1", 1),
        Skip("p1"),
        Flee("p1"),
    )
    for action in allowed_actions(state):
        assert ok(act(state, action))


def test_every_success_leaves_a_player_to_act_or_the_battle_over() -> None:
    state = battle(
        [player("p1"), enemy("e1"), player("p2"), enemy("e2")], ["e1", "p1", "e2", "p2"], rules=ALWAYS_MISS
    )
    for _ in range(10):
        result = ok(act(state, Skip(state.awaiting or "")))
        state = result.state
        assert state.awaiting in {"p1", "p2"}
    assert state.step == 11
