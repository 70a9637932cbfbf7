"""Hypothesis invariants over random battles: HP bounds, the dead never act, formation, replay."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from combat.engine import (
    EFFECTS,
    OPPOSITES,
    REPLACES,
    Action,
    BattleSetup,
    BattleState,
    Combatant,
    CombatRules,
    DrinkPotion,
    EffectSpec,
    Flee,
    Potion,
    PotionKind,
    Stats,
    SwitchWeapon,
    Timeout,
    Weapon,
    act,
    allowed_actions,
    replay,
    start_battle,
)
from combat.engine import events as E
from tests.combat.engine.factories import ok

effect_specs = st.builds(
    EffectSpec,
    name=st.sampled_from(EFFECTS),
    turns=st.one_of(st.none(), st.integers(1, 4)),
    magnitude=st.one_of(st.none(), st.floats(0, 3, allow_nan=False)),
    chance=st.floats(0, 1),
)
stats = st.builds(Stats, *(st.integers(0, 6) for _ in range(5)))
weapons = st.lists(
    st.builds(
        Weapon,
        st.sampled_from(["sword", "bow", "staff"]),
        st.integers(0, 9),
        on_hit=st.lists(effect_specs, max_size=2).map(tuple),
    ),
    max_size=2,
).map(tuple)
potions = st.lists(
    st.one_of(
        st.builds(Potion, st.just("heal"), st.just(PotionKind.HEALING), heal=st.integers(1, 20)),
        st.builds(Potion, st.just("eff"), st.just(PotionKind.EFFECT), effect=effect_specs),
        st.builds(
            Potion,
            st.just("stat"),
            st.just(PotionKind.STAT),
            stat=st.sampled_from(["luck", "stamina"]),
            amount=st.integers(1, 2),
        ),
    ),
    max_size=3,
).map(tuple)


@st.composite
def combatants(draw: st.DrawFn, kind: str, index: int) -> Combatant:
    max_hp = draw(st.integers(1, 40))
    return Combatant(
        id=f"{kind[0]}{index}",
        kind=kind,  # type: ignore[arg-type]
        name=f"{kind} {index}",
        hp=draw(st.integers(1, max_hp)),
        max_hp=max_hp,
        stats=draw(stats),
        weapons=draw(weapons),
        armor=draw(st.integers(0, 12)),
        potions=draw(potions) if kind == "player" else (),
        amulets=tuple(draw(st.lists(effect_specs, max_size=2))),
        is_boss=kind == "enemy" and draw(st.booleans()),
    )


@st.composite
def setups(draw: st.DrawFn) -> BattleSetup:
    players = tuple(draw(combatants("player", i)) for i in range(draw(st.integers(1, 4))))
    enemies = tuple(draw(combatants("enemy", i)) for i in range(draw(st.integers(1, 6))))
    companion = draw(st.one_of(st.none(), combatants("npc", 0)))
    everyone = [c.id for c in players + enemies + ((companion,) if companion else ())]
    starting = tuple(draw(st.lists(st.tuples(st.sampled_from(everyone), effect_specs), max_size=4)))
    rules = CombatRules(max_rounds=draw(st.integers(1, 25)))
    return BattleSetup(
        players=players, enemies=enemies, npc=companion, starting_effects=starting, rules=rules
    )


def choose(state: BattleState, chooser: random.Random, free_actions: int) -> Action:
    options = list(allowed_actions(state))
    if free_actions >= 3:  # free actions never end a turn; cap them so the turn moves on
        options = [a for a in options if not isinstance(a, (DrinkPotion, SwitchWeapon))]
    if chooser.random() > 0.05:
        options = [a for a in options if not isinstance(a, Flee)] or options
    if chooser.random() < 0.05:
        return Timeout(state.awaiting or "")
    return chooser.choice(options)


def check_state(state: BattleState, formation: tuple[str, ...]) -> None:
    for c in state.combatants:
        assert 0 <= c.hp <= c.max_hp
        names = {e.name for e in c.effects}
        assert len(names) == len(c.effects)
        for e in c.effects:
            assert OPPOSITES.get(e.name) not in names
            assert e.turns is None or e.turns >= 1
        for replacer, replaced in REPLACES.items():
            assert not (replacer in names and replaced in names)
    assert tuple(i for i in state.order if i in formation) == formation
    if not state.over:
        assert state.awaiting is not None and state.get(state.awaiting).in_battle


ACTOR_EVENTS = (E.TurnStarted, E.Attack, E.ExtraTurn, E.PotionDrunk, E.WeaponSwitched)


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32), st.integers(0, 2**16))
def test_random_battles_keep_every_invariant_terminate_and_replay(
    setup: BattleSetup, seed: int, chooser_seed: int
) -> None:
    chooser = random.Random(chooser_seed)
    formation = tuple(p.id for p in setup.players)
    start = start_battle(setup, seed)
    state, events, actions = start.state, list(start.events), []
    free_actions = 0
    # Bounded: each round has at most players * 5 actions (3 free, 1 attack, 1 haste attack).
    for _ in range(setup.rules.max_rounds * len(setup.players) * 5 + 1):
        check_state(state, formation)
        if state.over:
            break
        action = choose(state, chooser, free_actions)
        result = ok(act(state, action))
        free_actions = free_actions + 1 if isinstance(action, (DrinkPotion, SwitchWeapon)) else 0
        if result.state.awaiting != state.awaiting:
            free_actions = 0
        actions.append(action)
        events.extend(result.events)
        state = result.state
    assert state.over, "the battle terminates"
    check_state(state, formation)

    # dead and fled creatures never act
    out: set[str] = set()
    for event in events:
        if isinstance(event, ACTOR_EVENTS):
            assert event.actor not in out
        if isinstance(event, E.Death):
            out.add(event.target)
        if isinstance(event, E.Fled):
            out.add(event.actor)
    assert sum(isinstance(e, E.BattleOver) for e in events) == 1

    again = replay(setup, seed, actions)
    assert again.state == state
    assert list(again.events) == events
    assert BattleState.from_dict(state.to_dict()) == state


@settings(max_examples=40, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_the_outcome_matches_who_is_left(setup: BattleSetup, seed: int) -> None:
    state = start_battle(setup, seed).state
    chooser = random.Random(seed)
    while not state.over:
        passing = [a for a in allowed_actions(state) if not isinstance(a, (DrinkPotion, SwitchWeapon))]
        state = ok(act(state, chooser.choice(passing))).state
    enemies_left = any(c.in_battle for c in state.enemies)
    players_left = any(c.in_battle for c in state.players)
    expected = {
        (False, True): "victory",
        (True, False): "defeat" if not any(p.fled for p in state.players) else "escaped",
        (True, True): "draw",
    }[(enemies_left, players_left)]
    assert state.outcome.value == expected
