"""Engine versions: version 2 rules (haste is an extra turn, one flight per battle), and battles
started under version 1 replaying exactly as the version 1 engine played them.

The digests below were computed with the version 1 engine itself (the commit before version 2),
so a change that alters how a stored version 1 battle replays fails here.
"""
from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.engine import (
    ENGINE_VERSION,
    SUPPORTED_VERSIONS,
    BattleSetup,
    BattleState,
    CombatRules,
    EffectSpec,
    Flee,
    Skip,
    Weapon,
    act,
    allowed_actions,
    replay,
    start_battle,
)
from combat.engine import actions as A
from tests.combat.engine.factories import battle, enemy, ok, player, refused

# seed -> (digest of the events and final state, flights taken, outcome, player actions)
V1_PINNED = {
    0: ("420019b4ed17d0b5", 1, "escaped", 8),
    1: ("e0dd23f2a0c6e868", 0, "victory", 25),
    2: ("45ba4fd9d4e053fc", 0, "defeat", 15),
    3: ("b2d896e95e5144bf", 1, "escaped", 11),
    4: ("92e3be3ab0f57154", 0, "defeat", 17),
    5: ("6fb9a44d983a7ebd", 2, "escaped", 8),
    6: ("3fe3767a59cc1d5e", 0, "defeat", 15),
    7: ("d182bb48305111c0", 2, "escaped", 10),
}


def hasted_setup() -> BattleSetup:
    return BattleSetup(
        players=(player("p1", hp=40, weapons=(Weapon("axe", 4),)), player("p2", hp=35), player("p3", hp=30)),
        enemies=(enemy("e1", hp=40, on_hit=(EffectSpec("bleeding", turns=2, chance=0.5),)),
                 enemy("e2", hp=30)),
        starting_effects=(("p1", EffectSpec("haste", turns=3)), ("e1", EffectSpec("haste")),
                          ("p2", EffectSpec("burning", turns=4))),
        rules=CombatRules(),
    )


def play(seed: int, version: int) -> tuple[str, int, str, int, list[A.Action]]:
    """Play with seeded random allowed actions (flight fairly often); digest events and final state."""
    result = start_battle(hasted_setup(), seed, version=version)
    state, events = result.state, list(result.events)
    chooser = random.Random(seed)
    actions: list[A.Action] = []
    while not state.over:
        options = allowed_actions(state)
        if chooser.random() > 0.15:
            options = tuple(a for a in options if not isinstance(a, Flee)) or options
        action = chooser.choice(options)
        step = ok(act(state, action))
        actions.append(action)
        state = step.state
        events.extend(step.events)
    blob = json.dumps({"events": [e.to_dict() for e in events], "state": state.to_dict()}, sort_keys=True)
    flights = sum(1 for a in actions if isinstance(a, Flee))
    return hashlib.sha256(blob.encode()).hexdigest()[:16], flights, state.outcome.value, len(actions), actions


@pytest.mark.parametrize("seed", sorted(V1_PINNED))
def test_a_version_1_battle_plays_and_replays_as_the_version_1_engine_did(seed: int) -> None:
    digest, flights, outcome, count, actions = play(seed, version=1)
    assert (digest, flights, outcome, count) == V1_PINNED[seed]
    replayed = replay(hasted_setup(), seed, actions, version=1)
    assert replayed.state.version == 1
    assert BattleState.from_dict(json.loads(json.dumps(replayed.state.to_dict()))) == replayed.state


def test_new_battles_use_version_2_and_unknown_versions_are_refused() -> None:
    assert ENGINE_VERSION == 2 and SUPPORTED_VERSIONS == (1, 2)
    assert start_battle(hasted_setup(), 1).state.version == 2
    with pytest.raises(ValueError):
        start_battle(hasted_setup(), 1, version=3)


def test_version_2_plays_the_same_seeds_differently() -> None:
    assert {play(seed, version=2)[0] for seed in V1_PINNED} != {v[0] for v in V1_PINNED.values()}


# --- one flight per battle (version 2) -------------------------------------------------------------


def test_after_one_member_fled_nobody_else_may_flee() -> None:
    state = battle([player("p1"), player("p2"), player("p3"), enemy("e1", hp=50)], ["p1", "p2", "p3", "e1"])
    fled = ok(act(state, Flee("p1")))
    assert fled.state.awaiting == "p2" and fled.state.get("p1").fled
    assert not any(isinstance(a, Flee) for a in allowed_actions(fled.state))
    assert refused(act(fled.state, Flee("p2"))) == A.FLIGHT_ALREADY_TAKEN
    # the refusal changes nothing; the member fights on
    assert ok(act(fled.state, Skip("p2"))).state.awaiting == "p3"


def test_a_party_of_one_may_flee_and_the_battle_ends_escaped() -> None:
    state = battle([player("p1"), enemy("e1", hp=50)], ["p1", "e1"])
    assert Flee("p1") in allowed_actions(state)
    result = ok(act(state, Flee("p1")))
    assert result.state.outcome.value == "escaped"


def test_version_1_lets_every_member_flee_in_turn() -> None:
    state = battle([player("p1"), player("p2"), enemy("e1", hp=50)], ["p1", "p2", "e1"], version=1)
    first = ok(act(state, Flee("p1")))
    assert Flee("p2") in allowed_actions(first.state)
    assert ok(act(first.state, Flee("p2"))).state.outcome.value == "escaped"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), flee_bias=st.floats(0.0, 1.0))
def test_no_version_2_battle_ever_has_two_flights(seed: int, flee_bias: float) -> None:
    """Whatever the players do, a version 2 battle records at most one flight."""
    result = start_battle(hasted_setup(), seed)
    state, chooser, flights = result.state, random.Random(seed), 0
    while not state.over:
        options = allowed_actions(state)
        fleeing = [a for a in options if isinstance(a, Flee)]
        action = fleeing[0] if fleeing and chooser.random() < flee_bias else chooser.choice(options)
        state = ok(act(state, action)).state
        flights += isinstance(action, Flee)
    assert flights <= 1
    assert sum(c.fled for c in state.players) <= 1
