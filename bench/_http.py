"""A small closed-loop HTTP load generator for the benchmarks: threads, keep-alive connections,
bounded duration and request counts, 127.0.0.1 only. Stdlib only."""
from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class LoadResult:
    label: str
    connections: int
    requests: int
    errors: int
    seconds: float
    p50_ms: float
    p99_ms: float
    statuses: dict[int, int]
    latencies: tuple[float, ...] = ()

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def merge(results: list[LoadResult]) -> LoadResult:
    """One result from several measurement windows of the same scenario (e.g. interleaved rounds)."""
    latencies = sorted(x for r in results for x in r.latencies)
    statuses: dict[int, int] = {}
    for result in results:
        for status, count in result.statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    first = results[0]
    return LoadResult(label=first.label, connections=first.connections, requests=len(latencies),
                      errors=sum(r.errors for r in results), seconds=sum(r.seconds for r in results),
                      p50_ms=percentile(latencies, 0.50) * 1000, p99_ms=percentile(latencies, 0.99) * 1000,
                      statuses=statuses, latencies=tuple(latencies))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def get(port: int, path: str, headers: dict[str, str], timeout: float = 30) -> tuple[int, bytes]:
    """One GET on a fresh connection (setup calls, not measured)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_until_serving(port: int, path: str, timeout: float,
                       alive: Callable[[], bool] = lambda: True) -> None:
    """Poll until the server answers ``path`` with anything at all (or fail after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            get(port, path, {}, timeout=2)
            return
        except OSError:
            if not alive():
                raise RuntimeError("the server process exited before serving") from None
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing served on 127.0.0.1:{port} within {timeout} s") from None
            time.sleep(0.2)


def run_load(*, label: str, port: int, path: str, headers: dict[str, str], connections: int,
             seconds: float, warmup: float, max_requests_per_connection: int = 200_000) -> LoadResult:
    """Closed loop: ``connections`` threads, each with one keep-alive connection, sending GETs
    back to back. Requests finishing during ``warmup`` are not counted; the window is
    ``seconds`` long. A non-2xx status or a transport error counts as an error."""
    barrier = threading.Barrier(connections + 1)
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0
    clock: dict[str, float] = {}

    def worker() -> None:
        nonlocal errors
        mine: list[float] = []
        my_statuses: dict[int, int] = {}
        my_errors = 0
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        barrier.wait()
        start, end = clock["start"], clock["end"]
        sent = 0
        while sent < max_requests_per_connection:
            began = time.perf_counter()
            if began >= end:
                break
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
            except (OSError, http.client.HTTPException):
                status = -1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            finished = time.perf_counter()
            sent += 1
            if began >= start and finished <= end:
                mine.append(finished - began)
                my_statuses[status] = my_statuses.get(status, 0) + 1
                if not 200 <= status < 300:
                    my_errors += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            for status, count in my_statuses.items():
                statuses[status] = statuses.get(status, 0) + count
            errors += my_errors

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    now = time.perf_counter()
    clock["start"] = now + warmup
    clock["end"] = now + warmup + seconds
    barrier.wait()
    for thread in threads:
        thread.join(timeout=warmup + seconds + 60)
    latencies.sort()
    return LoadResult(label=label, connections=connections, requests=len(latencies), errors=errors,
                      seconds=seconds, p50_ms=percentile(latencies, 0.50) * 1000,
                      p99_ms=percentile(latencies, 0.99) * 1000, statuses=statuses,
                      latencies=tuple(latencies))
