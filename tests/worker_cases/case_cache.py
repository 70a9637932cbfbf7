"""Two tests for two workers at once (run by tests/test_workers.py, never collected by the suite)."""
from __future__ import annotations

import os
import time
from pathlib import Path

from django.core.cache import cache

MEETING = Path(os.environ.get("WORKER_CASES_DIR", "."))


def _await(name: str) -> None:
    deadline = time.monotonic() + 60
    while not (MEETING / name).exists():
        assert time.monotonic() < deadline, f"{name} never came: are both tests in one worker?"
        time.sleep(0.05)


def test_a_key_survives_the_other_workers_clear() -> None:
    cache.set("mine", os.environ["PYTEST_XDIST_WORKER"], timeout=60)
    (MEETING / "set").touch()
    _await("cleared")
    assert cache.get("mine") == os.environ["PYTEST_XDIST_WORKER"]


def test_the_other_worker_clears_its_cache() -> None:
    _await("set")
    cache.clear()
    (MEETING / "cleared").touch()
    assert cache.get("mine") is None
