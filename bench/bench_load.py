"""Load benchmark: the whole server under gunicorn on PostgreSQL and Redis, driven by a mixed load of
guild browsing, lobby and battle actions from concurrent clients on 127.0.0.1, next to a bare
Django view measured in the same run.

    python3 dev.py bench load                    # seeds what is missing, then ~3 minutes of load
    python3 dev.py bench load --clients 8,16,32 --seconds 30

What it does:
1. Database ``deepdelve_load`` (``--database-url``): cloned from the guild bench's seeded
   ``deepdelve_bench`` when that exists, else seeded the same way (100,000 guilds, 5,000,000
   ledger rows, activity computed); then players who play (each in a guild, with a little gear),
   open lobbies and runs left in an ongoing battle, made through the real services. Re-runs
   only top up what is missing (see bench/load_seed.py).
2. Redis databases 12 (cache: throttle counters) and 13 (Celery broker) are emptied and used by
   the server; the auth throttle is raised so token refreshes are counted in Redis, not refused.
3. gunicorn (gthread, ``--workers`` x ``--threads``, DEBUG off, the psycopg pool) serves the real
   URL map plus ``/bench/baseline/`` (bench/bench_urls.py: JWT authentication and a tiny JSON
   answer, no other query).
4. For each client count: ``--rounds`` rounds of [baseline alone, mixed load], each window
   ``--seconds / --rounds`` long after ``--warmup`` unmeasured seconds, so that bursts of other
   load on a shared machine hit both alike. Each client is a party of two players on one
   keep-alive connection (bench/load_clients.py says what they do and how often).
5. Prints per endpoint: requests, req/s, p50, p99, their ratio to the baseline's, refusals (409:
   a game rule refused, e.g. ``stale_turn`` after a deliberate double tap) and errors (any other
   non-2xx or a transport error); and where the CPU went during the windows.

No thresholds: it reports. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._http import (  # noqa: E402
    LoadResult,
    free_port,
    get,
    merge,
    percentile,
    run_load,
    wait_until_serving,
)
from bench.load_clients import Actor, InProcessConnection, Party, Sample, run_window  # noqa: E402
from bench.load_cpu import CpuShare, snapshot  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepdelve_load"
DEFAULT_REDIS = "redis://127.0.0.1:6379"
BASELINE_PATH = "/bench/baseline/"
BASELINE_LABEL = "baseline: GET /bench/baseline/ (alone)"
CLIENT_ERROR_LOG = re.compile(
    r"^(Bad Request|Unauthorized|Forbidden|Not Found|Conflict|Too Many Requests): /")


def configure_environment(database_url: str, redis: str, cache_db: int, broker_db: int) -> None:
    from bench.bench_guilds import _configure_environment

    _configure_environment(database_url)  # DEBUG off, SECRET_KEY, the pool, bench settings for Django
    os.environ["REDIS_URL"] = f"{redis}/{cache_db}"
    os.environ["CELERY_BROKER_URL"] = f"{redis}/{broker_db}"
    # Token refreshes come from one address (127.0.0.1): count them in Redis, never refuse them.
    os.environ["THROTTLE_AUTH"] = "1000000/minute"
    os.environ["JWT_ACCESS_MINUTES"] = "240"


# --- the server ---------------------------------------------------------------------------------------

@contextmanager
def gunicorn(*, workers: int, threads: int, log_dir: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.bench_settings", PYTHONPATH=str(ROOT))
    log = (log_dir / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "backend.wsgi:application", "--chdir", str(ROOT),
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", "gthread",
         "--threads", str(threads), "--keep-alive", "60", "--graceful-timeout", "5", "--timeout", "120",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        wait_until_serving(port, BASELINE_PATH, timeout=90, alive=lambda: process.poll() is None)
        yield port, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        log.close()


def database_backend_pids(database_url: str) -> list[int]:
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    with psycopg.connect(f"postgresql://{parts.netloc}/{name}", autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                            [name]).fetchall()
    return [int(r[0]) for r in rows]


# --- figures ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    label: str
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    refused: int
    errors: int


def row_of(label: str, samples: list[Sample], seconds: float) -> Row:
    latencies = sorted(s.seconds for s in samples)
    refused = sum(1 for s in samples if s.status == 409)
    errors = sum(1 for s in samples if not (200 <= s.status < 300) and s.status != 409)
    return Row(label, len(samples), len(samples) / seconds if seconds else 0.0,
               percentile(latencies, 0.50) * 1000, percentile(latencies, 0.99) * 1000, refused, errors)


def baseline_row(result: LoadResult) -> Row:
    return Row(BASELINE_LABEL, result.requests, result.rps, result.p50_ms, result.p99_ms, 0, result.errors)


ENDPOINT_ORDER = [
    "GET guilds/ first page", "GET guilds/ next page (cursor)", "GET guilds/?search=", "GET guilds/{id}/",
    "GET me/", "POST auth/token/refresh/", "GET runs/lobbies/", "POST runs/ (open lobby)",
    "POST runs/{id}/join/", "GET runs/{id}/offer/", "POST runs/{id}/weapon/", "POST runs/{id}/start/",
    "GET runs/{id}/", "POST runs/{id}/advance/", "POST runs/{id}/loot/{loot}/take/", "POST runs/{id}/escape/",
    "GET battles/{id}/", "POST battles/{id}/actions/", "POST battles/{id}/actions/ retry, same key",
    "POST battles/{id}/actions/ double tap, new key",
]


@dataclass
class Level:
    clients: int
    baseline: LoadResult
    samples: list[Sample]
    mixed_seconds: float
    cpu_mixed: CpuShare
    cpu_baseline: CpuShare
    rounds_baseline: list[float]
    rounds_mixed: list[float]

    def rows(self) -> list[Row]:
        by_label: dict[str, list[Sample]] = defaultdict(list)
        for sample in self.samples:
            by_label[sample.label].append(sample)
        order = ENDPOINT_ORDER + sorted(set(by_label) - set(ENDPOINT_ORDER))
        rows = [row_of(label, by_label[label], self.mixed_seconds) for label in order if by_label.get(label)]
        return rows

    def total(self) -> Row:
        return row_of("mixed load: every request", self.samples, self.mixed_seconds)


def print_level(level: Level) -> None:
    base = baseline_row(level.baseline)
    header = (f"{'endpoint':<48}{'requests':>9}{'req/s':>9}{'p50 ms':>8}{'p99 ms':>8}{'p50/base':>9}"
              f"{'p99/base':>9}{'refused':>8}{'errors':>7}")
    print(f"\n{level.clients} clients: baseline alone vs the mixed load ({level.mixed_seconds:.0f} s "
          "measured each, interleaved)")
    print(header)
    print("-" * len(header))

    def show(row: Row, indent: str = "") -> None:
        print(f"{indent + row.label:<48}{row.requests:>9}{row.rps:>9.1f}{row.p50_ms:>8.1f}{row.p99_ms:>8.1f}"
              f"{row.p50_ms / base.p50_ms:>8.2f}x{row.p99_ms / base.p99_ms:>8.2f}x"
              f"{row.refused:>8}{row.errors:>7}")

    show(base)
    total = level.total()
    show(total)
    for row in level.rows():
        show(row, "  ")
    print(f"mixed throughput / baseline throughput: {total.rps / base.rps:.2f}x; req/s per round: baseline "
          + " ".join(f"{r:.0f}" for r in level.rounds_baseline) + ", mixed "
          + " ".join(f"{r:.0f}" for r in level.rounds_mixed)
          + " (the spread is the noise of a shared machine)")
    orderings: dict[str, list[Sample]] = defaultdict(list)
    for sample in level.samples:
        if sample.label == "GET guilds/ first page":
            orderings[sample.variant].append(sample)
    if orderings:
        parts = []
        for ordering in sorted(orderings):
            row = row_of(ordering, orderings[ordering], level.mixed_seconds)
            parts.append(f"{ordering} {row.p50_ms:.1f}/{row.p99_ms:.1f}")
        print("guild list first page by ordering, p50/p99 ms: " + ", ".join(parts))
    refusals = Counter((s.label, s.code) for s in level.samples if s.status == 409)
    if refusals:
        print("refusals (409): " + "; ".join(f"{label}: {code} x{n}"
                                             for (label, code), n in refusals.most_common()))
    errors = Counter((s.label, s.status, s.code) for s in level.samples
                     if not (200 <= s.status < 300) and s.status != 409)
    if errors:
        print("ERRORS: " + "; ".join(f"{label}: {status} {code} x{n}"
                                      for (label, status, code), n in errors.most_common()))
    retries = [s for s in level.samples if s.label == "POST battles/{id}/actions/ retry, same key"]
    if retries:
        replayed = sum(1 for s in retries if s.variant == "replayed")
        print(f"retries with the same idempotency key answered with the original (replayed: true): "
              f"{replayed} of {len(retries)}")
    if level.baseline.errors:
        print(f"ERRORS in the baseline: {level.baseline.statuses}")
    print("mixed windows:    " + level.cpu_mixed.line())
    print("baseline windows: " + level.cpu_baseline.line())
    mixed_app, mixed_db = level.cpu_mixed.per_request(total.rps)
    base_app, base_db = level.cpu_baseline.per_request(base.rps)
    ratio = (mixed_app + mixed_db) / (base_app + base_db)
    print(f"CPU per request: mixed {mixed_app:.1f} ms gunicorn + {mixed_db:.1f} ms PostgreSQL, baseline "
          f"{base_app:.1f} + {base_db:.1f} ms: the mix costs {ratio:.1f}x the baseline (steadier than req/s "
          "on a shared machine)")


def markdown(levels: list[Level]) -> str:
    """One table for the docs: every endpoint at every client count."""
    head = "| endpoint | " + " | ".join(f"{lv.clients} cl. req/s | p50 ms | p99 ms | p50/base | 409 | err"
                                       for lv in levels) + " |"
    lines = [head, "|---" * (1 + 6 * len(levels)) + "|"]
    labels: list[str] = [BASELINE_LABEL, "mixed load: every request"]
    for level in levels:
        labels += [r.label for r in level.rows() if r.label not in labels]
    for label in labels:
        cells = []
        for level in levels:
            base = baseline_row(level.baseline)
            rows = {r.label: r for r in [base, level.total(), *level.rows()]}
            row = rows.get(label)
            if row is None:
                cells.append("| | | | | ")
                continue
            cells.append(f"{row.rps:.1f} | {row.p50_ms:.1f} | {row.p99_ms:.1f} | "
                         f"{row.p50_ms / base.p50_ms:.2f}x | {row.refused} | {row.errors}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- the run ------------------------------------------------------------------------------------------

def seed(args: argparse.Namespace, max_clients: int) -> list[tuple[int, int]]:
    from django.core.management import call_command
    from django.db import connection

    from bench import load_seed

    call_command("migrate", verbosity=0)
    load_seed.ensure_guilds(guilds=args.guilds, days=args.days)
    have_lobbies, have_battles = load_seed.background_counts()
    load_seed.ensure_actors(base=args.players,
                            free_pairs_needed=max_clients + 1 + max(0, args.lobbies - have_lobbies)
                            + 2 * max(0, args.battles - have_battles))
    load_seed.ensure_background(lobbies=args.lobbies, battles=args.battles, reserve_pairs=max_clients + 1)
    pairs = load_seed.free_pairs(max_clients + 1)  # one more for the in-process pass
    if len(pairs) < max_clients + 1:
        raise SystemExit(f"only {len(pairs)} free player pairs for {max_clients} clients")
    summary = load_seed.database_summary()
    print("database: " + ", ".join(f"{k} {v:,}" for k, v in summary.items()), flush=True)
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE dungeons_run")
        cur.execute("VACUUM ANALYZE dungeons_runmember")
        cur.execute("VACUUM ANALYZE combat_battle")
    return pairs


def measure(args: argparse.Namespace, pairs: list[tuple[int, int]], levels_wanted: list[int]) -> list[Level]:
    from bench import load_seed

    tokens = load_seed.tokens_for([pk for pair in pairs for pk in pair])
    from django.db import connection

    connection.close()  # the server must not wait on this process's connection
    log_dir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    levels: list[Level] = []
    try:
        with gunicorn(workers=args.workers, threads=args.threads, log_dir=log_dir) as (port, process):
            parties = [Party(index=i, port=port, host=Actor(a, *tokens[a]), mate=Actor(b, *tokens[b]),
                             seed=args.seed * 1000 + i) for i, (a, b) in enumerate(pairs)]
            headers = {"Authorization": f"Bearer {parties[0].host.access}", "Accept": "application/json"}
            for path in (BASELINE_PATH, "/api/v1/me/", "/api/v1/guilds/?ordering=-activity"):
                status, body = get(port, path, headers)
                assert status == 200, (path, status, body[:300])
            print(f"server: gunicorn gthread {args.workers} workers x {args.threads} threads on "
                  f"127.0.0.1:{port}, DEBUG off, cache {os.environ['REDIS_URL']}, broker "
                  f"{os.environ['CELERY_BROKER_URL']}", flush=True)
            window = args.seconds / args.rounds
            if args.server_warmup > 0:
                # Each gunicorn process pays its first use of every code path once (lazy imports, the
                # Redis client, the pool filling up): keep that out of the figures.
                got, _ = run_window(parties[:max(levels_wanted)], seconds=args.server_warmup, warmup=0)
                run_load(label="warm-up", port=port, path=BASELINE_PATH, headers=headers,
                         connections=max(levels_wanted), seconds=1, warmup=0)
                print(f"server warm-up: {args.server_warmup:.0f} s of the mixed load ({len(got)} requests, "
                      "not counted)", flush=True)
            for clients in levels_wanted:
                active = parties[:clients]
                baselines: list[LoadResult] = []
                samples: list[Sample] = []
                rounds_mixed: list[float] = []
                cpu_mixed, cpu_base = CpuShare(), CpuShare()
                print(f"{clients} clients: {args.rounds} rounds of {window:.1f} s baseline + {window:.1f} s "
                      f"mixed (+{args.warmup:.1f} s warm-up each); load average {os.getloadavg()[0]:.2f}",
                      flush=True)
                for round_ in range(args.rounds):
                    pids = database_backend_pids(args.database_url)
                    before = snapshot(process.pid, pids)
                    started = time.perf_counter()
                    result = run_load(label=BASELINE_LABEL, port=port, path=BASELINE_PATH, headers=headers,
                                      connections=clients, seconds=window, warmup=args.warmup)
                    cpu_base.add(before, snapshot(process.pid, pids), time.perf_counter() - started)
                    baselines.append(result)
                    pids = database_backend_pids(args.database_url)
                    before = snapshot(process.pid, pids)
                    started = time.perf_counter()
                    got, _ = run_window(active, seconds=window, warmup=args.warmup)
                    cpu_mixed.add(before, snapshot(process.pid, pids), time.perf_counter() - started)
                    samples += got
                    rounds_mixed.append(len(got) / window)
                    bad = sum(1 for s in got if not (200 <= s.status < 300) and s.status != 409)
                    print(f"  round {round_ + 1}: baseline {result.rps:7.1f} req/s "
                          f"(p50 {result.p50_ms:.1f} ms); "
                          f"mixed {len(got) / window:7.1f} req/s, {bad} errors; load average "
                          f"{os.getloadavg()[0]:.2f}", flush=True)
                levels.append(Level(clients, merge(baselines), samples, window * args.rounds, cpu_mixed,
                                    cpu_base, [b.rps for b in baselines], rounds_mixed))
            for party in parties:
                party.http.close()
    except BaseException:
        log = (log_dir / "gunicorn.log").read_text(errors="replace")
        print("gunicorn log (tail):\n" + "\n".join(log.splitlines()[-60:]), file=sys.stderr)
        raise
    else:
        lines = (log_dir / "gunicorn.log").read_text(errors="replace").splitlines()
        # Django logs every 4xx as a warning ("Conflict: /api/v1/..."); those are counted above.
        other = [line for line in lines if not CLIENT_ERROR_LOG.match(line)]
        print(f"gunicorn log: {len(lines) - len(other)} 4xx warnings (counted in the figures), "
              f"{len(other)} other lines" + (":\n" + "\n".join(other[-30:]) if other else ""))
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)
    return levels


@dataclass(frozen=True)
class Cost:
    label: str
    requests: int
    wall_ms: float
    cpu_ms: float
    queries: str


@dataclass(frozen=True)
class Costs:
    rows: list[Cost]
    baseline: Cost
    mean_wall_ms: float
    mean_cpu_ms: float


def in_process_costs(pair: tuple[int, int], ticks: int, seed: int) -> Costs:
    """One party played through Django's test client in this process, after the server stopped:
    what each request costs alone: median wall and CPU milliseconds of this (Django) process, and
    SQL queries. CPU time hardly moves with other load on the machine; wall time does."""
    import logging
    import statistics

    from bench import load_seed

    logging.getLogger("django.request").setLevel(logging.ERROR)  # 409s are expected; counted, not logged
    tokens = load_seed.tokens_for(list(pair))
    party = Party(index=-1, port=0, host=Actor(pair[0], *tokens[pair[0]]),
                  mate=Actor(pair[1], *tokens[pair[1]]), seed=seed, in_process=True)
    for _ in range(ticks):
        party.tick()
    conn = party.http
    assert isinstance(conn, InProcessConnection)
    by_label: dict[str, list[tuple[float, float, int]]] = defaultdict(list)
    first: set[str] = set()
    for sample, cpu, count in zip(party.samples, conn.cpu, conn.queries):
        if sample.label not in first:  # the first of each kind pays this process's lazy imports
            first.add(sample.label)
            continue
        if 200 <= sample.status < 300:
            by_label[sample.label].append((sample.seconds, cpu, count))
    order = ENDPOINT_ORDER + sorted(set(by_label) - set(ENDPOINT_ORDER))
    rows = []
    for label in order:
        found = by_label.get(label)
        if not found:
            continue
        counts = sorted(c for _, _, c in found)
        spread = str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]}-{counts[-1]}"
        rows.append(Cost(label, len(found), statistics.median(w for w, _, _ in found) * 1000,
                         statistics.median(c for _, c, _ in found) * 1000, spread))
    n = max(1, len(party.samples))
    return Costs(rows, _baseline_in_process(tokens[pair[0]][0]),
                 sum(s.seconds for s in party.samples) / n * 1000, sum(conn.cpu) / n * 1000)


def _baseline_in_process(token: str, requests: int = 300) -> Cost:
    import statistics

    from django.test import Client, override_settings

    client = Client(headers={"Authorization": f"Bearer {token}"})
    wall, cpu = [], []
    with override_settings(ROOT_URLCONF="bench.bench_urls"):
        for _ in range(requests):
            started, started_cpu = time.perf_counter(), time.process_time()
            assert client.get(BASELINE_PATH).status_code == 200
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
    return Cost(BASELINE_LABEL, requests, statistics.median(wall) * 1000, statistics.median(cpu) * 1000, "1")


def print_costs(costs: Costs) -> None:
    base = costs.baseline
    print("\none request in-process (Django test client, 1 thread, no HTTP; successful answers, the first "
          "of each kind left out; CPU = this process, PostgreSQL not included):")
    print(f"{'endpoint':<48}{'requests':>9}{'wall ms':>9}{'CPU ms':>8}{'CPU x base':>11}{'SQL':>7}")
    for cost in [base, *costs.rows]:
        indent = "" if cost is base else "  "
        print(f"{indent + cost.label:<48}{cost.requests:>9}{cost.wall_ms:>9.1f}{cost.cpu_ms:>8.1f}"
              f"{cost.cpu_ms / base.cpu_ms:>10.1f}x{cost.queries:>7}")
    print(f"the mix, every answer (refusals too): {costs.mean_wall_ms:.1f} ms wall, {costs.mean_cpu_ms:.1f} "
          f"ms CPU a request on average; the baseline {base.wall_ms:.1f} / {base.cpu_ms:.1f} ms")


def redis_report(args: argparse.Namespace) -> str:
    import redis

    cache = redis.Redis.from_url(f"{args.redis}/{args.cache_db}")
    broker = redis.Redis.from_url(f"{args.redis}/{args.broker_db}")
    try:
        return (f"Redis after the load: cache db {args.cache_db} holds {cache.dbsize()} keys (throttle "
                f"counters); broker db {args.broker_db} holds {broker.dbsize()} keys, "
                f"{broker.llen('celery')} tasks queued (no worker runs during the benchmark)")
    finally:
        cache.close()
        broker.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url",
                        default=os.environ.get("BENCH_LOAD_DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--redis", default=os.environ.get("BENCH_LOAD_REDIS", DEFAULT_REDIS),
                        help="Redis server URL without a database number")
    parser.add_argument("--cache-db", type=int, default=12, help="Redis database of the cache (emptied)")
    parser.add_argument("--broker-db", type=int, default=13,
                        help="Redis database of the Celery broker (emptied)")
    parser.add_argument("--clients", default="16,32", help="comma-separated concurrent clients (parties)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measured seconds per phase and client count")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds the seconds are split into")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each window")
    parser.add_argument("--server-warmup", type=float, default=8.0,
                        help="unmeasured seconds of mixed load once the server is up")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--guilds", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=50, help="ledger days per guild")
    parser.add_argument("--players", type=int, default=2_000, help="players who play (at least)")
    parser.add_argument("--lobbies", type=int, default=200, help="open lobbies kept in the database")
    parser.add_argument("--battles", type=int, default=300, help="ongoing battles kept in the database")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--in-process-ticks", type=int, default=800,
                        help="requests of the in-process cost pass after the load (0: skip it)")
    args = parser.parse_args(argv)
    levels_wanted = [int(c) for c in args.clients.split(",") if c.strip()]
    if not levels_wanted or args.rounds < 1 or args.seconds <= 0:
        parser.error("need at least one client count, one round and some seconds")
    if not (12 <= args.cache_db <= 14 and 12 <= args.broker_db <= 14):
        print("note: Redis databases outside 12-14 may belong to others; they are emptied", file=sys.stderr)

    started = time.perf_counter()
    from bench import load_seed

    print(load_seed.ensure_database(args.database_url, guilds=args.guilds, days=args.days), flush=True)
    configure_environment(args.database_url, args.redis, args.cache_db, args.broker_db)
    load_seed.redis_flush([f"{args.redis}/{args.cache_db}", f"{args.redis}/{args.broker_db}"])

    import django

    django.setup()
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT version()")
        pg_version = cur.fetchone()[0].split(" on ")[0]
    print(f"{pg_version}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
    seed_started = time.perf_counter()
    pairs = seed(args, max(levels_wanted))
    print(f"seeding checked/done in {time.perf_counter() - seed_started:.0f} s", flush=True)
    levels = measure(args, pairs[:-1], levels_wanted)
    costs = None
    if args.in_process_ticks:
        print(f"in-process pass: {args.in_process_ticks} requests of one party through the test client",
              flush=True)
        costs = in_process_costs(pairs[-1], args.in_process_ticks, args.seed)

    print("\n" + "=" * 110)
    print("SUMMARY (409 = a game rule refused, counted apart from errors; ratios are to the baseline at the "
          "same client count)")
    print("=" * 110)
    for level in levels:
        print_level(level)
    if costs:
        print_costs(costs)
    print("\n" + redis_report(args))
    print("\nmarkdown:\n" + markdown(levels))
    print("\nload average (1/5/15 min) at the end: {:.2f} {:.2f} {:.2f} on {} CPUs shared by the load "
          "generator, gunicorn, PostgreSQL and whatever else runs".format(*os.getloadavg(),
                                                                          os.cpu_count() or 0))
    print(f"total wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
