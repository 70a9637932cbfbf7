"""Byte-for-byte pins of the engine over many random battles, for both rules versions.

The golden battle and the version 1 digests pin a handful of battles; these pin hundreds of
random setups (every effect, amulets, potions of each kind, two weapon slots, an NPC, bosses,
varied rules) played with random actions: allowed ones, timeouts and refused ones. For every
engine call the digest covers the events (to_dict), the new state (to_dict), the allowed actions
and every refusal's reason and message; then random apply_effect sequences and the damage
helpers. The digests were computed with the engine before its speed work (issue 19), so an
optimisation that changes any result, event or stored field fails here.
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from combat.engine import (
    EFFECTS,
    Action,
    AttackAction,
    BattleSetup,
    BattleState,
    Combatant,
    CombatRules,
    DrinkPotion,
    EffectBook,
    EffectSpec,
    Flee,
    Impossible,
    Kind,
    Potion,
    PotionKind,
    Skip,
    Stats,
    Success,
    SwitchWeapon,
    Timeout,
    Weapon,
    act,
    allowed_actions,
    crit_chance,
    hit_damage,
    miss_chance,
    replay,
    start_battle,
)
from combat.engine.state import setup_to_dict, to_jsonable

BATTLES = 400  # per version; a few seconds each
PINNED = {
    1: "d96265f07373875bb715448969df11ae",
    2: "556070baadf2d04fb5326c9cc7c7f6fe",
}
EFFECT_BOOK_PINNED = "c8609289feddbc520cdc2e648a5b60a2"


def _spec(rng: random.Random) -> EffectSpec:
    return EffectSpec(
        rng.choice(EFFECTS),
        rng.choice([None, 1, 1, 2, 3, 4]),
        rng.choice([None, None, round(rng.uniform(0, 3), 3), 0.0]),
        rng.choice([1.0, 1.0, 0.5, 0.25, round(rng.random(), 4)]),
    )


def _weapon(rng: random.Random, n: int) -> Weapon:
    return Weapon(
        f"w{n}", rng.randint(0, 9), rng.choice(["melee", "ranged", "magic"]),
        tuple(_spec(rng) for _ in range(rng.randint(0, 2))),
    )


def _potion(rng: random.Random) -> Potion:
    pid = rng.choice(["a", "b", "c", "d"])
    kind = rng.choice(list(PotionKind))
    if kind is PotionKind.HEALING:
        return Potion(pid, kind, heal=rng.randint(1, 20))
    if kind is PotionKind.EFFECT:
        return Potion(pid, kind, effect=_spec(rng))
    return Potion(pid, kind, stat=rng.choice(["strength", "stamina", "metabolism", "luck", "attentiveness"]),
                  amount=rng.randint(1, 3))


def _combatant(rng: random.Random, cid: str, kind: Kind, boss: bool = False) -> Combatant:
    hp = rng.randint(3, 40)
    weapons = tuple(_weapon(rng, n) for n in range(rng.choice([0, 1, 1, 2, 2])))
    return Combatant(
        id=cid, kind=kind, name=cid.upper(), hp=hp, max_hp=hp + rng.choice([0, 0, 5]),
        stats=Stats(*(rng.randint(0, 4) for _ in range(5))),
        weapons=weapons, active_weapon=rng.randrange(len(weapons)) if weapons else 0,
        armor=rng.randint(0, 8),
        potions=tuple(_potion(rng) for _ in range(rng.randint(0, 3))) if kind is Kind.PLAYER else (),
        amulets=tuple(EffectSpec(rng.choice(EFFECTS), magnitude=rng.choice([None, 0.5, 2.0]))
                      for _ in range(rng.choice([0, 0, 1, 2]))),
        is_boss=boss,
    )


def _rules(rng: random.Random) -> CombatRules:
    if rng.random() < 0.5:
        return CombatRules(max_rounds=rng.randint(3, 30))
    return CombatRules(
        base_miss_chance=rng.choice([0.0, 0.1, 0.3]),
        base_crit_chance=rng.choice([0.0, 0.05, 0.3]),
        crit_multiplier=rng.choice([1.5, 2.0, 3.0]),
        armor_constant=rng.choice([5.0, 10.0]),
        min_damage=rng.choice([0, 1, 2]),
        min_defense_multiplier=rng.choice([0.1, 0.5]),
        metabolism_regen_per_point=rng.choice([0.1, 0.25]),
        ai_focus_weakest_chance=rng.choice([0.0, 0.7, 1.0]),
        max_rounds=rng.randint(3, 30),
        effect_magnitudes={rng.choice(EFFECTS): round(rng.uniform(0.05, 4), 2) for _ in range(2)},
    )


def random_setup(rng: random.Random) -> BattleSetup:
    players = tuple(_combatant(rng, f"p{i}", Kind.PLAYER) for i in range(rng.randint(1, 4)))
    boss = rng.random() < 0.2
    enemies = tuple(_combatant(rng, f"e{i}", Kind.ENEMY, boss=boss and i == 0)
                    for i in range(rng.randint(1, 5)))
    npc = _combatant(rng, "npc", Kind.NPC) if rng.random() < 0.4 else None
    ids = [c.id for c in players + enemies] + (["npc"] if npc else [])
    starting = tuple((rng.choice(ids), _spec(rng)) for _ in range(rng.randint(0, 4)))
    return BattleSetup(players, enemies, npc, starting, _rules(rng))


def _wild_action(rng: random.Random, state: BattleState) -> Action:
    """An action that may well be refused: any actor, any target, any potion or slot."""
    ids = [c.id for c in state.combatants] + ["nobody"]
    actor = state.awaiting if rng.random() < 0.8 and state.awaiting else rng.choice(ids)
    enemies = [c.id for c in state.combatants if c.kind is Kind.ENEMY]
    return rng.choice([
        AttackAction(actor, rng.choice(ids)),
        AttackAction(actor, rng.choice(enemies)),
        AttackAction(actor, rng.choice(enemies)),
        DrinkPotion(actor, rng.choice(["a", "b", "z"])),
        SwitchWeapon(actor, rng.randint(-1, 2)),
        Flee(actor),
        Skip(actor),
    ])


def _choose(rng: random.Random, state: BattleState, options: tuple[Action, ...]) -> Action:
    roll = rng.random()
    if roll < 0.05:
        return Timeout(state.awaiting or "")
    if roll < 0.65:
        attacks = [a for a in options if isinstance(a, AttackAction)]
        if attacks:
            return rng.choice(attacks)
    if roll > 0.97:
        return next((a for a in options if isinstance(a, Flee)), options[-1])
    return rng.choice([a for a in options if not isinstance(a, Flee)] or list(options))


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True).encode()


def battles_digest(version: int, battles: int = BATTLES) -> str:
    digest = hashlib.sha256()
    for seed in range(battles):
        rng = random.Random(f"digest/{version}/{seed}")
        setup = random_setup(rng)
        result = start_battle(setup, seed, version=version)
        state = result.state
        digest.update(_dump([e.to_dict() for e in result.events]))
        digest.update(_dump(state.to_dict()))
        actions: list[Action] = []
        all_events = list(result.events)
        while not state.over:
            options = allowed_actions(state)
            digest.update(_dump([a.to_dict() for a in options]))
            if rng.random() < 0.15:
                wild = _wild_action(rng, state)
                outcome = act(state, wild)
                if isinstance(outcome, Impossible):
                    digest.update(_dump([wild.to_dict(), outcome.reason, outcome.message]))
                    continue
            else:
                wild = _choose(rng, state, options)
                outcome = act(state, wild)
            assert isinstance(outcome, Success), outcome
            actions.append(wild)
            state = outcome.state
            all_events.extend(outcome.events)
            digest.update(_dump([e.to_dict() for e in outcome.events]))
            digest.update(_dump(state.to_dict()))
        after = act(state, Skip(state.order[0]))
        assert isinstance(after, Impossible) and not allowed_actions(state)
        digest.update(_dump([after.reason, after.message]))
        if seed % 20 == 0:
            again = replay(setup, seed, actions, version=version)
            assert again.state == state and list(again.events) == all_events
    return digest.hexdigest()[:32]


def effect_book_digest(sequences: int = 2000) -> str:
    digest = hashlib.sha256()
    for n in range(sequences):
        rng = random.Random(f"book/{n}")
        book = EffectBook()
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.25:
                digest.update(_dump(list(book.end_turn())))
                continue
            permanent = rng.random() < 0.15
            outcome = book.apply(rng.choice(EFFECTS), rng.choice([None, 1, 2, 5]),
                                 rng.choice([None, 0.0, round(rng.uniform(0, 2), 3)]), permanent)
            digest.update(_dump([outcome.value, {k: v.to_dict() for k, v in book.active().items()}]))
        # The damage helpers on a creature carrying the book's effects.
        rules = CombatRules()
        a = Combatant("a", Kind.PLAYER, "a", 10, 10, Stats(*(rng.randint(0, 5) for _ in range(5))),
                      (Weapon("w", rng.randint(0, 9)),), effects=book.snapshot())
        d = Combatant("d", Kind.ENEMY, "d", 10, 10, armor=rng.randint(0, 9), effects=book.snapshot())
        digest.update(_dump([miss_chance(a, rules), crit_chance(a, rules),
                             hit_damage(a, d, False, rules), hit_damage(a, d, True, rules)]))
    return digest.hexdigest()[:32]


@pytest.mark.parametrize("version", sorted(PINNED))
def test_random_battles_play_exactly_as_pinned(version: int) -> None:
    assert battles_digest(version) == PINNED[version]


def test_effect_stacking_and_damage_helpers_are_exactly_as_pinned() -> None:
    assert effect_book_digest() == EFFECT_BOOK_PINNED


def test_the_state_json_is_exactly_the_generic_walk_of_its_fields() -> None:
    """BattleState.to_dict and setup_to_dict are written out field by field for speed; they must stay what
    the generic to_jsonable walk gives (same keys in the same order, same values), also after a field is
    added."""
    for seed in range(40):
        rng = random.Random(f"json/{seed}")
        setup = random_setup(rng)
        assert json.dumps(setup_to_dict(setup)) == json.dumps(to_jsonable(setup))
        state = start_battle(setup, seed, version=rng.choice([1, 2])).state
        while True:
            assert json.dumps(state.to_dict()) == json.dumps(to_jsonable(state))
            if state.over:
                break
            outcome = act(state, _choose(rng, state, allowed_actions(state)))
            assert isinstance(outcome, Success)
            state = outcome.state
