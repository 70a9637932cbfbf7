"""Where the machine's CPU went during a measurement window (Linux /proc; empty figures elsewhere):
the load generator (this process), gunicorn (master and workers), the PostgreSQL backends
connected to the benchmark's database, and everything else (other people's tests and benchmarks
on a shared machine). This is how the load benchmark reports its noise."""
from __future__ import annotations

import os
from dataclasses import dataclass

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_cpu(pid: int) -> float:
    """utime + stime of one process in seconds (0 if it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(entry))
    return out


def _machine() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return (total - idle) / TICK, total / TICK


@dataclass(frozen=True)
class CpuSnapshot:
    client: float
    server: float
    database: float
    busy: float
    total: float


def snapshot(server_pid: int, database_pids: list[int]) -> CpuSnapshot:
    server = _proc_cpu(server_pid) + sum(_proc_cpu(pid) for pid in _children(server_pid))
    times = os.times()
    busy, total = _machine()
    return CpuSnapshot(client=times.user + times.system, server=server,
                       database=sum(_proc_cpu(pid) for pid in database_pids), busy=busy, total=total)


@dataclass
class CpuShare:
    """Accumulated CPU seconds over several windows, shown as percent of one core (2 cores = 200%)."""

    wall: float = 0.0
    client: float = 0.0
    server: float = 0.0
    database: float = 0.0
    busy: float = 0.0
    total: float = 0.0

    def add(self, before: CpuSnapshot, after: CpuSnapshot, wall: float) -> None:
        self.wall += wall
        self.client += after.client - before.client
        # Workers restarted in between would make this negative; never report less than zero.
        self.server += max(0.0, after.server - before.server)
        self.database += max(0.0, after.database - before.database)
        self.busy += after.busy - before.busy
        self.total += after.total - before.total

    def per_request(self, rps: float) -> tuple[float, float]:
        """(gunicorn, PostgreSQL) CPU milliseconds per request at ``rps`` requests per second (the
        windows' warm-up seconds are counted in both the CPU and, at the same rate, the requests)."""
        requests = rps * self.wall
        if not requests:
            return float("nan"), float("nan")
        return 1000 * self.server / requests, 1000 * self.database / requests

    def line(self) -> str:
        if not self.wall or not self.total:
            return "CPU accounting unavailable (no /proc)"
        cores = self.total / self.wall

        def pct(seconds: float) -> str:
            return f"{100 * seconds / self.wall:.0f}%"

        others = max(0.0, self.busy - self.client - self.server - self.database)
        idle = max(0.0, self.total - self.busy)
        return (f"CPU ({cores:.0f} cores = {100 * cores:.0f}%): load generator {pct(self.client)}, gunicorn "
                f"{pct(self.server)}, PostgreSQL backends of this database {pct(self.database)}, everything "
                f"else on the machine {pct(others)}, idle {pct(idle)}")
