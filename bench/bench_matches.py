"""Match benchmark on PostgreSQL: a cell capture action over HTTP next to the baseline write
(``/bench/baseline-write/``: JWT plus one committed UPDATE) measured in the same run.

    python3 dev.py bench matches                       # 1 and 8 clients, 12 s each in 3 rounds
    python3 dev.py bench matches --connections 8 --seconds 6

Each client plays both seats of its own two-player match (distinct matches, as players of
different games do): it reads the match as the awaited player (``GET matches/{id}/?since=N``,
timed as "match read") and posts one of the allowed cells (timed as "cell capture action"), then
the other seat's turn. Boards are 10 x 10, where a random game lasts thousands of moves, so the
state and the log grow as in a real game. Aim (issue 14): an action costs at most 3x the baseline
write (p50 latency). The engine's own worst case (a 50 x 50 chain) is bench/bench_cell_capture.py.

Environment: ``BENCH_DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/deepdelve_bench_matches,
created if missing). Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._http import LoadResult, merge  # noqa: E402
from bench._runs_load import BaselineWriter, Client, Conn, Window, drive, result  # noqa: E402
from bench.bench_guilds import _configure_environment, _ensure_database, _server  # noqa: E402
from bench.bench_runs import Call, _ok, http_call  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepdelve_bench_matches"
BOARD = {"width": 10, "height": 10}
MATCHES_PER_CLIENT = 2
AIM_RATIO = 3.0
#: issue 26 item 8: the in-process CPU of an action and of a read at most 2x the baseline write's, and their
#: statements at most 5 and 2
AIM_CPU_RATIO = 2.0
AIM_STATEMENTS = {"action": 5, "read": 2}
LABELS = {
    "baseline": "baseline write (JWT + 1 UPDATE)",
    "action": "cell capture action",
    "read": "  match read (the awaited player)",
}
#: in-process only, with no aim: a read of the whole log (``?since=0``), whose cost grows with the game
WHOLE_LOG_LABEL = "match read of the whole log (since=0)"


def prepare_match(call: Call, players: list[tuple[int, str]]) -> dict[str, Any]:
    """Open, join and start a two-player cell capture match through the API."""
    (host_id, host_token), (guest_id, guest_token) = players
    match = _ok(
        *call("POST", "/api/v1/matches/", host_token, {"mode": "cell_capture", "settings": BOARD}), "open"
    )
    _ok(*call("POST", f"/api/v1/matches/{match['id']}/join/", guest_token, None), "join")
    body = _ok(*call("POST", f"/api/v1/matches/{match['id']}/start/", host_token, None), "start")
    return {
        "id": match["id"],
        "tokens": {host_id: host_token, guest_id: guest_token},
        "awaiting": body["awaiting"],
        "last_event": body["last_event"],
    }


class PairPlayer(Client):
    """Both seats of its own matches: read as the awaited player, post one allowed cell, repeat."""

    def __init__(self, matches: list[dict[str, Any]], seed: int) -> None:
        self.matches: deque[dict[str, Any]] = deque(matches)
        self.rng = random.Random(seed)
        self.exhausted = False

    def step(self, conn: Conn, window: Window) -> bool:
        if not self.matches:
            self.exhausted = time.perf_counter() < window.end
            return False
        match = self.matches[0]
        token = match["tokens"][match["awaiting"]]
        status, body = conn.call(
            "GET", f"/api/v1/matches/{match['id']}/?since={match['last_event']}", token, label=LABELS["read"]
        )
        if status != 200 or not isinstance(body, dict):
            return True
        match["last_event"], match["awaiting"] = body["last_event"], body["awaiting"]
        if body["status"] != "active":
            self.matches.popleft()
            return True
        if not body["allowed_actions"]:
            return True  # read as the wrong seat: the answer named the awaited one, read again
        action = self.rng.choice(body["allowed_actions"])
        status, answer = conn.call(
            "POST",
            f"/api/v1/matches/{match['id']}/actions/",
            token,
            {"turn": body["turn"], "action": action, "idempotency_key": uuid.uuid4().hex},
            label=LABELS["action"],
        )
        if status == 200 and isinstance(answer, dict):
            others = [pid for pid in match["tokens"] if pid != match["awaiting"]]
            match["awaiting"] = others[0]
        return True


def bench_http(
    *, port: int, connections: list[int], seconds: float, rounds: int, warmup: float
) -> dict[str, Any]:
    from bench._runs_seed import make_players

    call = http_call(port)
    window = seconds / rounds
    results: dict[int, dict[str, LoadResult]] = {}
    warnings: list[str] = []
    for conns in connections:
        began = time.perf_counter()
        _tag, players = make_players(count=2 * MATCHES_PER_CLIENT * conns * rounds, group_size=1)
        pairs = [players[i : i + 2] for i in range(0, len(players), 2)]
        prepared = [prepare_match(call, pair) for pair in pairs]
        _tag, writers = make_players(count=conns, group_size=1)
        print(
            f"http: {conns} clients: {len(prepared)} matches set up through the API in "
            f"{time.perf_counter() - began:.1f} s",
            flush=True,
        )
        windows: dict[str, list[LoadResult]] = collections.defaultdict(list)
        per_round = MATCHES_PER_CLIENT * conns
        for round_number in range(rounds):
            record, _ = drive(
                [BaselineWriter(token, LABELS["baseline"]) for _pid, token in writers],
                port=port,
                seconds=window,
                warmup=warmup,
            )
            windows["baseline"].append(result(record, LABELS["baseline"], connections=conns, seconds=window))
            batch = prepared[round_number * per_round : (round_number + 1) * per_round]
            clients = [PairPlayer(batch[i::conns], seed=round_number * 1000 + i) for i in range(conns)]
            record, _ = drive(clients, port=port, seconds=window, warmup=warmup)
            for key in ("action", "read"):
                windows[key].append(result(record, LABELS[key], connections=conns, seconds=window))
            for label, codes in record.codes.items():
                warnings.append(f"{conns} clients, {label.strip()}: refused or failed {dict(codes)}")
            exhausted = sum(c.exhausted for c in clients)
            if exhausted:
                warnings.append(
                    f"{conns} clients, round {round_number + 1}: {exhausted} clients finished their "
                    "matches before the window ended"
                )
        results[conns] = {key: merge(values) for key, values in windows.items()}
        for key in LABELS:
            r = results[conns][key]
            print(
                f"  {conns:>2} clients  {r.label:<38} {r.rps:8.1f} req/s  p50 {r.p50_ms:7.1f} ms  "
                f"p99 {r.p99_ms:7.1f} ms  errors {r.errors}",
                flush=True,
            )
    return {"results": results, "warnings": warnings}


@dataclass(frozen=True)
class InProcess:
    """One request kind measured in-process: median wall and CPU (this process's) ms, most statements."""

    label: str
    wall_ms: float
    cpu_ms: float
    statements: int


def bench_in_process(*, repeats: int = 25) -> list[InProcess]:
    """One request at a time through Django's test client: median wall and CPU ms (the server's side: this
    process; PostgreSQL's own work is in its process) and SQL statements per request."""
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test import override_settings
    from django.test.utils import CaptureQueriesContext

    from bench._runs_seed import make_players

    def transport(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {token}")
        response = (
            client.get(path)
            if method == "GET"
            else client.post(
                path, json.dumps(body) if body is not None else "", content_type="application/json"
            )
        )
        return response.status_code, (response.json() if response.content else None)

    rows = []
    with override_settings(ROOT_URLCONF="bench.bench_urls"):
        _tag, players = make_players(count=3, group_size=1)
        match = prepare_match(transport, players[:2])
        rng = random.Random(1)

        def measure(label: str, request: Any) -> None:
            timings, cpu, counts = [], [], []
            for _ in range(repeats):
                send = request()
                with CaptureQueriesContext(connection) as captured:
                    began, began_cpu = time.perf_counter(), time.process_time()
                    status, data = send()
                    timings.append(time.perf_counter() - began)
                    cpu.append(time.process_time() - began_cpu)
                if not 200 <= status < 300:
                    raise RuntimeError(f"in-process {label}: {status} {str(data)[:300]}")
                counts.append(len(captured))
            timings.sort()
            cpu.sort()
            rows.append(InProcess(label, timings[len(timings) // 2] * 1000, cpu[len(cpu) // 2] * 1000,
                                  max(counts)))

        def action() -> Any:
            token = match["tokens"][match["awaiting"]]
            body = transport("GET", f"/api/v1/matches/{match['id']}/", token)[1]
            match["awaiting"] = next(p for p in match["tokens"] if p != body["awaiting"])
            payload = {
                "turn": body["turn"],
                "action": rng.choice(body["allowed_actions"]),
                "idempotency_key": uuid.uuid4().hex,
            }
            return lambda: transport("POST", f"/api/v1/matches/{match['id']}/actions/", token, payload)

        writer = players[2][1]
        measure(LABELS["baseline"], lambda: lambda: transport("POST", "/bench/baseline-write/", writer))
        measure(LABELS["action"], action)

        def read_after_a_move() -> Any:
            # as the HTTP clients read: a move is made (unmeasured), then the awaited player asks for what
            # came after the last event it had seen, before that move
            anyone = next(iter(match["tokens"].values()))
            last = transport("GET", f"/api/v1/matches/{match['id']}/", anyone)[1]["last_event"]
            action()()
            token = match["tokens"][match["awaiting"]]
            return lambda: transport("GET", f"/api/v1/matches/{match['id']}/?since={last}", token)

        measure(LABELS["read"].strip(), read_after_a_move)
        reader = next(iter(match["tokens"].values()))
        whole_log = f"/api/v1/matches/{match['id']}/?since=0"
        measure(WHOLE_LOG_LABEL, lambda: lambda: transport("GET", whole_log, reader))
    return rows


def report(http: dict[str, Any] | None, in_process: list[InProcess] | None) -> None:
    print("\n" + "=" * 100)
    if http:
        print(
            f"{'scenario':<40}{'clients':>8}{'requests':>10}{'errors':>8}{'req/s':>9}{'p50 ms':>9}"
            f"{'p99 ms':>9}"
            f"{'p50 vs base':>13}"
        )
        for conns, by_key in http["results"].items():
            base = by_key["baseline"]
            for key in LABELS:
                r = by_key[key]
                print(
                    f"{r.label:<40}{conns:>8}{r.requests:>10}{r.errors:>8}{r.rps:>9.1f}{r.p50_ms:>9.1f}"
                    f"{r.p99_ms:>9.1f}{r.p50_ms / base.p50_ms if base.p50_ms else float('nan'):>12.2f}x"
                )
        for conns, by_key in http["results"].items():
            ratio = by_key["action"].p50_ms / by_key["baseline"].p50_ms
            print(
                f"aim: a cell capture action <= {AIM_RATIO:g}x the baseline write (p50) at {conns} clients: "
                f"{ratio:.2f}x, {'met' if ratio <= AIM_RATIO else 'MISSED'}"
            )
        for warning in http["warnings"]:
            print("note:", warning)
    if in_process:
        base = in_process[0]
        print(f"\n{'one request in-process (test client)':<40}{'wall ms':>9}{'CPU ms':>9}{'SQL':>6}"
              f"{'wall vs base':>14}{'CPU vs base':>13}")
        for row in in_process:
            print(f"{row.label.strip():<40}{row.wall_ms:>9.2f}{row.cpu_ms:>9.2f}{row.statements:>6}"
                  f"{row.wall_ms / base.wall_ms:>13.2f}x{row.cpu_ms / base.cpu_ms:>12.2f}x")
        for key, row in zip(("action", "read"), in_process[1:3], strict=True):
            ratio = row.cpu_ms / base.cpu_ms
            print(f"aim: a {LABELS[key].strip()} <= {AIM_CPU_RATIO:g}x the baseline write's in-process CPU: "
                  f"{ratio:.2f}x, {'met' if ratio <= AIM_CPU_RATIO else 'MISSED'}")
            print(f"aim: a {LABELS[key].strip()} <= {AIM_STATEMENTS[key]} statements: {row.statements}, "
                  f"{'met' if row.statements <= AIM_STATEMENTS[key] else 'MISSED'}")
    print("=" * 100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument(
        "--seconds", type=float, default=12.0, help="measured seconds per scenario and client count"
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds the seconds are split into")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each window")
    parser.add_argument("--connections", default="1,8", help="comma-separated concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
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

    from matches.models import MatchModeSettings

    call_command("migrate", verbosity=0)
    # No turn times out during the measurement: every read would otherwise apply deadlines too.
    MatchModeSettings.objects.filter(mode="cell_capture").update(turn_deadline_seconds=86400)
    with connection.cursor() as cur:
        cur.execute("SELECT version()")
        pg_version = cur.fetchone()[0].split(" on ")[0]
    print(f"{pg_version}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
    connection.close()

    http = None
    if not args.skip_http:
        log_dir = Path(tempfile.mkdtemp(prefix="bench-matches-"))
        try:
            with _server(workers=args.workers, threads=args.threads, log_dir=log_dir) as (port, _process):
                print(
                    f"http: gunicorn gthread {args.workers} workers x {args.threads} threads "
                    f"on 127.0.0.1:{port}; "
                    f"{args.seconds:g} s per scenario in {args.rounds} interleaved rounds",
                    flush=True,
                )
                http = bench_http(
                    port=port,
                    connections=[int(c) for c in args.connections.split(",") if c.strip()],
                    seconds=args.seconds,
                    rounds=args.rounds,
                    warmup=args.warmup,
                )
        except BaseException:
            log_file = log_dir / "gunicorn.log"
            log = log_file.read_text(errors="replace") if log_file.exists() else ""
            print("gunicorn log (tail):\n" + "\n".join(log.splitlines()[-40:]), file=sys.stderr)
            raise
        finally:
            shutil.rmtree(log_dir, ignore_errors=True)
    in_process = None if args.skip_in_process else bench_in_process()
    report(http, in_process)
    print("load average (1/5/15 min) at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(f"total wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
