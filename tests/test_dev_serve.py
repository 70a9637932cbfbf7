"""``dev.py serve`` serves through an ASGI server (uvicorn: the API, its streams, the static files), and stops
its server and worker (and the worker's beat) when it is stopped by a signal.

Each test runs ``dev.run_servers`` (what ``serve`` runs once the virtualenv, the migrations and the demo
data are in place) in a process of its own on the embedded defaults (a migrated SQLite file of the
test's own, the filesystem broker) and a free port, sends it a signal, and checks that every process it
started has ended. Before the fix a SIGTERM or SIGHUP ended ``serve`` alone: both children went on.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads the process tree from /proc")


def _embedded_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}}
    return {**env, "DEEPDELVE_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated embedded database, copied by each test (migrating takes seconds)."""
    data_dir = tmp_path_factory.mktemp("migrated")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT,
                   env=_embedded_env(data_dir), check=True, capture_output=True)
    return data_dir / "deepdelve.sqlite3"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _children_of() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children_of(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for a reaper that a container may lack)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture
def serving(migrated: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], set[int]]]:
    """``run_servers`` up: the page answers and the worker has started its beat."""
    shutil.copy(migrated, tmp_path / "deepdelve.sqlite3")
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    code = "import sys, dev; sys.exit(dev.run_servers(sys.argv[1]))"
    process = subprocess.Popen([sys.executable, "-c", code, f"127.0.0.1:{port}"], cwd=ROOT,
                               env=_embedded_env(tmp_path), stdout=log, stderr=subprocess.STDOUT)
    started: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            started = _descendants(process.pid)
            # the server, the worker and the beat process the worker starts
            if len(started) >= 3 and _answers(f"http://127.0.0.1:{port}/play/cell-capture/"):
                break
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        else:
            pytest.fail("serve did not come up:\n" + (tmp_path / "serve.log").read_text())
        yield process, _descendants(process.pid)
    finally:
        for pid in _descendants(process.pid) | started:  # never leave a process behind, whatever happened
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.kill()
        process.wait()
        log.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_a_stop_signal_to_serve_stops_its_server_and_worker(
    serving: tuple[subprocess.Popen[bytes], set[int]], signum: signal.Signals
) -> None:
    # given serve with its server, worker and beat running
    process, children = serving
    # when serve alone (not its process group) gets the signal
    process.send_signal(signum)
    process.wait(timeout=60)
    # then nothing it started is left running, and it ended of its own accord
    assert [pid for pid in children if _running(pid)] == []
    assert process.returncode == 0


def _status(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", "")


def test_serve_serves_the_static_files_and_the_streams_through_asgi(
    serving: tuple[subprocess.Popen[bytes], set[int]]
) -> None:
    # given serve running (uvicorn over backend.asgi)
    process, _ = serving
    address = next(arg for arg in process.args if isinstance(arg, str) and arg.startswith("127.0.0.1:"))
    base = f"http://{address}"
    # then the static files are served with DEBUG on, as runserver served them
    assert _status(f"{base}/static/client/deepdelve.js")[0] == 200
    # and a stream route answers (its async view refuses a caller without credentials)
    assert _status(f"{base}/api/v1/matches/1/stream/") == (401, "application/json")
