"""Closed-loop HTTP clients for the run benchmark (bench/bench_runs.py): each thread is one player's
client on one keep-alive connection, doing what that player would do next (start a lobby, act on
its turn, poll the battle), with every request timed under a label. Stdlib only, 127.0.0.1 only.
"""
from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench._http import LoadResult, percentile


@dataclass
class Window:
    """The measured interval (perf_counter seconds): requests that begin and end inside count."""

    start: float
    end: float


@dataclass
class Record:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    codes: dict[str, dict[str, int]] = field(default_factory=dict)  # error codes of non-2xx answers


class Conn:
    """One keep-alive connection of one client; ``call`` sends a request and times it under ``label``."""

    def __init__(self, port: int, window: Window, record: Record) -> None:
        self.port, self.window, self.record = port, window, record
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def close(self) -> None:
        self._conn.close()

    def call(self, method: str, path: str, token: str, body: Any = None,
             label: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif method == "POST":
            payload = b""
        began = time.perf_counter()
        try:
            self._conn.request(method, path, body=payload, headers=headers)
            response = self._conn.getresponse()
            raw = response.read()
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                self._conn.close()
        except (OSError, http.client.HTTPException):
            status, raw = -1, b""
            self._conn.close()
            self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        finished = time.perf_counter()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        if label is not None and began >= self.window.start and finished <= self.window.end:
            self.record.latencies.setdefault(label, []).append(finished - began)
            statuses = self.record.statuses.setdefault(label, {})
            statuses[status] = statuses.get(status, 0) + 1
            if not 200 <= status < 300:
                code = str(status)
                if isinstance(data, dict) and isinstance(data.get("error"), dict):
                    code = str(data["error"].get("code", status))
                codes = self.record.codes.setdefault(label, {})
                codes[code] = codes.get(code, 0) + 1
        return status, data


class Client:
    """One player's behaviour; ``step`` makes the next request(s) and returns False when done."""

    def step(self, conn: Conn, window: Window) -> bool:
        raise NotImplementedError


class BaselineWriter(Client):
    def __init__(self, token: str, label: str) -> None:
        self.token, self.label = token, label

    def step(self, conn: Conn, window: Window) -> bool:
        conn.call("POST", "/bench/baseline-write/", self.token, label=self.label)
        return True


class Starter(Client):
    """The host of prepared lobbies (party assembled, weapons chosen) starts them one after another."""

    def __init__(self, lobbies: Sequence[tuple[str, int]], label: str) -> None:
        self.lobbies: deque[tuple[str, int]] = deque(lobbies)
        self.label = label
        self.exhausted = False

    def step(self, conn: Conn, window: Window) -> bool:
        if not self.lobbies:
            self.exhausted = time.perf_counter() < window.end
            return False
        token, run_id = self.lobbies.popleft()
        conn.call("POST", f"/api/v1/runs/{run_id}/start/", token, label=self.label)
        return True


def choose_action(allowed: Sequence[dict[str, Any]], rng: random.Random, skip_share: float) -> dict[str, Any]:
    """Mostly an attack on a random target the battle allows, sometimes a skip."""
    attacks = [a for a in allowed if a.get("kind") == "attack"]
    skips = [a for a in allowed if a.get("kind") == "skip"]
    if skips and (not attacks or rng.random() < skip_share):
        return {"kind": "skip"}
    if attacks:
        return dict(rng.choice(attacks))
    return dict(allowed[0]) if allowed else {"kind": "skip"}


@dataclass
class BattleView:
    """What a client knows of its battle: the turn to answer, who is awaited, what it may do."""

    battle_id: int
    turn: int = 0
    awaiting: int | None = None
    last_event: int = 0
    allowed: list[dict[str, Any]] = field(default_factory=list)
    outcome: str = "ongoing"

    def update(self, body: dict[str, Any]) -> None:
        self.turn, self.awaiting = body["turn"], body["awaiting"]
        self.last_event, self.allowed = body["last_event"], body["allowed_actions"]
        self.outcome = body["outcome"]


class SoloFighter(Client):
    """Alone in its run: after its action the enemies' turns resolve in the same request, so the
    answer's ``next_turn`` is its own next turn; it acts back to back (or every ``think`` seconds)
    and reads the battle only to resync after a refusal."""

    def __init__(self, token: str, view: BattleView, label: str, resync_label: str, seed: int,
                 skip_share: float, think: float = 0.0) -> None:
        self.token, self.view, self.label, self.resync_label = token, view, label, resync_label
        self.rng, self.skip_share, self.think = random.Random(seed), skip_share, think
        self.finished = False
        self._next_at = 0.0

    def step(self, conn: Conn, window: Window) -> bool:
        view = self.view
        if self.think:  # a player who takes ``think`` seconds per turn (jittered), not a saturating loop
            pause = min(self._next_at - time.perf_counter(), window.end - time.perf_counter())
            if pause > 0:
                time.sleep(pause)
            self._next_at = time.perf_counter() + self.think * self.rng.uniform(0.5, 1.5)
        body = {"turn": view.turn, "action": choose_action(view.allowed, self.rng, self.skip_share),
                "idempotency_key": uuid.uuid4().hex}
        status, data = conn.call("POST", f"/api/v1/battles/{view.battle_id}/actions/", self.token, body,
                                 label=self.label)
        if status == 200 and isinstance(data, dict):
            view.turn = data["next_turn"]
            if data["outcome"] != "ongoing":
                self.finished = True
                return False
            return True
        status, data = conn.call("GET", f"/api/v1/battles/{view.battle_id}/?since={view.last_event}",
                                 self.token, label=self.resync_label)
        if status == 200 and isinstance(data, dict):
            view.update(data)
        return view.outcome == "ongoing"


class PartyFighter(Client):
    """One of a party in one battle: polls the battle every ``poll_interval`` seconds (events
    since the last one it saw) and acts when the battle awaits it, naming the turn it read."""

    def __init__(self, token: str, player_id: int, view: BattleView, label: str, poll_label: str, seed: int,
                 skip_share: float, poll_interval: float) -> None:
        self.token, self.player_id, self.view = token, player_id, view
        self.label, self.poll_label = label, poll_label
        self.rng, self.skip_share, self.poll_interval = random.Random(seed), skip_share, poll_interval
        self.finished = False

    def step(self, conn: Conn, window: Window) -> bool:
        view = self.view
        if view.awaiting == self.player_id and view.outcome == "ongoing":
            body = {"turn": view.turn, "action": choose_action(view.allowed, self.rng, self.skip_share),
                    "idempotency_key": uuid.uuid4().hex}
            status, data = conn.call("POST", f"/api/v1/battles/{view.battle_id}/actions/", self.token, body,
                                     label=self.label)
            view.awaiting = None  # whatever the answer, read the battle again before acting
            if status == 200 and isinstance(data, dict) and data["outcome"] != "ongoing":
                self.finished = True
                return False
            return True
        status, data = conn.call("GET", f"/api/v1/battles/{view.battle_id}/?since={view.last_event}",
                                 self.token, label=self.poll_label)
        if status == 200 and isinstance(data, dict):
            view.update(data)
            if view.outcome != "ongoing":
                self.finished = True
                return False
        if view.awaiting != self.player_id:
            pause = min(self.poll_interval, window.end - time.perf_counter())
            if pause > 0:
                time.sleep(pause)
        return True


def drive(clients: Sequence[Client], *, port: int, seconds: float, warmup: float) -> tuple[Record, Window]:
    """Run every client on its own thread and connection for ``warmup + seconds``; return what the
    measured window recorded."""
    record = Record()
    lock = threading.Lock()
    barrier = threading.Barrier(len(clients) + 1)
    window = Window(0.0, 0.0)

    def worker(client: Client) -> None:
        mine = Record()
        conn = Conn(port, window, mine)
        barrier.wait()
        try:
            while time.perf_counter() < window.end:
                if not client.step(conn, window):
                    break
        finally:
            conn.close()
        with lock:
            for label, values in mine.latencies.items():
                record.latencies.setdefault(label, []).extend(values)
            for label, counts in mine.statuses.items():
                target = record.statuses.setdefault(label, {})
                for status, n in counts.items():
                    target[status] = target.get(status, 0) + n
            for label, code_counts in mine.codes.items():
                target_codes = record.codes.setdefault(label, {})
                for code, n in code_counts.items():
                    target_codes[code] = target_codes.get(code, 0) + n

    threads = [threading.Thread(target=worker, args=(client,), daemon=True) for client in clients]
    for thread in threads:
        thread.start()
    now = time.perf_counter()
    window.start, window.end = now + warmup, now + warmup + seconds
    barrier.wait()
    for thread in threads:
        thread.join(timeout=warmup + seconds + 120)
    return record, window


def result(record: Record, label: str, *, connections: int, seconds: float) -> LoadResult:
    latencies = sorted(record.latencies.get(label, []))
    statuses = record.statuses.get(label, {})
    errors = sum(n for status, n in statuses.items() if not 200 <= status < 300)
    return LoadResult(label=label, connections=connections, requests=len(latencies), errors=errors,
                      seconds=seconds, p50_ms=percentile(latencies, 0.50) * 1000,
                      p99_ms=percentile(latencies, 0.99) * 1000, statuses=dict(statuses),
                      latencies=tuple(latencies))
