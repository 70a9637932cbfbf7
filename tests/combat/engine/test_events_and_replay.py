"""Events and state as JSON, and replaying a battle from its seed and player actions."""
from __future__ import annotations

import json
import random

from combat.engine import (
    AttackAction,
    BattleSetup,
    BattleState,
    CombatRules,
    EffectSpec,
    Flee,
    Potion,
    PotionKind,
    Stats,
    Weapon,
    act,
    action_from_dict,
    allowed_actions,
    event_from_dict,
    replay,
    rng_for,
    setup_from_dict,
    setup_to_dict,
    start_battle,
)
from combat.engine.actions import Action
from combat.engine.events import Event
from tests.combat.engine.factories import enemy, npc, ok, player


def rich_setup() -> BattleSetup:
    potions = (
        Potion("h", PotionKind.HEALING, heal=8),
        Potion("c", PotionKind.EFFECT, effect=EffectSpec("concentration", turns=3)),
        Potion("s", PotionKind.STAT, stat="stamina", amount=1),
    )
    burning = (EffectSpec("burning", turns=2, chance=0.4), EffectSpec("fear", turns=2, chance=0.3))
    return BattleSetup(
        players=(
            player("p1", hp=40, potions=potions, weapons=(Weapon("axe", 7), Weapon("bow", 5, "ranged"))),
            player("p2", hp=35, stats=Stats(luck=3, attentiveness=2), amulets=(EffectSpec("blessing"),)),
            player("p3", hp=30, stats=Stats(strength=4, metabolism=3)),
        ),
        enemies=(
            enemy("e1", hp=25, on_hit=burning),
            enemy("e2", hp=20, on_hit=(EffectSpec("stun", turns=1, chance=0.2),)),
            enemy("e3", hp=30, armor=4, on_hit=(EffectSpec("curse", turns=3, magnitude=0.2, chance=0.3),)),
        ),
        npc=npc(hp=15),
        starting_effects=(
            ("p3", EffectSpec("regeneration", turns=4)), ("e2", EffectSpec("camouflage", turns=2))
        ),
        rules=CombatRules(),
    )


def play(
    setup: BattleSetup, seed: int, chooser: random.Random
) -> tuple[BattleState, list[Action], list[Event]]:
    """Play a battle to its end with random allowed actions, persisting the state as JSON each step."""
    result = start_battle(setup, seed)
    state, actions, events = result.state, [], list(result.events)
    while not state.over:
        options = allowed_actions(state)
        # Fleeing ends a player's battle at once; keep it rare so battles run long.
        if chooser.random() > 0.02:
            options = tuple(a for a in options if not isinstance(a, Flee)) or options
        action = chooser.choice(options)
        step = ok(act(state, action))
        actions.append(action)
        events.extend(step.events)
        state = BattleState.from_dict(json.loads(json.dumps(step.state.to_dict())))
        assert state == step.state
    return state, actions, events


def test_a_battle_replays_identically_from_its_seed_and_actions() -> None:
    for seed in range(5):
        final, actions, events = play(rich_setup(), seed, random.Random(seed))
        replayed = replay(rich_setup(), seed, actions)
        assert replayed.state == final
        assert list(replayed.events) == events


def test_replay_works_from_the_persisted_setup_and_action_log() -> None:
    final, actions, _ = play(rich_setup(), 11, random.Random(3))
    setup = setup_from_dict(json.loads(json.dumps(setup_to_dict(rich_setup()))))
    log = [action_from_dict(json.loads(json.dumps(a.to_dict()))) for a in actions]
    assert setup == rich_setup()
    assert log == actions
    assert replay(setup, 11, log).state == final


def test_a_different_seed_gives_a_different_battle() -> None:
    outcomes = {play(rich_setup(), seed, random.Random(0))[0].to_dict().__repr__() for seed in range(6)}
    assert len(outcomes) > 1


def test_every_event_is_json_with_a_kind_and_round_trips() -> None:
    _, _, events = play(rich_setup(), 4, random.Random(4))
    kinds = set()
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        kinds.add(data["kind"])
        assert event_from_dict(data) == event
    assert {"battle_started", "turn_started", "attack", "damage", "battle_over"} <= kinds


def test_the_battle_state_round_trips_through_json() -> None:
    state = start_battle(rich_setup(), 9).state
    data = json.loads(json.dumps(state.to_dict()))
    assert data["version"] == 2
    assert BattleState.from_dict(data) == state


def test_a_state_of_another_engine_version_is_refused() -> None:
    data = start_battle(rich_setup(), 9).state.to_dict()
    data["version"] = 0
    try:
        BattleState.from_dict(data)
    except ValueError:
        return
    raise AssertionError("an old engine version must not load silently")


def test_rules_round_trip_and_partial_magnitudes_keep_the_defaults() -> None:
    rules = CombatRules(crit_multiplier=3.0, effect_magnitudes={"bleeding": 5.0})
    assert rules.effect_magnitudes["bleeding"] == 5.0 and rules.effect_magnitudes["curse"] == 0.1
    assert CombatRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_each_engine_call_draws_from_its_own_stream() -> None:
    assert rng_for(5, 3).random() == rng_for(5, 3).random()
    assert rng_for(5, 3).random() != rng_for(5, 4).random()
    assert rng_for(5, 3).random() != rng_for(6, 3).random()


def test_an_injected_rng_overrides_the_derived_stream() -> None:
    setup = rich_setup()
    state = start_battle(setup, 1).state
    target = next(a for a in allowed_actions(state) if isinstance(a, AttackAction))
    derived = ok(act(state, target))
    injected = ok(act(state, target, rng=rng_for(state.seed, state.step)))
    assert derived == injected


def test_golden_battle_pinned_by_seed() -> None:
    # Pins the rules: a change here means old battles no longer replay; bump ENGINE_VERSION.
    final, actions, events = play(rich_setup(), 2024, random.Random(7))
    assert final.order == GOLDEN_ORDER
    assert (final.outcome.value, final.round, len(actions), len(events)) == GOLDEN_SUMMARY


GOLDEN_ORDER = ("e1", "p1", "e3", "e2", "p2", "p3")
GOLDEN_SUMMARY = ("defeat", 19, 47, 303)
