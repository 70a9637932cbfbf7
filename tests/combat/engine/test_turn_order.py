"""Turn order: seeded, keeps the formation, repeats every round, skips the fallen; battle end."""
from __future__ import annotations

import random
from dataclasses import replace

from combat.engine import AttackAction, BattleSetup, Outcome, Skip, act, start_battle, turn_order
from combat.engine import events as E
from tests.combat.engine.factories import ALWAYS_MISS, SURE_HIT, battle, enemy, kinds, npc, ok, player


def test_turn_order_keeps_the_formation_order_of_players() -> None:
    for seed in range(200):
        order = turn_order(["a", "b", "c", "d"], ["x", "y", "z"], random.Random(seed))
        assert [i for i in order if i in "abcd"] == ["a", "b", "c", "d"]
        assert sorted(order) == sorted("abcdxyz")


def test_turn_order_is_the_same_for_the_same_seed() -> None:
    assert turn_order(["a", "b"], ["x", "y", "z"], random.Random(5)) == turn_order(
        ["a", "b"], ["x", "y", "z"], random.Random(5)
    )


def test_turn_order_reaches_every_interleaving_and_shuffles_enemies() -> None:
    seen = {turn_order(["a", "b"], ["x", "y"], random.Random(seed)) for seed in range(400)}
    # C(4, 2) player slot choices times 2 enemy orders
    assert len(seen) == 12


def test_start_battle_pins_the_order_by_seed() -> None:
    setup = BattleSetup(players=(player("p1"), player("p2")), enemies=(enemy("e1"), enemy("e2")))
    first = start_battle(setup, 7).state.order
    assert first == start_battle(setup, 7).state.order
    assert {start_battle(setup, seed).state.order for seed in range(50)} != {first}


def test_the_order_repeats_every_round() -> None:
    state = battle(
        [player("p1"), player("p2"), enemy("e1"), enemy("e2")], ["e2", "p1", "e1", "p2"], rules=ALWAYS_MISS
    )
    started: list[str] = ["e2", "p1"]  # resolved on the way to p1's first turn
    while state.round <= 3:
        result = ok(act(state, Skip(state.awaiting or "")))
        state = result.state
        started += [e.actor for e in result.events if isinstance(e, E.TurnStarted)]
    assert started[:12] == ["e2", "p1", "e1", "p2"] * 3


def test_rounds_are_counted_and_announced() -> None:
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"], rules=ALWAYS_MISS)
    result = ok(act(state, Skip("p1")))
    assert E.RoundStarted(2) in result.events
    assert result.state.round == 2


def test_dead_creatures_are_skipped_in_the_order() -> None:
    state = battle(
        [
            player("p1", damage=50), enemy("e1", hp=5), enemy("e2", damage=1)
        ], ["p1", "e1", "e2"], rules=SURE_HIT
    )
    result = ok(act(state, AttackAction("p1", "e1")))
    started = [e.actor for e in result.events if isinstance(e, E.TurnStarted)]
    assert started == ["e2", "p1"]


def test_killing_the_last_enemy_is_victory() -> None:
    state = battle([player("p1", damage=50), enemy("e1", hp=5)], ["p1", "e1"])
    result = ok(act(state, AttackAction("p1", "e1")))
    assert result.state.outcome is Outcome.VICTORY
    assert kinds(result.events)[-1] == "battle_over"
    assert result.state.awaiting is None


def test_all_players_dead_is_defeat_even_with_the_npc_alive() -> None:
    state = battle(
        [player("p1", hp=3), npc(hp=50), enemy("e1", damage=10)], ["p1", "e1"]
    )
    result = ok(act(state, Skip("p1")))
    assert result.state.outcome is Outcome.DEFEAT
    assert result.state.get("npc").alive


def test_npc_death_alone_does_not_end_the_battle() -> None:
    state = battle([player("p1", hp=100), npc(hp=2), enemy("e1", damage=10, hp=500)], ["p1", "e1"])
    result = ok(act(state, Skip("p1")))
    assert E.Death("npc") in result.events
    assert result.state.outcome is Outcome.ONGOING
    assert result.state.awaiting == "p1"


def test_a_battle_reaching_max_rounds_is_a_draw() -> None:
    rules = replace(ALWAYS_MISS, max_rounds=2)
    state = battle([player("p1"), enemy("e1")], ["p1", "e1"], rules=rules)
    state = ok(act(state, Skip("p1"))).state
    result = ok(act(state, Skip("p1")))
    assert result.state.outcome is Outcome.DRAW


def test_an_npc_takes_no_turns() -> None:
    setup = BattleSetup(players=(player("p1"),), enemies=(enemy("e1"),), npc=npc())
    assert "npc" not in start_battle(setup, 3).state.order
