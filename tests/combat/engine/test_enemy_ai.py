"""Enemy AI: focus the weakest, honour provocation and camouflage, may strike the NPC."""
from __future__ import annotations

import random
from dataclasses import replace

from combat.engine import Skip, act, choose_target, valid_targets
from combat.engine import events as E
from tests.combat.engine.factories import SURE_HIT, ScriptedRandom, battle, eff, enemy, npc, ok, player


def attacked_targets(events: tuple[E.Event, ...]) -> list[str]:
    return [e.target for e in events if isinstance(e, E.Attack) and e.actor.startswith("e")]


def test_the_enemy_focuses_the_weakest_valid_target() -> None:
    state = battle([player("p1", hp=30), player("p2", hp=8), enemy("e1", damage=1)], ["p1", "p2", "e1"])
    state = ok(act(state, Skip("p1"))).state
    result = ok(act(state, Skip("p2"), rng=ScriptedRandom([0.0])))
    assert attacked_targets(result.events) == ["p2"]


def test_the_enemy_sometimes_picks_at_random() -> None:
    fighters = [player("p1", hp=30), player("p2", hp=8), enemy("e1")]
    never_focus = replace(SURE_HIT, ai_focus_weakest_chance=0.0)
    picks = {
        target.id
        for seed in range(40)
        if (target := choose_target(fighters[2], fighters, never_focus, random.Random(seed))) is not None
    }
    assert picks == {"p1", "p2"}


def test_the_enemy_must_attack_a_provoking_creature() -> None:
    tank = player("tank", hp=90, effects=(eff("provocation"),))
    state = battle([player("p1", hp=5), tank, enemy("e1", damage=1)], ["p1", "tank", "e1"])
    state = ok(act(state, Skip("p1"))).state
    result = ok(act(state, Skip("tank"), rng=ScriptedRandom([0.0])))
    assert attacked_targets(result.events) == ["tank"]


def test_the_enemy_never_attacks_a_camouflaged_creature_while_another_is_visible() -> None:
    hidden = player("p1", hp=1, effects=(eff("camouflage", turns=None),))
    fighters = [hidden, player("p2", hp=50), enemy("e1")]
    assert [c.id for c in valid_targets(fighters[2], fighters)] == ["p2"]
    for seed in range(20):
        target = choose_target(fighters[2], fighters, SURE_HIT, ScriptedRandom([seed / 20], rest=seed / 20))
        assert target is not None and target.id == "p2"


def test_the_enemy_attacks_camouflaged_creatures_when_all_are_camouflaged() -> None:
    fighters = [player("p1", effects=(eff("camouflage"),)), npc(effects=(eff("camouflage"),)), enemy("e1")]
    assert {c.id for c in valid_targets(fighters[2], fighters)} == {"p1", "npc"}


def test_the_enemy_can_attack_and_kill_the_npc_companion() -> None:
    state = battle([player("p1", hp=90), npc(hp=3), enemy("e1", damage=10)], ["p1", "e1"])
    result = ok(act(state, Skip("p1"), rng=ScriptedRandom([0.0])))
    assert attacked_targets(result.events) == ["npc"]
    assert E.Death("npc") in result.events


def test_a_provoking_npc_draws_the_attacks() -> None:
    fighters = [player("p1", hp=1), npc(hp=90, effects=(eff("provocation"),)), enemy("e1")]
    target = choose_target(fighters[2], fighters, SURE_HIT, ScriptedRandom([0.0]))
    assert target is not None and target.id == "npc"


def test_dead_and_fled_creatures_are_never_targets() -> None:
    fighters = [replace(player("p1"), hp=0), replace(player("p2"), fled=True), player("p3"), enemy("e1")]
    assert [c.id for c in valid_targets(fighters[3], fighters)] == ["p3"]
