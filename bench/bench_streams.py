"""Streams benchmark (SPEC 13 aims): how fast a move reaches the other seat's open stream, and what idle
streams cost, on one uvicorn process over ``backend.asgi`` (as ``dev.py serve`` runs it).

    python3 dev.py bench streams                       # embedded defaults: SQLite in a temporary folder
    python3 dev.py bench streams --matches 8 --moves 30 --idle 1000 --idle-seconds 30

1. Delivery: ``--matches`` cell capture matches play at once, each driven by one thread: the awaited
   player's ``POST actions/`` is timed, and so is the moment the other seat's stream (held open all along,
   read on its own thread) shows the next turn. Prints the POST's p50 and the delivery's p50/p99 (from the
   POST's start) and their ratio (aim: delivery p99 within 2x the POST p50), all from one run.
2. Idle: ``--idle`` streams open (8 per user: the cap), nobody moves; the server process's CPU over
   ``--idle-seconds`` as a share of one core (aim: under 5%), read from /proc.

Runs on the embedded defaults (no REDIS_URL: the hub delivers in-process) unless DATABASE_URL and REDIS_URL
are set in the environment. No thresholds: it reports. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._http import free_port, percentile, wait_until_serving  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _seed(matches: int, idle_users: int) -> dict[str, Any]:
    """Players with tokens, ``matches`` started cell capture matches, and matches for the idle streams."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    django.setup()
    from django.core.management import call_command
    from rest_framework_simplejwt.tokens import RefreshToken

    from matches import services
    from matches.models import MatchModeSettings
    from tests.factories import PlayerFactory

    call_command("migrate", verbosity=0)
    services.mode_settings("cell_capture")
    MatchModeSettings.objects.filter(mode="cell_capture").update(turn_deadline_seconds=3600)

    def game() -> tuple[int, list[tuple[int, str]]]:
        a: Any = PlayerFactory()  # type: ignore[no-untyped-call]
        b: Any = PlayerFactory()  # type: ignore[no-untyped-call]
        match = services.match_open(player=a, mode="cell_capture", settings={})
        services.match_join(player=b, match_id=match.pk)
        services.match_start(player=a, match_id=match.pk)
        return match.pk, [(p.pk, str(RefreshToken.for_user(p.user).access_token)) for p in (a, b)]

    return {"games": [game() for _ in range(matches)], "idle": [game() for _ in range((idle_users + 1) // 2)]}


class StreamWatcher(threading.Thread):
    """Holds one stream open and notes when each turn first shows in its ``match`` header."""

    def __init__(self, port: int, match_id: int, token: str) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.connection.request("GET", f"/api/v1/matches/{match_id}/stream/",
                                headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        self.turns: dict[int, float] = {}
        self.header: dict[str, Any] = {}
        self.changed = threading.Condition()

    def run(self) -> None:
        event = None
        while line := self.response.readline():
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: ") and event == "match":
                now = time.perf_counter()
                with self.changed:
                    self.header = json.loads(text[6:])
                    self.turns.setdefault(self.header["turn"], now)
                    self.changed.notify_all()

    def current(self) -> dict[str, Any]:
        """The latest header (once the first has come)."""
        with self.changed:
            self.changed.wait_for(lambda: bool(self.header), 60)
            return dict(self.header)

    def wait_turn(self, turn: int) -> float:
        with self.changed:
            self.changed.wait_for(lambda: turn in self.turns or self.header.get("status") != "active", 60)
            return self.turns.get(turn, float("nan"))


def _request(conn: http.client.HTTPConnection, method: str, path: str, token: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    return response.status, json.loads(response.read())


def _drive(port: int, match_id: int, players: list[tuple[int, str]], moves: int,
           posts: list[float], deliveries: list[float]) -> None:
    watchers = {pid: StreamWatcher(port, match_id, token) for pid, token in players}
    for watcher in watchers.values():
        watcher.start()
    tokens = dict(players)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(moves):
        header = next(iter(watchers.values())).current()
        if header.get("status") != "active":
            break
        mover = header["awaiting"]
        other = next(pid for pid in tokens if pid != mover)
        _, view = _request(conn, "GET", f"/api/v1/matches/{match_id}/", tokens[mover])
        if not view["allowed_actions"]:
            break
        start = time.perf_counter()
        status, _ = _request(conn, "POST", f"/api/v1/matches/{match_id}/actions/", tokens[mover],
                             {"turn": view["turn"], "action": view["allowed_actions"][0],
                              "idempotency_key": f"k{view['turn']}"})
        posts.append(time.perf_counter() - start)
        if status != 200:
            break
        arrived = watchers[other].wait_turn(view["turn"] + 1)
        deliveries.append(arrived - start)
        for watcher in watchers.values():
            watcher.wait_turn(view["turn"] + 1)
    conn.close()
    for watcher in watchers.values():
        watcher.connection.close()


async def _hold_idle(port: int, games: list[tuple[int, list[tuple[int, str]]]], count: int,
                     seconds: float, server_pid: int) -> tuple[int, float]:
    writers = []
    opened = 0
    for match_id, players in games:
        for _, token in players:
            for _ in range(8):
                if opened >= count:
                    break
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(f"GET /api/v1/matches/{match_id}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             f"Authorization: Bearer {token}\r\n\r\n".encode())
                await writer.drain()
                status = await reader.readline()
                assert b" 200 " in status, status
                writers.append((reader, writer))
                opened += 1

    async def drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(4096):
            pass

    drains = [asyncio.create_task(drain(reader)) for reader, _ in writers]
    await asyncio.sleep(2)  # the opening reads are done
    before, started = _cpu_seconds(server_pid), time.monotonic()
    await asyncio.sleep(seconds)
    used, elapsed = _cpu_seconds(server_pid) - before, time.monotonic() - started
    for _, writer in writers:
        writer.close()
    for task in drains:
        task.cancel()
    return opened, used / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=30)
    args = parser.parse_args()

    data_dir = tempfile.mkdtemp(prefix="bench-streams-")
    os.environ.setdefault("DEEPDELVE_DATA_DIR", data_dir)
    os.environ["DEBUG"] = "1"
    seeded = _seed(args.matches, (args.idle + 7) // 8)
    port = free_port()
    import dev

    log = open(Path(data_dir) / "uvicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen([*dev.asgi_server_command(f"127.0.0.1:{port}"), "--no-access-log",
                               "--log-level", "warning"], cwd=ROOT, env=os.environ.copy(),
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_serving(port, "/api/v1/modes/", 60, lambda: server.poll() is None)
        print(f"load average before: {os.getloadavg()}", flush=True)
        posts: list[float] = []
        deliveries: list[float] = []
        threads = [threading.Thread(target=_drive,
                                    args=(port, match_id, players, args.moves, posts, deliveries))
                   for match_id, players in seeded["games"]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        posts.sort()
        deliveries = sorted(d for d in deliveries if not math.isnan(d))
        post_p50 = percentile(posts, 0.5)
        p50, p99 = percentile(deliveries, 0.5), percentile(deliveries, 0.99)
        print(f"delivery over {args.matches} concurrent matches: {len(deliveries)} moves; mover's POST p50 "
              f"{post_p50 * 1000:.1f} ms; to the other seat's stream p50 {p50 * 1000:.1f} ms, p99 "
              f"{p99 * 1000:.1f} ms; p99 / POST p50 = {p99 / post_p50:.2f} (aim <= 2)", flush=True)
        opened, share = asyncio.run(
            _hold_idle(port, seeded["idle"], args.idle, args.idle_seconds, server.pid)
        )
        print(f"idle: {opened} open streams for {args.idle_seconds:.0f} s: server CPU {share * 100:.2f}% "
              f"of one core (aim < 5%)", flush=True)
        print(f"load average after: {os.getloadavg()}", flush=True)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
