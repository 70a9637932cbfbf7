"""Builders for combat engine tests: combatants, hand-made battle states and a scripted rng."""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from combat.engine import (
    ENGINE_VERSION,
    ActionResult,
    BattleState,
    Combatant,
    CombatRules,
    EffectSpec,
    Impossible,
    Kind,
    Potion,
    Stats,
    Success,
    Weapon,
    resolve_enemy_turns,
)
from combat.engine.effects import ActiveEffect

# Rules under which nothing is left to chance: every attack hits and none is critical.
SURE_HIT = CombatRules(
    base_miss_chance=0.0, base_crit_chance=0.0, luck_crit_per_point=0.0, ai_focus_weakest_chance=1.0
)
# Rules under which every attack misses: turns go round and nobody gets hurt.
ALWAYS_MISS = CombatRules(base_miss_chance=1.0, max_miss_chance=1.0, ai_focus_weakest_chance=1.0)


def player(
    pid: str,
    hp: int = 30,
    *,
    max_hp: int | None = None,
    damage: int = 6,
    weapons: tuple[Weapon, ...] | None = None,
    armor: int = 0,
    stats: Stats | None = None,
    potions: tuple[Potion, ...] = (),
    amulets: tuple[EffectSpec, ...] = (),
    effects: tuple[ActiveEffect, ...] = (),
) -> Combatant:
    return Combatant(
        id=pid,
        kind=Kind.PLAYER,
        name=pid,
        hp=hp,
        max_hp=max_hp if max_hp is not None else hp,
        stats=stats or Stats(),
        weapons=weapons if weapons is not None else (Weapon("sword", damage),),
        armor=armor,
        potions=potions,
        amulets=amulets,
        effects=effects,
    )


def enemy(
    eid: str,
    hp: int = 12,
    *,
    damage: int = 4,
    armor: int = 0,
    boss: bool = False,
    on_hit: tuple[EffectSpec, ...] = (),
    stats: Stats | None = None,
    effects: tuple[ActiveEffect, ...] = (),
    amulets: tuple[EffectSpec, ...] = (),
) -> Combatant:
    return Combatant(
        id=eid,
        kind=Kind.ENEMY,
        name=eid,
        hp=hp,
        max_hp=hp,
        stats=stats or Stats(),
        weapons=(Weapon("claw", damage, on_hit=on_hit),),
        armor=armor,
        is_boss=boss,
        effects=effects,
        amulets=amulets,
    )


def npc(nid: str = "npc", hp: int = 10, effects: tuple[ActiveEffect, ...] = ()) -> Combatant:
    return Combatant(id=nid, kind=Kind.NPC, name=nid, hp=hp, max_hp=hp, effects=effects)


def eff(name: str, turns: int | None = 2, magnitude: float = 1.0, permanent: bool = False) -> ActiveEffect:
    return ActiveEffect(name, None if permanent else turns, magnitude, permanent)


class ScriptedRandom(random.Random):
    """random() returns the scripted values in order, then `rest` forever."""

    def __init__(self, values: Iterable[float] = (), rest: float = 0.999) -> None:
        super().__init__(0)
        self.values = list(values)
        self.rest = rest

    def random(self) -> float:
        return self.values.pop(0) if self.values else self.rest


def battle(
    combatants: Sequence[Combatant],
    order: Sequence[str],
    *,
    rules: CombatRules = SURE_HIT,
    rng: random.Random | None = None,
    seed: int = 1,
    version: int = ENGINE_VERSION,
) -> BattleState:
    """A battle with a hand-picked turn order, advanced to the first player's turn."""
    state = BattleState(seed=seed, combatants=tuple(combatants), order=tuple(order), rules=rules,
                        version=version)
    return resolve_enemy_turns(state, rng=rng or ScriptedRandom()).state


def kinds(events: Iterable[object]) -> list[str]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


def ok(result: ActionResult) -> Success:
    """The action must have succeeded; returns the Success for its state and events."""
    assert isinstance(result, Success), result
    return result


def refused(result: ActionResult) -> str:
    assert isinstance(result, Impossible), result
    return result.reason
