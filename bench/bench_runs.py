"""Run benchmark on PostgreSQL: starting a run (dungeon generation plus persistence) and acting in a
battle, under 8 and 32 concurrent clients, next to a minimal authenticated write endpoint measured
in the same run (``/bench/baseline-write/``: JWT plus one committed UPDATE).

    python3 dev.py bench runs                 # seeds once (~1 minute), then measures (~6 minutes)
    python3 dev.py bench runs --reseed        # wipe the bench database's data and seed again
    python3 dev.py bench runs --connections 8 --seconds 12

Scenarios, for each client count C (bench/README_runs.md says why they look like this):
- baseline write: C clients POST /bench/baseline-write/ back to back.
- run start, solo / party of 8: C hosts each start lobbies prepared for them (everyone joined,
  weapons chosen), one after another; the start request itself is measured (generation, rooms,
  person-runs, first room; the first battle if the first room holds enemies; the run payload).
- battle action, distinct runs: C players each alone in a run, in a battle that lasts (creatures
  and players with 30,000 HP, no round limit); each acts as soon as its turn comes back (the
  answer's ``next_turn``), mostly attacking a random allowed target, sometimes skipping.
- the same, paced: each player takes ``--think`` seconds (jittered) per turn, as people do.
- battle action, one run per 8 clients: C/8 parties of 8 in one battle each; every member polls
  GET battles/{id}/?since=N every ``--poll-interval`` seconds and acts when the battle awaits it.

Environment: ``BENCH_DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/deepdelve_bench_runs,
created if missing: not the guild bench's database). Everything runs on 127.0.0.1.
"""
from __future__ import annotations

import argparse
import collections
import http.client
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._http import LoadResult, merge  # noqa: E402
from bench._runs_load import (  # noqa: E402
    BaselineWriter,
    BattleView,
    Client,
    PartyFighter,
    SoloFighter,
    Starter,
    drive,
    result,
)
from bench.bench_guilds import _configure_environment, _ensure_database, _server  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepdelve_bench_runs"
PARTY = 8
AIM_DISTINCT_P99_MS = 50.0
AIM_ONE_RUN_P99_MS = 150.0
AIM_ACTION_VS_BASE = 2.5  # issue 13: in-process p50, a battle action vs the baseline write
AIM_START_VS_BASE = 8.0  # issue 13: in-process p50, a run start (asked of a party of 8) vs the baseline write
AIM_PACED_P99_VS_BASE = 3.0  # issue 13: the paced action's p99 vs the baseline write's, 8 clients
# First guesses of the start rates (starts per second over all clients), to size the lobbies
# prepared before the first window; later windows use the rate the previous one measured.
START_RATE_GUESS = {1: 40.0, PARTY: 15.0}

Call = Callable[[str, str, str, Any], tuple[int, Any]]


def http_call(port: int) -> Call:
    """A transport over real HTTP (one connection per call: setup only, not measured)."""

    def call(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
            payload = None
            if body is not None:
                payload, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
            elif method == "POST":
                payload = b""
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
        finally:
            conn.close()

    return call


def _ok(status: int, data: Any, what: str) -> Any:
    if not 200 <= status < 300:
        raise RuntimeError(f"bench setup: {what} answered {status}: {str(data)[:400]}")
    return data


def play_to_battle(call: Call, players: list[tuple[int, str]], *, kind: str = "ordinary") -> list[BattleView]:
    """Through the API, as clients do: the first player opens a lobby, the others join, everyone
    takes the first weapon the junk dealer offers, the host starts and the party advances until a
    room holds a battle. Returns each member's view of that battle."""
    (_host_id, host_token), others = players[0], players[1:]
    run = _ok(*call("POST", "/api/v1/runs/", host_token, {"kind": kind}), "open")
    run_id = run["id"]
    for _, token in others:
        _ok(*call("POST", f"/api/v1/runs/{run_id}/join/", token, None), "join")
    for _, token in players:
        offer = _ok(*call("GET", f"/api/v1/runs/{run_id}/offer/", token, None), "offer")
        choice = offer[0]["id"] if offer else None
        _ok(*call("POST", f"/api/v1/runs/{run_id}/weapon/", token, {"item_kind": choice}), "weapon")
    run = _ok(*call("POST", f"/api/v1/runs/{run_id}/start/", host_token, None), "start")
    for _ in range(60):
        room = run["current_room"]
        battle = room and room["battle"]
        if battle and battle["outcome"] == "ongoing":
            break
        if run["status"] != "active":
            raise RuntimeError(f"bench setup: run {run_id} ended before a battle ({run['status']})")
        advanced = call("POST", f"/api/v1/runs/{run_id}/advance/", host_token, {"step": run["step"]})
        run = _ok(*advanced, "advance")
    else:
        raise RuntimeError(f"bench setup: no battle in the first 60 rooms of run {run_id}")
    views = []
    for _, token in players:
        view = BattleView(battle_id=battle["id"])
        view.update(_ok(*call("GET", f"/api/v1/battles/{view.battle_id}/", token, None), "battle"))
        views.append(view)
    return views


def prepare_battles(call: Call, *, runs: int, party_size: int) -> list[tuple[int, str, BattleView]]:
    """``runs`` runs of ``party_size`` fresh players, each in its first battle: (player, token, view)."""
    from bench._runs_seed import make_players

    _tag, players = make_players(count=runs * party_size, group_size=party_size)
    parties = [players[i:i + party_size] for i in range(0, len(players), party_size)]
    with ThreadPoolExecutor(max_workers=min(8, len(parties))) as pool:
        views = list(pool.map(lambda party: play_to_battle(call, party), parties))
    return [(pid, token, view) for party, party_views in zip(parties, views)
            for (pid, token), view in zip(party, party_views)]


def refresh(call: Call, fighters: list[tuple[int, str, BattleView]]) -> None:
    """Read every battle again before a window (a turn deadline may have moved it meanwhile)."""
    for _pid, token, view in fighters:
        view.update(_ok(*call("GET", f"/api/v1/battles/{view.battle_id}/", token, None), "battle"))


def cancel_leftover_lobbies() -> None:
    """Prepared lobbies a window did not reach: cancelled, their members out (nobody holds a weapon)."""
    from django.db import transaction

    from dungeons.models import MemberStatus, Run, RunMember, RunStatus

    with transaction.atomic():
        leftover = Run.objects.filter(status=RunStatus.LOBBY, host__display_name__startswith="bench_runs_")
        RunMember.objects.filter(run__in=leftover).update(status=MemberStatus.LEFT, active=False)
        leftover.update(status=RunStatus.CANCELLED)


# --- the HTTP benchmark -----------------------------------------------------------------------------

LABELS = {
    "baseline": "baseline write (JWT + 1 UPDATE)",
    "start1": "run start, solo",
    "start8": f"run start, party of {PARTY}",
    "act_distinct": "battle action, distinct runs",
    "act_paced": "battle action, distinct runs, paced",
    "act_one": f"battle action, {PARTY} clients per run",
    "poll_one": f"  battle poll, {PARTY} clients per run",
    "resync": "  battle read to resync, distinct runs",
}


def bench_http(*, port: int, connections: list[int], seconds: float, rounds: int, warmup: float,
               poll_interval: float, skip_share: float, think: float) -> dict[str, Any]:
    from bench._runs_seed import make_lobbies, make_players

    call = http_call(port)
    window = seconds / rounds
    results: dict[int, dict[str, LoadResult]] = {}
    warnings: list[str] = []
    for conns in connections:
        started = time.perf_counter()
        solo = prepare_battles(call, runs=conns, party_size=1)
        one_runs = max(1, conns // PARTY)
        party = prepare_battles(call, runs=one_runs, party_size=PARTY)
        _tag, writers = make_players(count=conns, group_size=1)
        print(f"http: {conns} clients: {conns} solo battles and {one_runs} battle(s) of {PARTY} set up "
              f"through the API in {time.perf_counter() - started:.1f} s", flush=True)
        windows: dict[str, list[LoadResult]] = collections.defaultdict(list)
        rates = {size: START_RATE_GUESS[size] for size in (1, PARTY)}
        for round_number in range(rounds):
            # baseline
            record, _ = drive([BaselineWriter(token, LABELS["baseline"]) for _pid, token in writers],
                              port=port, seconds=window, warmup=warmup)
            windows["baseline"].append(result(record, LABELS["baseline"], connections=conns, seconds=window))
            # run starts
            for size, key in ((1, "start1"), (PARTY, "start8")):
                # generous: a client that runs out stops early and the window under-counts
                per_client = math.ceil(rates[size] / conns * (window + warmup) * 2.5) + 5
                lobbies = make_lobbies(count=per_client * conns, party_size=size)
                starters = [Starter(lobbies[i::conns], LABELS[key]) for i in range(conns)]
                record, _ = drive(starters, port=port, seconds=window, warmup=warmup)
                measured = result(record, LABELS[key], connections=conns, seconds=window)
                windows[key].append(measured)
                rates[size] = max(measured.rps, 1.0)
                exhausted = sum(s.exhausted for s in starters)
                if exhausted:
                    warnings.append(f"{conns} clients, round {round_number + 1}, {LABELS[key]}: {exhausted} "
                                    f"clients ran out of prepared lobbies before the window ended")
                cancel_leftover_lobbies()
            # battle actions, distinct runs
            refresh(call, solo)
            fighters: list[Client] = [
                SoloFighter(token, view, LABELS["act_distinct"], LABELS["resync"], seed=pid,
                            skip_share=skip_share)
                for pid, token, view in solo]
            record, _ = drive(fighters, port=port, seconds=window, warmup=warmup)
            for key in ("act_distinct", "resync"):
                windows[key].append(result(record, LABELS[key], connections=conns, seconds=window))
            _report_codes(record, warnings, conns)
            # the same players taking ``think`` seconds per turn: latency without self-made queueing
            refresh(call, solo)
            fighters = [SoloFighter(token, view, LABELS["act_paced"], LABELS["resync"], seed=pid + 1,
                                    skip_share=skip_share, think=think)
                        for pid, token, view in solo]
            record, _ = drive(fighters, port=port, seconds=window, warmup=warmup)
            windows["act_paced"].append(result(record, LABELS["act_paced"], connections=conns,
                                               seconds=window))
            _report_codes(record, warnings, conns)
            # battle actions, parties of 8 in one battle
            refresh(call, party)
            fighters = [PartyFighter(token, pid, view, LABELS["act_one"], LABELS["poll_one"], seed=pid,
                                     skip_share=skip_share, poll_interval=poll_interval)
                        for pid, token, view in party]
            record, _ = drive(fighters, port=port, seconds=window, warmup=warmup)
            for key in ("act_one", "poll_one"):
                windows[key].append(result(record, LABELS[key], connections=conns, seconds=window))
            _report_codes(record, warnings, conns)
            if any(getattr(f, "finished", False) for f in fighters):
                warnings.append(f"{conns} clients: a battle ended during the measurement")
        results[conns] = {key: merge(values) for key, values in windows.items()}
        for key in LABELS:
            if key in results[conns] and results[conns][key].requests:
                r = results[conns][key]
                print(f"  {conns:>2} clients  {r.label:<42} {r.rps:8.1f} req/s  p50 {r.p50_ms:7.1f} ms  "
                      f"p99 {r.p99_ms:7.1f} ms  errors {r.errors}", flush=True)
    return {"results": results, "warnings": warnings}


def _report_codes(record: Any, warnings: list[str], conns: int) -> None:
    for label, codes in record.codes.items():
        warnings.append(f"{conns} clients, {label.strip()}: refused or failed {dict(codes)}")


# --- in-process cost ------------------------------------------------------------------------------------

def _statement_kinds(queries: list[dict[str, Any]]) -> collections.Counter[str]:
    from backend.sql import prepared_sql  # after django.setup(); a prepared statement counts as its SQL

    kinds: collections.Counter[str] = collections.Counter()
    for query in queries:
        sql = prepared_sql(query["sql"].lstrip())
        verb = sql.split(None, 1)[0].upper()
        table = re.search(r'(?:FROM|INTO|UPDATE)\s+"(\w+)"', sql)
        kinds[f"{verb} {table.group(1) if table else ''}".strip()] += 1
    return kinds


def bench_in_process(*, repeats: int = 15) -> dict[str, Any]:
    """One request at a time through Django's test client (no HTTP, no concurrency): milliseconds
    of server work and SQL statements per request, which explain the ratios above."""
    import uuid

    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test import override_settings
    from django.test.utils import CaptureQueriesContext

    from bench._runs_seed import make_lobbies, make_players

    def transport(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {token}")
        if method == "GET":
            response = client.get(path)
        else:
            response = client.post(path, json.dumps(body) if body is not None else "",
                                   content_type="application/json")
        return response.status_code, (response.json() if response.content else None)

    rows: list[tuple[str, float, float, float, int]] = []
    details: dict[str, collections.Counter[str]] = {}
    written: dict[str, int] = {}

    def measure(label: str, next_request: Callable[[], Callable[[], tuple[int, Any]]]) -> None:
        """``next_request()`` prepares (unmeasured) and returns the request to measure."""
        timings, cpu, counts = [], [], []
        for _ in range(repeats):
            request = next_request()
            with CaptureQueriesContext(connection) as captured:
                began, began_cpu = time.perf_counter(), time.thread_time()
                status, data = request()
                timings.append(time.perf_counter() - began)
                cpu.append(time.thread_time() - began_cpu)
            if not 200 <= status < 300:
                raise RuntimeError(f"in-process {label}: {status} {str(data)[:300]}")
            counts.append(len(captured))
        details[label] = _statement_kinds(captured.captured_queries)
        written[label] = sum(len(q["sql"]) for q in captured.captured_queries
                             if q["sql"].lstrip()[:6].upper() in ("UPDATE", "INSERT")
                             or q["sql"].lstrip()[:5].upper() == "WITH ")  # a step's writes are one CTE
        timings.sort()
        cpu.sort()
        rows.append((label, timings[len(timings) // 2] * 1000, timings[0] * 1000, cpu[len(cpu) // 2] * 1000,
                     max(counts)))

    def action_request(by_player: dict[int, tuple[str, BattleView]]) -> Callable[[], tuple[int, Any]]:
        any_token, any_view = next(iter(by_player.values()))
        _status, body = transport("GET", f"/api/v1/battles/{any_view.battle_id}/", any_token)
        token, view = by_player[body["awaiting"]]
        view.update(transport("GET", f"/api/v1/battles/{view.battle_id}/", token)[1])
        action = next(a for a in view.allowed if a["kind"] == "attack")
        body = {"turn": view.turn, "action": action, "idempotency_key": uuid.uuid4().hex}
        return lambda: transport("POST", f"/api/v1/battles/{view.battle_id}/actions/", token, body)

    with override_settings(ROOT_URLCONF="bench.bench_urls"):
        _tag, writer = make_players(count=1, group_size=1)
        token = writer[0][1]
        measure(LABELS["baseline"], lambda: lambda: transport("POST", "/bench/baseline-write/", token))
        for size, key in ((1, "start1"), (PARTY, "start8")):
            lobbies = iter(make_lobbies(count=repeats, party_size=size))

            def start_request(lobbies: Any = lobbies) -> Callable[[], tuple[int, Any]]:
                host_token, run_id = next(lobbies)
                return lambda: transport("POST", f"/api/v1/runs/{run_id}/start/", host_token)

            measure(LABELS[key], start_request)
            cancel_leftover_lobbies()
        for size, key in ((1, "act_distinct"), (PARTY, "act_one")):
            fighters = prepare_battles(transport, runs=1, party_size=size)
            by_player = {pid: (tok, view) for pid, tok, view in fighters}
            measure(LABELS[key], partial(action_request, by_player))
        _pid, (tok, view) = next(iter(by_player.items()))

        def poll_request() -> Callable[[], tuple[int, Any]]:
            return lambda: transport("GET", f"/api/v1/battles/{view.battle_id}/?since={view.last_event}", tok)

        measure(LABELS["poll_one"].strip(), poll_request)
    return {"rows": rows, "details": details, "written": written}


# --- the report ---------------------------------------------------------------------------------------

def _aim(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(http: dict[str, Any] | None, in_process: dict[str, Any] | None) -> None:
    print("\n" + "=" * 112)
    print("SUMMARY")
    print("=" * 112)
    if http:
        print(f"{'scenario':<44}{'clients':>8}{'requests':>10}{'errors':>8}{'req/s':>9}{'p50 ms':>9}"
              f"{'p99 ms':>9}{'req/s':>9}{'p50':>9}")
        print(f"{'':<44}{'':>8}{'':>10}{'':>8}{'':>9}{'':>9}{'':>9}{'vs base':>9}{'vs base':>9}")
        for conns, by_key in http["results"].items():
            base = by_key["baseline"]
            for key in LABELS:
                if key not in by_key or (key == "resync" and not by_key[key].requests):
                    continue
                r = by_key[key]
                print(f"{r.label:<44}{conns:>8}{r.requests:>10}{r.errors:>8}{r.rps:>9.1f}{r.p50_ms:>9.1f}"
                      f"{r.p99_ms:>9.1f}{r.rps / base.rps if base.rps else float('nan'):>9.2f}x"
                      f"{r.p50_ms / base.p50_ms if base.p50_ms else float('nan'):>8.1f}x")
        print()
        at8 = http["results"].get(8)
        if at8:
            distinct, one = at8["act_distinct"], at8["act_one"]
            paced = at8["act_paced"]
            print(f"aim: battle action p99 < {AIM_DISTINCT_P99_MS:.0f} ms at 8 clients on distinct runs: "
                  f"{distinct.p99_ms:.1f} ms acting back to back, "
                  f"{_aim(distinct.p99_ms < AIM_DISTINCT_P99_MS)}; "
                  f"{paced.p99_ms:.1f} ms paced, {_aim(paced.p99_ms < AIM_DISTINCT_P99_MS)}")
            print(f"aim: battle action p99 < {AIM_ONE_RUN_P99_MS:.0f} ms with 8 clients on one run: "
                  f"{one.p99_ms:.1f} ms, {_aim(one.p99_ms < AIM_ONE_RUN_P99_MS)}")
            base_p99 = at8["baseline"].p99_ms
            print(f"aim (issue 13): paced battle action p99 at 8 clients <= {AIM_PACED_P99_VS_BASE:g}x the "
                  f"baseline write's p99: {paced.p99_ms:.1f} / {base_p99:.1f} ms = "
                  f"{paced.p99_ms / base_p99:.1f}x, "
                  f"{_aim(paced.p99_ms <= AIM_PACED_P99_VS_BASE * base_p99)}")
        for warning in http["warnings"]:
            print("note:", warning)
    if in_process:
        rows = in_process["rows"]
        base = rows[0][1]
        print(f"\n{'one request in-process (test client, 1 thread)':<48}{'ms p50':>8}{'ms min':>8}"
              f"{'CPU ms':>8}{'SQL':>6}{'vs baseline':>13}")
        for label, median, best, cpu, queries in rows:
            print(f"{label.strip():<48}{median:>8.2f}{best:>8.2f}{cpu:>8.2f}{queries:>6}"
                  f"{median / base:>12.1f}x")
        print("(CPU ms: this process's Python time per request, without PostgreSQL's; the rest is waiting "
              "for the database)")
        by_label = {label.strip(): median for label, median, _best, _cpu, _queries in rows}
        for key, limit in (("act_distinct", AIM_ACTION_VS_BASE), ("act_one", AIM_ACTION_VS_BASE),
                           ("start1", AIM_START_VS_BASE), ("start8", AIM_START_VS_BASE)):
            ratio = by_label[LABELS[key].strip()] / base
            print(f"aim (issue 13): {LABELS[key].strip()} <= {limit:g}x the baseline write in-process: "
                  f"{ratio:.1f}x, {_aim(ratio <= limit)}")
        for label, kinds in in_process["details"].items():
            top = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common(8))
            print(f"  statements of one '{label.strip()}': {top}; "
                  f"{in_process['written'][label] / 1024:.1f} KB of INSERT/UPDATE SQL")
    print("=" * 112)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--reseed", action="store_true", help="wipe the bench database's data and seed again")
    parser.add_argument("--past-runs", type=int, default=20_000, help="background runs (ended) to seed")
    parser.add_argument("--battles-per-run", type=int, default=3)
    parser.add_argument("--events-per-battle", type=int, default=30)
    parser.add_argument("--actions-per-battle", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=12.0,
                        help="measured seconds per scenario and client count")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds the seconds are split into")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each window")
    parser.add_argument("--connections", default="8,32", help="comma-separated concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--poll-interval", type=float, default=0.25,
                        help="seconds a party member waits between battle reads when it is not its turn")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds per turn of a player in the paced scenario")
    parser.add_argument("--skip-share", type=float, default=0.1, help="share of actions that are 'skip'")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-in-process", action="store_true")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    _configure_environment(args.database_url)
    _ensure_database(args.database_url)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench._runs_seed import check_lobby_shape, configure_balancing, seed_background

    call_command("migrate", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("SELECT version()")
        pg_version = cur.fetchone()[0].split(" on ")[0]
    database = urlsplit(args.database_url).path.lstrip("/")
    pool = "pool" in connection.settings_dict.get("OPTIONS", {})
    connections_kind = "Django native pool" if pool else "persistent (CONN_MAX_AGE)"
    print(f"{pg_version}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; database {database}; "
          f"server DB connections: {connections_kind}", flush=True)
    seed_background(runs=args.past_runs, battles_per_run=args.battles_per_run,
                    events_per_battle=args.events_per_battle, actions_per_battle=args.actions_per_battle,
                    reseed=args.reseed)
    configure_balancing(party_size=PARTY)
    check_lobby_shape()
    connection.close()  # the server must not wait on this process's connection

    http = None
    if not args.skip_http:
        log_dir = Path(tempfile.mkdtemp(prefix="bench-runs-"))
        try:
            with _server(workers=args.workers, threads=args.threads, log_dir=log_dir) as (port, _process):
                print(f"http: gunicorn gthread {args.workers} workers x {args.threads} threads on "
                      f"127.0.0.1:{port}; {args.seconds:g} s per scenario in {args.rounds} interleaved "
                      f"rounds, {args.warmup:g} s warm-up each; party members poll every "
                      f"{args.poll_interval * 1000:.0f} ms", flush=True)
                connections = [int(c) for c in args.connections.split(",") if c.strip()]
                http = bench_http(port=port, connections=connections,
                                  seconds=args.seconds, rounds=args.rounds, warmup=args.warmup,
                                  poll_interval=args.poll_interval, skip_share=args.skip_share,
                                  think=args.think)
        except BaseException:
            log_file = log_dir / "gunicorn.log"
            log = log_file.read_text(errors="replace") if log_file.exists() else ""
            print("gunicorn log (tail):\n" + "\n".join(log.splitlines()[-40:]), file=sys.stderr)
            raise
        finally:
            shutil.rmtree(log_dir, ignore_errors=True)
    in_process = None if args.skip_in_process else bench_in_process()
    report(http, in_process)
    print("load average (1/5/15 min) at the end: {:.2f} {:.2f} {:.2f} on {} CPUs; the load generator "
          "shares them with the server and PostgreSQL".format(*os.getloadavg(), os.cpu_count() or 0))
    print(f"total wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
