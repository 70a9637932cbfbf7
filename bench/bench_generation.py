"""Benchmark of dungeon generation: engine throughput per core and generate-and-persist on PostgreSQL.

Run: .venv/bin/python bench/bench_generation.py [--seconds 2] [--persist-runs 300] [--no-db]
Every figure is printed next to a baseline measured in the same run, as a ratio.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/deepdelve_bench"

PARTIES = {
    "small (N=1, R=0, C=0)": {"n": 1, "rank": 0.0, "completed": 0.0},
    "large (N=8, R=12, C=120)": {"n": 8, "rank": 12.0, "completed": 120.0},
}


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls per second of ``fn(i)``, run for about ``seconds`` after a short warm-up."""
    for i in range(200):
        fn(i)
    done, started = 0, time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(200):
            fn(done)
            done += 1
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - started)


def bench_engine(seconds: float) -> None:
    from dungeons.generation import GenerationParams, generate_dungeon

    params = GenerationParams()
    print(f"Engine throughput, one core, {seconds:g}s per figure (ordinary dungeons, same-guild parties)")
    print(f"  {'party':<26} {'dungeons/s':>11} {'rooms':>6} {'baseline /s':>17} {'ratio':>7}")
    for name, party in PARTIES.items():
        sample = generate_dungeon(kind="ordinary", same_guild=True, params=params, rng=random.Random(0), **party)
        # Baseline: a trivial loop drawing as many random numbers as one dungeon has rooms and floors
        # (about what the engine draws), from one Random(seed) per "dungeon" as the engine starts.
        draws = sample.room_total + 2 * len(sample.floors) + 3

        def baseline(i: int, draws: int = draws) -> None:
            rng = random.Random(i)
            for _ in range(draws):
                rng.random()

        def generate(i: int, party: dict = party) -> None:
            generate_dungeon(kind="ordinary", same_guild=True, params=params, rng=random.Random(i), **party)

        generated = rate(generate, seconds)
        base = rate(baseline, seconds)
        print(f"  {name:<26} {generated:>11,.0f} {sample.room_total:>6} {base:>17,.0f} {base / generated:>6.1f}x")
    print("  ratio = how many times longer one dungeon takes than the baseline's bare draws")


def ensure_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[1].split("?")[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def bench_persist(url: str, runs: int) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DB_POOL"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    ensure_database(url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from dungeons.models import Dungeon
    from dungeons.services import dungeon_generate

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_trivial_row (id bigserial PRIMARY KEY, value integer)")

    @transaction.atomic
    def trivial(i: int) -> None:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_trivial_row (value) VALUES (%s)", [i])

    def persist(i: int, party: dict) -> None:
        dungeon_generate(kind="ordinary", party_size=party["n"], rank=party["rank"], completed=party["completed"],
                         same_guild=True, seed=i)

    print(f"\nGenerate and persist one dungeon on PostgreSQL ({url.rsplit('/', 1)[1]}), median of {runs} runs")
    print(f"  {'party':<26} {'ms':>8} {'rows':>5} {'baseline ms':>12} {'ratio':>7}")
    try:
        for name, party in PARTIES.items():
            times: dict[str, list[float]] = {"persist": [], "trivial": []}
            for i in range(runs + 20):  # interleaved so both see the same server state; 20 warm-up runs
                for label, fn in (("persist", lambda i=i: persist(i, party)), ("trivial", lambda i=i: trivial(i))):
                    started = time.perf_counter()
                    fn()
                    if i >= 20:
                        times[label].append(time.perf_counter() - started)
            rows = 1 + Dungeon.objects.order_by("-id").first().rooms.count()
            ms = statistics.median(times["persist"]) * 1000
            base = statistics.median(times["trivial"]) * 1000
            print(f"  {name:<26} {ms:>8.3f} {rows:>5} {base:>12.3f} {ms / base:>6.1f}x")
        print("  baseline = one trivial INSERT in its own transaction.atomic() block")
    finally:
        Dungeon.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_trivial_row")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time per engine figure")
    parser.add_argument("--persist-runs", type=int, default=300, help="runs per PostgreSQL figure")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--no-db", action="store_true", help="skip the PostgreSQL part")
    args = parser.parse_args(argv)
    bench_engine(args.seconds)
    if not args.no_db:
        bench_persist(args.database_url, args.persist_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
