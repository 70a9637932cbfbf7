"""Streams benchmark (SPEC 13 aims): how fast a move reaches the other seat's open stream, and what idle
streams cost, on one uvicorn process over ``backend.asgi`` (as ``dev.py serve`` runs it).

    python3 dev.py bench streams                       # embedded defaults: SQLite in a temporary folder
    python3 dev.py bench streams --matches 8 --moves 30 --idle 1000 --idle-seconds 30

1. Delivery: ``--matches`` cell capture matches play at once, each driven by one thread: the awaited
   player's ``POST actions/`` is timed, and so is the moment the other seat's stream (held open all along,
   read on its own thread) shows the next turn. Prints the POST's p50 and the delivery's p50/p99 (from the
   POST's start) and their ratio (aim: delivery p99 within 2x the POST p50), all from one run.
2. CPU per move: ``--cpu-moves`` moves, one after another, over fresh matches (enough of them) whose two seats
   both hold their stream open; each move is a ``POST actions/`` and ends when both seats' streams show the
   next turn (the mover picks its action from the database in this process, so the server does nothing but
   the move and its delivery). The server process's CPU over all of them (/proc/<pid>/stat, utime + stime)
   divided by the moves, against the same server's CPU per ``POST /bench/baseline-write/`` (JWT and one
   committed UPDATE) over as many requests, as a ratio (aim: at most 3x).
3. Idle: ``--idle`` streams open (8 per user: the cap), nobody moves; the server process's CPU over
   ``--idle-seconds`` as a share of one core (aim: under 5%), and the SQL statements the server ran meanwhile
   (``/bench/statements/``, counted on every connection of the server process; aim: none). The same server
   with no stream open is measured first, for ``--quiet-seconds``, as the floor.
4. From 2 and 3, how many players in matches one core holds (each player moves once every 5 s and holds
   one open stream): ``1 / (CPU per move / 5 s + CPU share of one idle stream)``.
5. Lists: ``--lists`` match list streams open (``GET matches/stream/?mode=cell_capture``, 8 per user), then
   ``--list-changes`` lobbies opened one after another (``POST matches/``, each by a player of its own);
   each change ends when every list stream has sent the new list. The server's CPU per change and per open
   list (against the baseline write of 2), and the time from the POST to the last list's message (p50, max).

Every run makes its own players (names unique to the run), so it can run again on the same database. It
serves ``bench.bench_settings`` (the real settings with the baseline views). Runs on the embedded defaults
(no REDIS_URL: the hub delivers in-process) unless DATABASE_URL and REDIS_URL are set in the environment.
No thresholds: it reports, with the aims met or MISSED. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import os
import secrets
import socket
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
#: A player in a match moves once every this many seconds (the capacity's assumption).
MOVE_EVERY_SECONDS = 5.0
#: The aims (SPEC 13 / issue 27).
AIM_DELIVERY = 2.0
AIM_MOVE_RATIO = 3.0
AIM_IDLE_SHARE = 0.05
AIM_PLAYERS = 1000


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _met(met: bool) -> str:
    return "met" if met else "MISSED"


def _seed(matches: int, cpu_matches: int, idle_users: int, openers: int) -> dict[str, Any]:
    """Players with tokens: ``matches`` started cell capture matches for the delivery, ``cpu_matches`` for the
    CPU per move, matches for the idle streams (their players also hold the list streams), and ``openers``
    players who each open one lobby. The players' names are unique to this run."""
    import django

    django.setup()
    from django.core.management import call_command
    from rest_framework_simplejwt.tokens import RefreshToken

    from matches import services
    from matches.models import MatchModeSettings
    from tests.factories import PlayerFactory

    call_command("migrate", verbosity=0)
    services.mode_settings("cell_capture")
    MatchModeSettings.objects.filter(mode="cell_capture").update(turn_deadline_seconds=3600)

    run = secrets.token_hex(4)
    names = iter(range(1_000_000))

    def player() -> Any:
        return PlayerFactory(user__username=f"bench-streams-{run}-{next(names)}")  # type: ignore[no-untyped-call]

    def game() -> tuple[int, list[tuple[int, str]]]:
        a, b = player(), player()
        match = services.match_open(player=a, mode="cell_capture", settings={})
        services.match_join(player=b, match_id=match.pk)
        services.match_start(player=a, match_id=match.pk)
        return match.pk, [(p.pk, str(RefreshToken.for_user(p.user).access_token)) for p in (a, b)]

    def token() -> str:
        return str(RefreshToken.for_user(player().user).access_token)

    return {"games": [game() for _ in range(matches)], "cpu": [game() for _ in range(cpu_matches)],
            "idle": [game() for _ in range((idle_users + 1) // 2)],
            "openers": [token() for _ in range(openers)]}


def _next_move(match_id: int, user_id: int) -> tuple[int, Any] | None:
    """The turn and the first allowed action of the awaited player (read here, not through the server)."""
    from matches import selectors, services

    match, player, events = services.match_read_for_user(user_id=user_id, match_id=match_id, since=0)
    view = selectors.match_payload(match, player, since=0, events=events)
    if match.is_over or not view["allowed_actions"]:
        return None
    return int(view["turn"]), view["allowed_actions"][0]


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
        self.stopping = False

    def run(self) -> None:
        event = None
        try:
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
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            if not self.stopping:  # a stream lost while the bench still needed it
                raise

    def stop(self) -> None:
        """End the stream from this side and wait for the reader to see it end (before the server stops)."""
        self.stopping = True
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(timeout=10)
        self.connection.close()

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
        watcher.stop()


def _cpu_per_move(port: int, games: list[tuple[int, list[tuple[int, str]]]], moves: int,
                  server_pid: int) -> tuple[int, float]:
    """``moves`` moves one after another over ``games``, both seats' streams open; returns the moves made and
    the server's CPU seconds per move, its delivery to both seats included."""
    watchers = {(match_id, pid): StreamWatcher(port, match_id, token)
                for match_id, players in games for pid, token in players}
    for watcher in watchers.values():
        watcher.start()
    for watcher in watchers.values():
        watcher.current()  # each stream has sent its first header: opening them is not counted
    tokens = {pid: token for _, players in games for pid, token in players}
    users = _user_ids(list(tokens))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    playing = [match_id for match_id, _ in games]
    made = 0
    before = _cpu_seconds(server_pid)
    while made < moves and playing:
        for match_id in list(playing):
            if made >= moves:
                break
            seats = [pid for (m, pid) in watchers if m == match_id]
            header = watchers[(match_id, seats[0])].current()
            mover = header.get("awaiting")
            found = None
            if header.get("status") == "active" and isinstance(mover, int):
                found = _next_move(match_id, users[mover])
            if found is None or not isinstance(mover, int):
                playing.remove(match_id)
                continue
            turn, action = found
            status, _ = _request(conn, "POST", f"/api/v1/matches/{match_id}/actions/", tokens[mover],
                                 {"turn": turn, "action": action, "idempotency_key": f"c{turn}"})
            if status != 200:
                playing.remove(match_id)
                continue
            for pid in seats:
                watchers[(match_id, pid)].wait_turn(turn + 1)
            made += 1
    used = _cpu_seconds(server_pid) - before
    conn.close()
    for watcher in watchers.values():
        watcher.stop()
    return made, used / made if made else float("nan")


def _user_ids(player_ids: list[int]) -> dict[int, int]:
    from players.models import Player

    return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "user_id"))


def _cpu_per_baseline_write(port: int, token: str, requests: int, server_pid: int) -> float:
    """The server's CPU seconds per ``POST /bench/baseline-write/``, sent one after another."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    _request(conn, "POST", "/bench/baseline-write/", token)  # the connection is made
    before = _cpu_seconds(server_pid)
    for _ in range(requests):
        status, _ = _request(conn, "POST", "/bench/baseline-write/", token)
        assert status == 200, status
    used = _cpu_seconds(server_pid) - before
    conn.close()
    return used / requests


def _statements(port: int) -> tuple[int, int, list[str]]:
    """The statements the server has run so far, those of its deadline clock, and the latest ones."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/bench/statements/")
    found = json.loads(conn.getresponse().read())
    conn.close()
    return int(found["count"]), int(found["clock"]), list(found["recent"])


async def _open_stream(port: int, path: str, token: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A stream opened over a raw connection (its status line read: 200), to read as it comes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    assert b" 200 " in status, status
    return reader, writer


async def _hold_idle(port: int, games: list[tuple[int, list[tuple[int, str]]]], count: int,
                     seconds: float, server_pid: int) -> dict[str, Any]:
    """``count`` streams held open for ``seconds`` with nobody moving: the server's CPU share of one core and
    the SQL statements it ran meanwhile."""
    writers = []
    opened = 0
    for match_id, players in games:
        for _, token in players:
            for _ in range(8):
                if opened >= count:
                    break
                writers.append(await _open_stream(port, f"/api/v1/matches/{match_id}/stream/", token))
                opened += 1

    pings = [0]
    started_streams = [0]
    all_started = asyncio.Event()

    async def drain(reader: asyncio.StreamReader) -> None:
        first = True
        while chunk := await reader.read(4096):
            pings[0] += chunk.count(b": ping")
            if first and b"event: match" in chunk:  # its first read is done
                first = False
                started_streams[0] += 1
                if started_streams[0] == len(writers):
                    all_started.set()

    drains = [asyncio.create_task(drain(reader)) for reader, _ in writers]
    await asyncio.wait_for(all_started.wait(), 120)  # every stream has made its first read
    await asyncio.sleep(1)
    statements_before, clock_before, _ = await asyncio.to_thread(_statements, port)
    began = time.time()
    before, started, pinged = _cpu_seconds(server_pid), time.monotonic(), pings[0]
    await asyncio.sleep(seconds)
    used, elapsed, pinged = _cpu_seconds(server_pid) - before, time.monotonic() - started, pings[0] - pinged
    statements_after, clock_after, recent = await asyncio.to_thread(_statements, port)
    for _, writer in writers:
        writer.close()
    for task in drains:
        task.cancel()
    await asyncio.gather(*drains, return_exceptions=True)
    statements = statements_after - statements_before
    return {"began": began, "opened": opened, "share": used / elapsed, "cpu": used, "seconds": elapsed,
            "pings": pinged, "statements": statements, "clock": clock_after - clock_before,
            "recent": recent[-statements:] if statements else []}


async def _list_changes(port: int, games: list[tuple[int, list[tuple[int, str]]]], count: int,
                        openers: list[str], server_pid: int) -> dict[str, Any]:
    """``count`` match list streams open; each opener opens a lobby, and the change ends when every stream has
    sent its next ``matches`` message: the server's CPU per change, and the time to the last stream's."""
    tokens = [token for _, players in games for _, token in players]
    streams = []
    path = "/api/v1/matches/stream/?mode=cell_capture"
    for number in range(count):  # 8 per user: the cap
        streams.append(await _open_stream(port, path, tokens[number // 8]))
    received = [0] * len(streams)
    changed = asyncio.Event()

    marker = b"event: matches"

    async def drain(index: int, reader: asyncio.StreamReader) -> None:
        tail = b""  # the end of what was read, which may hold the start of a marker cut by the chunking
        while chunk := await reader.read(65536):
            data = tail + chunk
            found = data.count(marker)
            if found:
                received[index] += found
                changed.set()
            cut = data.rfind(marker)
            tail = (data[cut + len(marker):] if cut >= 0 else data)[-(len(marker) - 1):]

    async def all_reach(messages: int) -> None:
        while min(received) < messages:
            changed.clear()
            await asyncio.wait_for(changed.wait(), 120)

    drains = [asyncio.create_task(drain(n, reader)) for n, (reader, _) in enumerate(streams)]
    await all_reach(1)  # every stream has sent its first list
    times = []
    before = _cpu_seconds(server_pid)
    for number, token in enumerate(openers):
        started = time.monotonic()
        answered = await asyncio.to_thread(_open_lobby, port, token)
        assert answered == 201, answered
        await all_reach(number + 2)
        times.append(time.monotonic() - started)
    used = _cpu_seconds(server_pid) - before
    for _, writer in streams:
        writer.close()
    for task in drains:
        task.cancel()
    await asyncio.gather(*drains, return_exceptions=True)
    times.sort()
    return {"opened": len(streams), "changes": len(openers), "cpu": used / max(len(openers), 1),
            "p50": percentile(times, 0.5), "max": times[-1] if times else math.nan}


def _open_lobby(port: int, token: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    status, _ = _request(conn, "POST", "/api/v1/matches/", token, {"mode": "cell_capture", "settings": {}})
    conn.close()
    return int(status)


def _quiet(seconds: float, server_pid: int) -> float:
    """The server's CPU share of one core with nothing open and nobody asking."""
    before, started = _cpu_seconds(server_pid), time.monotonic()
    time.sleep(seconds)
    return (_cpu_seconds(server_pid) - before) / (time.monotonic() - started)


def _configure_environment() -> None:
    """Serve as production does (DEBUG off: no query log, no static files), with the baseline views."""
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-streams-" + "0" * 50)
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--cpu-moves", type=int, default=200)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--quiet-seconds", type=float, default=10)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--list-changes", type=int, default=20)
    args = parser.parse_args()

    data_dir = tempfile.mkdtemp(prefix="bench-streams-")
    os.environ.setdefault("DEEPDELVE_DATA_DIR", data_dir)
    _configure_environment()
    # A two-seat cell capture game lasts about seven moves: enough games for the moves asked for.
    seeded = _seed(args.matches, max(args.matches, math.ceil(args.cpu_moves / 5)),
                   (max(args.idle, args.lists) + 7) // 8, args.list_changes)
    port = free_port()
    import dev

    log = open(Path(data_dir) / "uvicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen([*dev.asgi_server_command(f"127.0.0.1:{port}"), "--no-access-log",
                               "--log-level", "warning"], cwd=ROOT, env=os.environ.copy(),
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_serving(port, "/api/v1/modes/", 60, lambda: server.poll() is None)
        where = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        hub = "Redis pub/sub" if os.environ.get("REDIS_URL") else "in-process hub"
        print(f"one uvicorn process (pid {server.pid}), {where}, {hub}, DEBUG off", flush=True)
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
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
              f"{p99 * 1000:.1f} ms; p99 / POST p50 = {p99 / post_p50:.2f} (aim <= {AIM_DELIVERY:g}: "
              f"{_met(p99 / post_p50 <= AIM_DELIVERY)})", flush=True)

        made, per_move = _cpu_per_move(port, seeded["cpu"], args.cpu_moves, server.pid)
        writer_token = seeded["cpu"][0][1][0][1]
        per_write = _cpu_per_baseline_write(port, writer_token, max(made, 1), server.pid)
        ratio = per_move / per_write
        print(f"CPU per move, its delivery to both seats' open streams included: {per_move * 1000:.2f} ms "
              f"over {made} moves; per bare authenticated single-row write (/bench/baseline-write/): "
              f"{per_write * 1000:.2f} ms over {max(made, 1)}; ratio {ratio:.2f} (aim <= {AIM_MOVE_RATIO:g}: "
              f"{_met(ratio <= AIM_MOVE_RATIO)})", flush=True)

        quiet = _quiet(args.quiet_seconds, server.pid)
        print(f"quiet: no stream open for {args.quiet_seconds:.0f} s: server CPU {quiet * 100:.2f}% of one "
              "core (the floor: the deadline clock, the hub's subscriber)", flush=True)
        idle = asyncio.run(_hold_idle(port, seeded["idle"], args.idle, args.idle_seconds, server.pid))
        share = idle["share"]
        print(f"idle: {idle['opened']} open streams for {idle['seconds']:.0f} s: server CPU "
              f"{idle['cpu']:.2f} s, {share * 100:.2f}% of one core (aim < {AIM_IDLE_SHARE * 100:g}%: "
              f"{_met(share < AIM_IDLE_SHARE)}); {idle['pings']} pings sent", flush=True)
        by_streams = idle["statements"] - idle["clock"]
        print(f"idle SQL: {by_streams} statements by the streams (aim 0: {_met(by_streams == 0)}); "
              f"{idle['clock']} by the deadline clock (its re-read every 30 s, whatever is open)", flush=True)
        kinds: dict[str, int] = {}
        moments = set()
        for entry in idle["recent"]:
            at, _, sql = entry.partition(" ")  # sql: "clock ..." or "other ..."
            moments.add(round(float(at) - idle["began"]))
            kinds[sql[:100]] = kinds.get(sql[:100], 0) + 1
        if moments:
            print(f"  at +{', +'.join(str(m) for m in sorted(moments))} s into the window:", flush=True)
        for sql, count in sorted(kinds.items(), key=lambda kind: -kind[1]):
            print(f"    {count} x {sql}", flush=True)

        per_stream = share / max(idle["opened"], 1)
        players = 1 / (per_move / MOVE_EVERY_SECONDS + per_stream)
        print(f"players in matches one core holds = 1 / (CPU per move / {MOVE_EVERY_SECONDS:g} s + one idle "
              f"stream's share of a core) = 1 / ({per_move * 1000:.2f} ms / {MOVE_EVERY_SECONDS:g} s + "
              f"{per_stream * 100:.5f}%) = {players:.0f} (each player moves once every "
              f"{MOVE_EVERY_SECONDS:g} s and holds one open stream; aim {AIM_PLAYERS}: "
              f"{_met(players >= AIM_PLAYERS)})", flush=True)
        lists = asyncio.run(_list_changes(port, seeded["idle"], args.lists, seeded["openers"], server.pid))
        per_change = lists["cpu"]
        print(f"lists: {lists['opened']} open match list streams, {lists['changes']} lobbies opened one "
              f"after another: server CPU per change {per_change * 1000:.1f} ms = "
              f"{per_change / per_write:.1f}x a baseline write, "
              f"{per_change / max(lists['opened'], 1) * 1000:.3f} ms per open list; from the POST to the "
              f"last list's message p50 {lists['p50'] * 1000:.0f} ms, max {lists['max'] * 1000:.0f} ms",
              flush=True)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
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
