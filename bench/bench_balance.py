"""Benchmark of the balancing lab: whole simulated runs of a party of 4 per CPU second (SPEC 17: at least
100), with the combat engine's turns per CPU second beside it.

The data is the shipped defaults: a throwaway test database is migrated (the data migrations load the
bestiary, the catalog and the settings rows) and read once by ``balance_data_load``; then the simulator
runs in memory only. Figures (CPU time of this process, ``time.process_time``):

- runs per CPU second, party of 4 new players, first ordinary dungeon, for each policy, and the aim;
- the simulator's battle turns per CPU second (turn_started events of its battles, over its whole time:
  generation, rooms and the policies included);
- beside them, the baseline measured in the same run: the bare combat engine's turns per CPU second on
  bench_combat's workload (4 players against 6 enemies with many effects), so the ratio says how much of
  a simulated run is the combat engine's own work.

Run: python3 dev.py bench balance [--runs N] [--seed S]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402

AIM_RUNS_PER_CPU_SECOND = 100


def measure(runs: int, seed: int) -> None:
    from balance.data import balance_data_load
    from balance.engine import POLICIES, LabInputs, simulate
    from bench.bench_combat import _effect_setup, _play
    from combat import engine

    data = balance_data_load()
    print(f"balancing lab: {runs} whole runs of a party of 4 new players (ordinary, first dungeon), "
          f"seed {seed}")
    for name in sorted(POLICIES):
        inputs = LabInputs(party=4, policy=name, runs=runs, seed=seed)
        started = time.process_time()
        report = simulate(data, inputs, POLICIES)
        seconds = time.process_time() - started
        rate = runs / seconds
        turns = report.battle_turns_per_run * runs / seconds
        verdict = "met" if rate >= AIM_RUNS_PER_CPU_SECOND else "MISSED"
        print(f"  {name:<11} {rate:8.1f} runs/CPU-s (aim {AIM_RUNS_PER_CPU_SECOND}: {verdict}); "
              f"{report.rooms_per_run:5.1f} rooms, {report.battle_turns_per_run:6.1f} battle turns per run; "
              f"{turns:9.0f} battle turns/CPU-s inside the simulator")
    battles = 300
    turns, _, seconds, _ = _play(engine, _effect_setup(engine), range(seed, seed + battles))
    print(f"  combat engine alone (bench_combat's battles with effects, {battles} battles): "
          f"{turns / seconds:9.0f} turns/CPU-s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        measure(args.runs, args.seed)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
