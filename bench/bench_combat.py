"""Benchmark: battle turns resolved per second, 4 players vs 6 enemies with many effects.

Baselines measured in the same run:
- the same battle with every effect source removed (no amulets, starting effects or on-hit
  effects), so the ratio shows what the effect system costs;
- a bare loop that only makes the engine's random draws (one derived random.Random per engine
  call and as many random() calls as the effect battles made), the floor any engine pays.
Run: .venv/bin/python bench/bench_combat.py [--battles N] [--seed S]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from combat.engine import (  # noqa: E402
    AttackAction,
    BattleSetup,
    BattleState,
    Combatant,
    CombatRules,
    EffectSpec,
    Potion,
    PotionKind,
    Stats,
    Success,
    Weapon,
    act,
    allowed_actions,
    start_battle,
)
from combat.engine import events as E  # noqa: E402


def _effect_setup() -> BattleSetup:
    spec = EffectSpec
    potions = (
        Potion("heal", PotionKind.HEALING, heal=15),
        Potion("vigor", PotionKind.EFFECT, effect=spec("vigor", turns=3)),
        Potion("haste", PotionKind.EFFECT, effect=spec("haste", turns=2)),
    )
    # (weapon, its on-hit effects, amulet) per player
    player_gear = [
        (Weapon("sword", 7),
         (spec("bleeding", 2, chance=0.5), spec("weakness", 2, chance=0.3)),
         "resilience"),
        (Weapon("bow", 6, "ranged"),
         (spec("fear", 2, chance=0.4), spec("stun", 1, chance=0.15)),
         "concentration"),
        (Weapon("staff", 5, "magic"),
         (spec("burning", 2, chance=0.5), spec("curse", 3, 0.1, 0.3)),
         "blessing"),
        (Weapon("knives", 4, "throwing"),
         (spec("fragility", 2, chance=0.5), spec("distraction", 2)),
         "fearlessness"),
    ]
    players = tuple(
        Combatant(
            id=f"p{i}", kind="player", name=f"player {i}", hp=60, max_hp=60,  # type: ignore[arg-type]
            stats=Stats(strength=2, stamina=4, metabolism=2, luck=3, attentiveness=2),
            weapons=(replace(weapon, on_hit=hits),), armor=4, potions=potions, amulets=(spec(amulet),),
        )
        for i, (weapon, hits, amulet) in enumerate(player_gear)
    )
    enemy_hits = [
        (spec("frostbite", 2, chance=0.4), spec("fear", 2, chance=0.3)),
        (spec("bleeding", 3, chance=0.4), spec("distraction", 2, chance=0.3)),
        (spec("stun", 1, chance=0.1), spec("fragility", 2, chance=0.4)),
        (spec("curse", 2, 0.05, 0.2), spec("weakness", 2, chance=0.4)),
        (spec("burning", 2, chance=0.4), spec("provocation", 1, chance=0.1)),
        (spec("camouflage", 1, chance=0.2), spec("vigor", 2, chance=0.2)),
    ]
    enemies = tuple(
        Combatant(
            id=f"e{i}", kind="enemy", name=f"enemy {i}", hp=45, max_hp=45,  # type: ignore[arg-type]
            stats=Stats(strength=1, luck=1), weapons=(Weapon("claw", 5, on_hit=hits),), armor=3,
        )
        for i, hits in enumerate(enemy_hits)
    )
    starting = (
        ("p0", spec("regeneration", 4)),
        ("p1", spec("haste", 3)),
        ("e0", spec("resilience", 3)),
        ("e3", spec("camouflage", 2)),
    )
    npc = Combatant(id="npc", kind="npc", name="peasant", hp=20, max_hp=20)  # type: ignore[arg-type]
    return BattleSetup(players, enemies, npc, starting, CombatRules(max_rounds=60))


def _plain(setup: BattleSetup) -> BattleSetup:
    def strip(c: Combatant) -> Combatant:
        return replace(c, amulets=(), weapons=tuple(replace(w, on_hit=()) for w in c.weapons), potions=())

    return replace(
        setup,
        players=tuple(strip(p) for p in setup.players),
        enemies=tuple(strip(e) for e in setup.enemies),
        starting_effects=(),
    )


class _CountingRandom(random.Random):
    draws = 0

    def random(self) -> float:
        _CountingRandom.draws += 1
        return super().random()


def _policy(state: BattleState, chooser: random.Random) -> AttackAction:
    attacks = [a for a in allowed_actions(state) if isinstance(a, AttackAction)]
    return chooser.choice(attacks)


def _play(setup: BattleSetup, seeds: range, counting: bool = False) -> tuple[int, int, float]:
    """Play one battle per seed; returns (turns resolved, engine calls, seconds)."""
    turns = calls = 0
    started = time.perf_counter()
    for seed in seeds:
        chooser = random.Random(seed)
        rng = _CountingRandom(f"deepdelve-combat/{seed}/0") if counting else None
        result = start_battle(setup, seed, rng=rng)
        calls += 1
        turns += sum(isinstance(e, E.TurnStarted) for e in result.events)
        state = result.state
        while not state.over:
            rng = _CountingRandom(f"deepdelve-combat/{seed}/{state.step}") if counting else None
            step = act(state, _policy(state, chooser), rng=rng)
            if not isinstance(step, Success):
                raise RuntimeError(f"the bench policy chose an impossible action: {step.reason}")
            calls += 1
            turns += sum(isinstance(e, E.TurnStarted) for e in step.events)
            state = step.state
    return turns, calls, time.perf_counter() - started


def _bare(seeds: range, calls_per_battle: float, draws: int) -> float:
    started = time.perf_counter()
    per_call = max(1, round(draws / max(1, calls_per_battle * len(seeds))))
    for seed in seeds:
        for step in range(round(calls_per_battle)):
            rng = random.Random(f"deepdelve-combat/{seed}/{step}")
            for _ in range(per_call):
                rng.random()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--battles", type=int, default=200, help="battles per measurement (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first battle seed")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.battles)
    rich = _effect_setup()

    _CountingRandom.draws = 0
    _play(rich, seeds, counting=True)
    draws = _CountingRandom.draws

    turns, calls, seconds = _play(rich, seeds)
    plain_turns, _, plain_seconds = _play(_plain(rich), seeds)
    bare_seconds = _bare(seeds, calls / len(seeds), draws)

    rate = turns / seconds
    plain_rate = plain_turns / plain_seconds
    bare_rate = turns / bare_seconds
    print(f"battles: {args.battles} x 4 players vs 6 enemies + NPC (seeds {seeds.start}..{seeds.stop - 1})")
    print(f"with effects:  {turns:>7} turns {seconds:7.3f} s  {rate:>10,.0f} turns/s  ({calls} engine calls)")
    print(f"no effects:    {plain_turns:>7} turns {plain_seconds:7.3f} s  {plain_rate:>10,.0f} turns/s")
    print(
        f"bare rng loop: {turns:>7} turns {bare_seconds:7.3f} s  {bare_rate:>10,.0f} turns/s"
        f"  ({draws} draws)"
    )
    print(f"ratio effects / no effects (per turn speed): {rate / plain_rate:.2f}")
    print(f"ratio effects / bare rng loop (per turn speed): {rate / bare_rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
