#!/usr/bin/env python3
"""Deepdelve's commands for a fresh machine that has only Python.

    python3 dev.py serve   # make .venv, install requirements, migrate, load demo data,
                           # start a Celery worker with embedded beat and serve on :8000
    python3 dev.py test    # make .venv, install requirements-dev.txt (runtime + test tools), run the tests,
                           # a worker per core (docs/operations.md, "Running the tests")
    python3 dev.py check   # the same .venv; the lint (ruff) and the type check (mypy) of every app

Embedded defaults: SQLite and kombu's filesystem broker under var/. Set DATABASE_URL and
CELERY_BROKER_URL (and REDIS_URL for the cache) to use PostgreSQL and Redis instead.
Extra arguments after ``test`` go to pytest; after ``check`` to ruff (e.g. ``--fix``); after ``serve`` an
address (default 127.0.0.1:8000).
Benchmarks (not part of the tests): ``python3 dev.py bench NAME`` runs bench/bench_NAME.py.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
REQUIREMENTS = ROOT / "requirements.txt"  # what the server runs
DEV_REQUIREMENTS = ROOT / "requirements-dev.txt"  # -r requirements.txt + test, fuzz and type-check tools
STAMP = VENV / ".requirements.sha256"


def _digest(*files: Path) -> str:
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def _stamp() -> dict[str, str]:
    """What was installed last: {"runtime": digest, "dev": digest}; an old or broken stamp is empty."""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def ensure_venv(*, dev: bool = False) -> None:
    """Create .venv and install the pinned requirements when they changed since last time.

    ``serve`` needs the runtime pins only; ``test`` (and ``bench``) also the tools. A dev install
    covers the runtime one, so serving after testing installs nothing.
    """
    if not PYTHON.exists():
        print("==> creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = _stamp()
    runtime = _digest(REQUIREMENTS)
    wanted = _digest(REQUIREMENTS, DEV_REQUIREMENTS) if dev else runtime
    if stamp.get("dev" if dev else "runtime") == wanted:
        return
    requirements = DEV_REQUIREMENTS if dev else REQUIREMENTS
    print(f"==> installing {requirements.name}", flush=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "-q", "-r", str(requirements)], check=True)
    stamp["runtime"] = runtime
    if dev:
        stamp["dev"] = wanted
    STAMP.write_text(json.dumps(stamp))


def manage(*args: str) -> None:
    subprocess.run([str(PYTHON), str(ROOT / "manage.py"), *args], check=True, cwd=ROOT)


def serve(args: list[str]) -> int:
    ensure_venv()
    manage("migrate", "--noinput")
    manage("compile_catalogs")
    manage("load_demo_data")
    manage("load_demo_npcs")  # the demo guild's rescued NPCs, the demo players' items (issue 29)
    address = args[0] if args else "127.0.0.1:8000"
    print(f"==> serving on http://{address}/  (API docs: /api/docs/, admin: /admin/ as demo/demo)",
          flush=True)
    return run_servers(address)


#: What stops ``serve``: Ctrl-C, ``kill``, a closed terminal.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())
#: How long a child may take to stop after SIGTERM before it is killed.
STOP_SECONDS = 20.0


class _Stopped(Exception):
    """A stop signal arrived while ``run_servers`` waited on its children."""


_stopping = {"now": False}


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    if not _stopping["now"]:  # once: a second signal must not cut the stopping short
        _stopping["now"] = True
        raise _Stopped(signum)


#: Seconds the ASGI server lets open requests (streams never end by themselves) finish when it is stopped.
GRACEFUL_SECONDS = 3


def asgi_server_command(address: str) -> list[str]:
    """uvicorn serving ``backend.asgi`` (the API, its streams and, with DEBUG, the static files) on
    ``host:port``: one process, h11 and the standard event loop, so it runs on any machine."""
    host, _, port = address.rpartition(":")
    return [str(PYTHON), "-m", "uvicorn", "backend.asgi:application", "--host", host or "127.0.0.1",
            "--port", port, "--http", "h11", "--loop", "asyncio",
            "--timeout-graceful-shutdown", str(GRACEFUL_SECONDS)]


def run_servers(address: str) -> int:
    """Run the Celery worker (with its embedded beat) and the ASGI server until either ends or a stop
    signal arrives, then stop both, and everything they started, before returning.

    Each child leads a process group of its own, so the beat process the worker starts goes with it, and
    a signal sent to this process alone (``kill``, a supervisor) still stops them all: without this a
    SIGTERM or SIGHUP ended ``serve`` and left its server and worker running.
    """
    _stopping["now"] = False
    previous = {signum: signal.signal(signum, _on_stop_signal) for signum in STOP_SIGNALS}
    children: list[subprocess.Popen[bytes]] = []
    try:
        children.append(_start([str(PYTHON), "-m", "celery", "-A", "backend", "worker", "--beat",
                                "--loglevel", "INFO", "--pool", "solo",
                                "--schedule", str(ROOT / "var" / "celerybeat-schedule")]))
        children.append(_start(asgi_server_command(address)))
        while True:  # until a child ends (the other is then stopped too) or a signal arrives
            for child in children:
                if child.poll() is not None:
                    return child.returncode
            time.sleep(0.2)
    except _Stopped:
        return 0
    finally:
        _stopping["now"] = True
        _stop(children)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=ROOT, start_new_session=os.name != "nt")


def _stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each child's process group; what is left after ``STOP_SECONDS`` is killed."""
    for child in children:
        _signal_group(child, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for child in children:
        while _group_alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        _signal_group(child, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        child.wait()


def _signal_group(child: subprocess.Popen[bytes], signum: int) -> None:
    try:
        if os.name == "nt":
            child.send_signal(signum)
        else:
            os.killpg(child.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass  # the group is already gone


def _group_alive(child: subprocess.Popen[bytes]) -> bool:
    """Whether the child or anything left in its process group still runs (the child is reaped here)."""
    if child.poll() is None:
        return True
    if os.name == "nt":
        return False
    try:
        os.killpg(child.pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


#: At most this many test workers: each needs Redis databases of its own, and Redis has 16 (tests/workers.py).
MAX_TEST_WORKERS = 8
#: Options by which the caller chooses how, or whether, tests run in parallel (a debugger needs them
#: in this process).
_OWN_PARALLELISM = ("-n", "--numprocesses", "--dist", "--pdb", "--trace", "no:xdist")


def test_workers(args: list[str], cores: int) -> list[str]:
    """pytest-xdist's options: a worker per core, at most ``MAX_TEST_WORKERS`` (tests/workers.py keeps the
    modules that need it in one worker); none on one core or where the caller chose (``_OWN_PARALLELISM``)."""
    if cores < 2 or any(arg.startswith(_OWN_PARALLELISM) or arg.endswith("no:xdist") for arg in args):
        return []
    return ["-n", str(min(cores, MAX_TEST_WORKERS))]


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))  # the cores this process may use, not the machine's
    return os.cpu_count() or 1


#: Where the test run's processes keep compiled modules: outside the source tree (as PYTHONDONTWRITEBYTECODE
#: wants), and shared by every worker and every server a test starts.
PYCACHE = VENV / "pycache"


def test_environment(environ: dict[str, str]) -> dict[str, str]:
    """The test run's environment: compiled modules cached in ``PYCACHE``. Without a cache, each worker and
    each server a test starts compiles every module and rewrites every test's asserts again (about 8 s of
    a core per worker; docs/operations.md, "Running the tests")."""
    env = {name: value for name, value in environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
    return env


def test(args: list[str]) -> int:
    ensure_venv(dev=True)
    return subprocess.call([str(PYTHON), "-m", "pytest", *test_workers(args, _cores()), *args], cwd=ROOT,
                           env=test_environment(dict(os.environ)))


def bench(args: list[str]) -> int:
    ensure_venv(dev=True)
    available = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "bench").glob("bench_*.py"))
    if not args or args[0] not in available:
        print(f"usage: python3 dev.py bench {{{'|'.join(available)}}} [options]")
        return 2
    return subprocess.call([str(PYTHON), str(ROOT / "bench" / f"bench_{args[0]}.py"), *args[1:]], cwd=ROOT)


def check(args: list[str]) -> int:
    """The lint (ruff) and the type check (mypy), both configured in pyproject.toml; fails if either does."""
    ensure_venv(dev=True)
    linted = subprocess.call([str(BIN / "ruff"), "check", *args], cwd=ROOT)
    typed = subprocess.call([str(PYTHON), "-m", "mypy"], cwd=ROOT)
    return linted or typed


def main() -> int:
    commands = {"serve": serve, "test": test, "bench": bench, "check": check}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
