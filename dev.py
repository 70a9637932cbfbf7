#!/usr/bin/env python3
"""Deepdelve's two commands for a fresh machine that has only Python.

    python3 dev.py serve   # make .venv, install requirements, migrate, load demo data,
                           # start a Celery worker with embedded beat and serve on :8000
    python3 dev.py test    # make .venv, install requirements-dev.txt (runtime + test tools), run the tests

Embedded defaults: SQLite and kombu's filesystem broker under var/. Set DATABASE_URL and
CELERY_BROKER_URL (and REDIS_URL for the cache) to use PostgreSQL and Redis instead.
Extra arguments after ``test`` go to pytest; after ``serve`` an address (default 127.0.0.1:8000).
Benchmarks (not part of the tests): ``python3 dev.py bench NAME`` runs bench/bench_NAME.py.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

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
    manage("load_demo_data")
    address = args[0] if args else "127.0.0.1:8000"
    worker = subprocess.Popen(
        [str(PYTHON), "-m", "celery", "-A", "backend", "worker", "--beat", "--loglevel", "INFO",
         "--pool", "solo", "--schedule", str(ROOT / "var" / "celerybeat-schedule")],
        cwd=ROOT,
    )
    print(f"==> serving on http://{address}/  (API docs: /api/docs/, admin: /admin/ as demo/demo)",
          flush=True)
    try:
        return subprocess.call([str(PYTHON), str(ROOT / "manage.py"), "runserver", "--noreload", address],
                               cwd=ROOT)
    except KeyboardInterrupt:
        return 0
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def test(args: list[str]) -> int:
    ensure_venv(dev=True)
    return subprocess.call([str(PYTHON), "-m", "pytest", *args], cwd=ROOT)


def bench(args: list[str]) -> int:
    ensure_venv(dev=True)
    available = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "bench").glob("bench_*.py"))
    if not args or args[0] not in available:
        print(f"usage: python3 dev.py bench {{{'|'.join(available)}}} [options]")
        return 2
    return subprocess.call([str(PYTHON), str(ROOT / "bench" / f"bench_{args[0]}.py"), *args[1:]], cwd=ROOT)


def main() -> int:
    commands = {"serve": serve, "test": test, "bench": bench}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
