"""Parallel test workers stay apart (tests/workers.py); ``--db-tests-only`` keeps exactly the database tests.

The nested runs start pytest itself on the small case files in tests/worker_cases/, which the suite never
collects (they are not named ``test_*.py``).
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.workers import GIVEN, redis_db, with_redis_db, worker_redis_urls

ROOT = Path(__file__).resolve().parents[1]
CASES = "tests/worker_cases"
CI = {"REDIS_URL": "redis://127.0.0.1:6379/1", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}


def _nested_pytest(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """pytest on case files, as a run of its own: not a worker of this run, whatever this process is."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-o", "python_files=case_*.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("base", "worker", "expected"), [
    (CI, "gw0", {"REDIS_URL": "redis://127.0.0.1:6379/1", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}),
    (CI, "gw1", {"REDIS_URL": "redis://127.0.0.1:6379/3", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/2"}),
    ({"REDIS_URL": "redis://h:6379/12", "CELERY_BROKER_URL": "redis://h:6379/13"}, "gw1",
     {"REDIS_URL": "redis://h:6379/14", "CELERY_BROKER_URL": "redis://h:6379/15"}),
    ({"REDIS_URL": "redis://h:6379/4", "CELERY_BROKER_URL": "filesystem://"}, "gw1",
     {"REDIS_URL": "redis://h:6379/5"}),
    (CI, "", {}),  # not a worker: the URLs as given
])
def test_each_worker_gets_redis_databases_of_its_own(base: dict[str, str], worker: str,
                                                       expected: dict[str, str]) -> None:
    environ = {**base, "PYTEST_XDIST_WORKER": worker, "PYTEST_XDIST_WORKER_COUNT": "2"} if worker else base
    assert worker_redis_urls(environ) == expected


def test_more_workers_than_redis_has_databases_for_is_refused() -> None:
    environ = {**CI, "PYTEST_XDIST_WORKER": "gw0", "PYTEST_XDIST_WORKER_COUNT": "9"}
    with pytest.raises(pytest.UsageError, match="Redis databases up to 17"):
        worker_redis_urls(environ)


def test_this_process_uses_the_cache_database_its_worker_was_given() -> None:
    given = worker_redis_urls({**os.environ, **GIVEN}) or {"REDIS_URL": GIVEN.get("REDIS_URL", "")}
    if not given["REDIS_URL"].startswith("redis://"):
        pytest.skip("no Redis cache in this run")
    assert settings.CACHES["default"]["LOCATION"] == given["REDIS_URL"] == os.environ["REDIS_URL"]


@pytest.mark.redis
def test_two_workers_clearing_their_caches_at_once_keep_each_others_keys(tmp_path: Path) -> None:
    # given two workers on the two Redis databases this process owns (its cache's and its broker's)
    owned = sorted({redis_db(os.environ[name]) for name in ("REDIS_URL", "CELERY_BROKER_URL")
                    if os.environ.get(name, "").startswith("redis://")})
    if owned != list(range(owned[0], owned[0] + 2)):
        pytest.skip("needs the cache and the broker in two adjacent Redis databases")
    env = {"REDIS_URL": with_redis_db(os.environ["REDIS_URL"], owned[0]),
           "CELERY_BROKER_URL": "filesystem://", "WORKER_CASES_DIR": str(tmp_path)}
    # when one sets a key while the other clears its cache (as every test starts)
    run = _nested_pytest("-n", "2", f"{CASES}/case_cache.py", env=env)
    # then the key is still there
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_db_tests_only_keeps_exactly_the_tests_that_may_use_the_database() -> None:
    run = _nested_pytest("--collect-only", "--db-tests-only", f"{CASES}/case_selection.py", env={})
    assert run.returncode == 0, run.stdout + run.stderr
    kept = {line.rsplit("::", 1)[1] for line in run.stdout.splitlines() if "::" in line}
    assert kept == {"test_marked", "test_with_db", "test_through_a_fixture", "test_with_a_live_server",
                    "test_with_the_admin", "test_with_the_client_but_no_database",
                    "test_counting_a_database_run", "test_case", "test_a_page"}
    assert "2 deselected" in run.stdout  # test_pure and test_simple


@pytest.mark.parametrize(("database_url", "outcome"), [
    ("postgres://postgres@127.0.0.1:5432/deepdelve_cases", "1 skipped"),  # skipped before it connects
    ("", "1 passed"),  # the embedded default
])
def test_a_page_served_in_process_runs_on_the_embedded_default_only(database_url: str, outcome: str) -> None:
    run = _nested_pytest("-rs", "-k", "test_a_page", f"{CASES}/case_selection.py",
                         env={"DATABASE_URL": database_url})
    assert run.returncode == 0, run.stdout + run.stderr
    assert outcome in run.stdout
    assert ("a page served in-process" in run.stdout) == bool(database_url)


def _dev() -> Any:
    """dev.py as a module (it is a script at the project's root, not a package)."""
    spec = importlib.util.spec_from_file_location("dev_for_workers", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return dev


def test_dev_test_runs_a_worker_per_core_unless_told_otherwise() -> None:
    dev = _dev()
    assert dev.test_workers([], cores=2) == ["-n", "2"]
    assert dev.test_workers(["tests/backend", "-k", "fuzz"], cores=64) == ["-n", "8"]
    for own in (["-n", "3"], ["-n4"], ["--numprocesses=2"], ["-p", "no:xdist"], ["-pno:xdist"], ["--pdb"],
                ["--dist", "load"]):
        assert dev.test_workers(own, cores=2) == [], own
    assert dev.test_workers([], cores=1) == []


def test_dev_test_caches_compiled_modules_outside_the_source_tree() -> None:
    dev = _dev()
    env = dev.test_environment({"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/bin"})
    assert env == {"PATH": "/bin", "PYTHONPYCACHEPREFIX": str(ROOT / ".venv" / "pycache")}
    assert dev.test_environment({"PYTHONPYCACHEPREFIX": "/elsewhere"})["PYTHONPYCACHEPREFIX"] == "/elsewhere"
