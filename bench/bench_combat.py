"""Benchmark: combat turns resolved per CPU second, 4 players vs 6 enemies with many effects.

Issue 19: the engine resolved 11,600 turns per CPU second with effects; the aim is at least twice
today's figure with the same results for the same seeds. Each figure is printed with its
baseline and aim:

- the baseline is the engine before the speed work (commit BASELINE_REF, the same workload),
  extracted from git into a temporary directory and measured in the same run;
- each engine runs in its own worker process (same Python); both play the same battles,
  alternating every `--chunk` battles so a change of machine load hits both alike, `--runs`
  times; CPU time (time.process_time) of the worker, which load from other processes disturbs
  less than wall time (the load average is printed);
- every run checks that both engines produced byte-identical battles (a digest of every event and
  every final state), so the speed-up changes no result.

Figures (turns = `turn_started` events):
- with effects: the battles below (amulets, potions, two on-hit effects per weapon, starting
  effects, an NPC); the aim is 2x the baseline;
- no effects: the same battles with every effect source removed (what the effect system costs);
- server path: with effects, plus what the server does around each engine call (the state from
  JSON, the state and the events to JSON); a fifth of the battles, as JSON dominates it.

Run: python3 dev.py bench combat [--battles N] [--runs R] [--seed S] [--baseline-ref REF]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The engine as it was before the speed work of issue 19 (identical to the integration branch
# at that time); pinned so later merges do not move the baseline.
BASELINE_REF = "740cb91d5a4e50bad866f25724cefd204ade08b4"
ISSUE_FIGURE = 11_600  # turns per CPU second with effects, as issue 19 states it
AIM = 2.0


# --- the workload (runs in a child process, against one engine) ------------------------------


def _effect_setup(engine: Any) -> Any:
    spec = engine.EffectSpec
    potions = (
        engine.Potion("heal", engine.PotionKind.HEALING, heal=15),
        engine.Potion("vigor", engine.PotionKind.EFFECT, effect=spec("vigor", turns=3)),
        engine.Potion("haste", engine.PotionKind.EFFECT, effect=spec("haste", turns=2)),
    )
    # (weapon, its on-hit effects, amulet) per player
    player_gear = [
        (engine.Weapon("sword", 7),
         (spec("bleeding", 2, chance=0.5), spec("weakness", 2, chance=0.3)),
         "resilience"),
        (engine.Weapon("bow", 6, "ranged"),
         (spec("fear", 2, chance=0.4), spec("stun", 1, chance=0.15)),
         "concentration"),
        (engine.Weapon("staff", 5, "magic"),
         (spec("burning", 2, chance=0.5), spec("curse", 3, 0.1, 0.3)),
         "blessing"),
        (engine.Weapon("knives", 4, "throwing"),
         (spec("fragility", 2, chance=0.5), spec("distraction", 2)),
         "fearlessness"),
    ]
    players = tuple(
        engine.Combatant(
            id=f"p{i}", kind="player", name=f"player {i}", hp=60, max_hp=60,
            stats=engine.Stats(strength=2, stamina=4, metabolism=2, luck=3, attentiveness=2),
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
        engine.Combatant(
            id=f"e{i}", kind="enemy", name=f"enemy {i}", hp=45, max_hp=45,
            stats=engine.Stats(strength=1, luck=1), weapons=(engine.Weapon("claw", 5, on_hit=hits),), armor=3,
        )
        for i, hits in enumerate(enemy_hits)
    )
    starting = (
        ("p0", spec("regeneration", 4)),
        ("p1", spec("haste", 3)),
        ("e0", spec("resilience", 3)),
        ("e3", spec("camouflage", 2)),
    )
    npc = engine.Combatant(id="npc", kind="npc", name="peasant", hp=20, max_hp=20)
    return engine.BattleSetup(players, enemies, npc, starting, engine.CombatRules(max_rounds=60))


def _plain(setup: Any) -> Any:
    def strip(c: Any) -> Any:
        return replace(c, amulets=(), weapons=tuple(replace(w, on_hit=()) for w in c.weapons), potions=())

    return replace(
        setup,
        players=tuple(strip(p) for p in setup.players),
        enemies=tuple(strip(e) for e in setup.enemies),
        starting_effects=(),
    )


def _play(engine: Any, setup: Any, seeds: range, *,
          server: bool = False) -> tuple[int, int, float, list[Any]]:
    """One battle per seed, players attacking random valid targets.

    Returns (turns, engine calls, CPU seconds, [events and final state of each battle]); with
    server=True each call also loads the state from JSON and dumps the state and events to JSON.
    """
    AttackAction, TurnStarted = engine.AttackAction, engine.events.TurnStarted
    turns = calls = 0
    finals: list[Any] = []
    started = time.process_time()
    for seed in seeds:
        chooser = random.Random(seed)
        result = engine.start_battle(setup, seed)
        calls += 1
        turns += sum(isinstance(e, TurnStarted) for e in result.events)
        state, log = result.state, list(result.events)
        stored = json.dumps(state.to_dict()) if server else ""
        while not state.over:
            if server:
                state = engine.BattleState.from_dict(json.loads(stored))
            attacks = [a for a in engine.allowed_actions(state) if isinstance(a, AttackAction)]
            step = engine.act(state, chooser.choice(attacks))
            if not isinstance(step, engine.Success):  # an Impossible result, not a wrong type:
                raise RuntimeError(f"the bench policy chose an impossible action: {step.reason}")  # noqa: TRY004
            calls += 1
            turns += sum(isinstance(e, TurnStarted) for e in step.events)
            state = step.state
            log.extend(step.events)
            if server:
                stored = json.dumps(state.to_dict())
                json.dumps([e.to_dict() for e in step.events])
        finals.append((log, state))
    seconds = time.process_time() - started
    return turns, calls, seconds, finals


def _digest(finals: list[Any]) -> str:
    digest = hashlib.sha256()
    for log, state in finals:
        digest.update(json.dumps([e.to_dict() for e in log], sort_keys=True).encode())
        digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def worker(engine_root: str) -> None:
    """Serve measurements of one engine (imported from engine_root): a request per stdin line,
    `FIGURE FIRST_SEED BATTLES`, answered with one JSON line on stdout."""
    sys.path.insert(0, engine_root)
    import combat.engine.events  # noqa: F401
    from combat import engine

    assert Path(engine.__file__).resolve().is_relative_to(Path(engine_root).resolve()), engine.__file__
    rich = _effect_setup(engine)
    setups = {"effects": (rich, False), "plain": (_plain(rich), False), "server": (rich, True)}
    for line in sys.stdin:
        name, first, count = line.split()
        setup, server = setups[name]
        turns, calls, seconds, finals = _play(engine, setup, range(int(first), int(first) + int(count)),
                                              server=server)
        print(json.dumps({"turns": turns, "calls": calls, "cpu": seconds, "digest": _digest(finals)}),
              flush=True)


# --- the driver --------------------------------------------------------------------------------


def _extract_baseline(ref: str, into: Path) -> None:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "combat/__init__.py", "combat/engine"],
        capture_output=True, check=False,
    )
    if found.returncode != 0:
        raise SystemExit(f"cannot read the baseline engine at {ref} from git "
                         f"({found.stderr.decode().strip()}); "
                         "pass --baseline-ref with a commit this checkout has")
    archive = found.stdout
    with tempfile.TemporaryFile() as tar_file:
        tar_file.write(archive)
        tar_file.seek(0)
        with tarfile.open(fileobj=tar_file) as tar:
            tar.extractall(into, filter="data")


class _Engine:
    """A worker process measuring one engine."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(),
        )

    def measure(self, name: str, first: int, count: int) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{name} {first} {count}\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def _measure(engines: dict[str, _Engine], name: str, seeds: range, chunk: int, flip: bool) -> dict[str, Any]:
    """Both engines play the same battles, alternating chunk by chunk (so a change of machine load
    hits both alike); returns each engine's totals."""
    totals = {which: {"turns": 0, "calls": 0, "cpu": 0.0, "digest": ""} for which in engines}
    order = sorted(engines, reverse=flip)
    for first in range(seeds.start, seeds.stop, chunk):
        count = min(chunk, seeds.stop - first)
        for which in order:
            part = engines[which].measure(name, first, count)
            total = totals[which]
            total["turns"] += part["turns"]
            total["calls"] += part["calls"]
            total["cpu"] += part["cpu"]
            total["digest"] = hashlib.sha256((total["digest"] + part["digest"]).encode()).hexdigest()[:16]
        order.reverse()
    return totals


def _rate(figure: dict[str, Any]) -> float:
    return float(figure["turns"] / figure["cpu"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=200, help="battles per measurement (default 200)")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs of both engines (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="first battle seed")
    parser.add_argument("--chunk", type=int, default=10, help="battles per alternation (default 10)")
    parser.add_argument("--baseline-ref", default=BASELINE_REF, help="git commit of the baseline engine")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0

    print(f"combat engine bench: {args.battles} battles x 4 players vs 6 enemies + NPC "
          f"(seeds {args.seed}..{args.seed + args.battles - 1}), {args.runs} runs, CPU time per worker")
    print(f"baseline: the engine at {args.baseline_ref[:12]} (before issue 19), measured in the same run")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    results: dict[str, list[dict[str, Any]]] = {"current": [], "baseline": []}
    same = True
    seeds = range(args.seed, args.seed + args.battles)
    # JSON dominates the server path: a fifth of the battles keeps the run short.
    server_seeds = range(args.seed, args.seed + max(1, args.battles // 5))
    with tempfile.TemporaryDirectory(prefix="bench-combat-baseline-") as tmp:
        _extract_baseline(args.baseline_ref, Path(tmp))
        engines = {"current": _Engine(ROOT), "baseline": _Engine(Path(tmp))}
        try:
            for run in range(args.runs):
                measured: dict[str, dict[str, Any]] = {"current": {}, "baseline": {}}
                cells = []
                for name in ("effects", "plain", "server"):
                    totals = _measure(engines, name, server_seeds if name == "server" else seeds,
                                      args.chunk, flip=run % 2 == 1)
                    for which in engines:
                        measured[which][name] = totals[which]
                    now, then = totals["current"], totals["baseline"]
                    if (now["digest"], now["turns"]) != (then["digest"], then["turns"]):
                        same = False
                    cells.append(f"{name} {_rate(now):>9,.0f} vs {_rate(then):>9,.0f} "
                                 f"({_rate(now) / _rate(then):.2f}x)")
                for which in engines:
                    results[which].append(measured[which])
                print(f"run {run + 1}: " + " | ".join(cells), flush=True)
        finally:
            for engine in engines.values():
                engine.close()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    labels = {"effects": "with effects", "plain": "no effects", "server": "server path (JSON state)"}
    print("medians over the runs; ratio = median of the runs' ratios; aim = 2x the baseline; "
          "met = ratio >= 2")
    print(f"{'figure (turns per CPU second)':<40} {'now':>10} {'baseline':>10} {'ratio':>7} "
          f"{'aim':>10}  met")
    for name, label in labels.items():
        now = statistics.median(_rate(r[name]) for r in results["current"])
        then = statistics.median(_rate(r[name]) for r in results["baseline"])
        ratio = statistics.median(_rate(a[name]) / _rate(b[name])
                                  for a, b in zip(results["current"], results["baseline"]))
        if name == "effects":
            aim = f"{AIM * then:>10,.0f}"
            met = "yes" if ratio >= AIM else "NO"
        else:
            aim, met = f"{'-':>10}", "-"
        print(f"{label:<40} {now:>10,.0f} {then:>10,.0f} {ratio:>6.2f}x {aim}  {met}")
    effects_now = statistics.median(_rate(r["effects"]) for r in results["current"])
    print(f"{'with effects vs the issue figure':<40} {effects_now:>10,.0f} {ISSUE_FIGURE:>10,} "
          f"{effects_now / ISSUE_FIGURE:>6.2f}x {AIM * ISSUE_FIGURE:>10,.0f}  "
          f"{'yes' if effects_now >= AIM * ISSUE_FIGURE else 'NO'}")
    first = results["current"][0]
    print(f"turns per measurement: {first['effects']['turns']} with effects "
          f"({first['effects']['calls']} engine calls), {first['plain']['turns']} without")
    print("same results as the baseline (events and final states of every battle): "
          f"{'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
