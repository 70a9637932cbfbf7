"""The activity recompute task: run in-process everywhere, and end to end through a real Celery
worker on Redis writing to the PostgreSQL test database."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from backend.celery import app as celery_app
from guilds import services
from guilds.models import Guild
from guilds.tasks import guild_activity_recompute
from tests.factories import make_guild

ROOT = Path(__file__).resolve().parents[2]
# The run's broker (under pytest-xdist this worker's own database, tests/workers.py), else its cache's
# Redis; the worker consumes a queue of its own there. Never a database number of nobody's choosing.
BROKER_URL = os.environ.get("TEST_CELERY_BROKER_URL") or next(
    (url for url in (os.environ.get("CELERY_BROKER_URL", ""), os.environ.get("REDIS_URL", ""))
     if url.startswith(("redis://", "rediss://"))), "")
WINDOW = 14


# --- a small world with known activity ---------------------------------------------------------------

@dataclass(frozen=True)
class Seeded:
    guild_id: int
    created_day: date
    ledger: dict[date, int]
    disbanded: bool = False

    def expected_activity(self, today: date) -> float:
        """SPEC 4: person-runs of the last 14 days (today included) / 14, or / age in days if younger."""
        first = today - timedelta(days=WINDOW - 1)
        runs = sum(n for day, n in self.ledger.items() if first <= day <= today)
        return runs / max(1, min(WINDOW, (today - self.created_day).days + 1))


def _record(guild: Guild, today: date, runs_by_days_ago: dict[int, list[int]]) -> dict[date, int]:
    """Record runs through the service (several calls per day, as runs would), return the ledger."""
    ledger: dict[date, int] = {}
    for days_ago, counts in runs_by_days_ago.items():
        at = datetime.combine(today - timedelta(days=days_ago), datetime.min.time(), UTC)
        for i, count in enumerate(counts):
            services.guild_person_runs_record(guild_id=guild.pk, at=at + timedelta(hours=1 + i), count=count)
        ledger[at.date()] = ledger.get(at.date(), 0) + sum(counts)
    return ledger


def _seed_world() -> dict[str, Seeded]:
    """Four guilds: veteran, young (divisor = age), idle, and a disbanded one that keeps its value."""
    today = timezone.localdate(timezone.now(), UTC)
    veteran = make_guild(members=3, joined_days_ago=30)
    young = make_guild(members=1, joined_days_ago=3)
    idle = make_guild(members=2, joined_days_ago=20)
    gone = make_guild(joined_days_ago=30)
    world = {
        # 13 days ago is the window's first day; 14 and 40 days ago are outside it.
        "veteran": Seeded(veteran.pk, today - timedelta(days=30),
                          _record(veteran, today, {0: [2, 1], 5: [4], 13: [2], 14: [7], 40: [9]})),
        "young": Seeded(young.pk, today - timedelta(days=3), _record(young, today, {0: [3, 2], 2: [1]})),
        "idle": Seeded(idle.pk, today - timedelta(days=20), {}),
        "gone": Seeded(gone.pk, today - timedelta(days=30), _record(gone, today, {1: [5]}), disbanded=True),
    }
    services.guild_leave(player=gone.leader, guild_id=gone.pk)  # the last member leaves: disbanded
    return world


# The values the seeded world must get when recomputed on the day it was seeded.
EXPECTED_ON_SEED_DAY = {"veteran": (3 + 4 + 2) / 14, "young": (5 + 1) / 4, "idle": 0.0}


def _assert_activities(world: dict[str, Seeded], *, seed_day: date) -> None:
    guilds = Guild.objects.in_bulk([s.guild_id for s in world.values()])
    for name, seeded in world.items():
        guild = guilds[seeded.guild_id]
        if seeded.disbanded:
            assert guild.disbanded_at is not None
            assert (guild.activity, guild.activity_computed_at) == (0.0, None), name
            continue
        assert guild.activity_computed_at is not None, name
        computed_day = timezone.localdate(guild.activity_computed_at, UTC)
        if computed_day == seed_day:
            assert guild.activity == pytest.approx(EXPECTED_ON_SEED_DAY[name]), name
        # whichever day the worker computed on (a run across midnight), the formula holds
        assert guild.activity == pytest.approx(seeded.expected_activity(computed_day)), name


# --- in-process: runs everywhere -------------------------------------------------------------------

@pytest.mark.django_db
def test_activity_recompute_task_stores_each_living_guilds_average_person_runs() -> None:
    # given: a fixed moment, so the expected values are exact
    with time_machine.travel(datetime(2030, 3, 20, 15, 0, tzinfo=UTC), tick=False):
        world = _seed_world()

        # when
        updated = guild_activity_recompute.apply().get()

    # then: the three living guilds were updated with the SPEC values, the disbanded one untouched
    assert updated == 3
    _assert_activities(world, seed_day=date(2030, 3, 20))
    computed_at = Guild.objects.get(pk=world["veteran"].guild_id).activity_computed_at
    assert computed_at == datetime(2030, 3, 20, 15, 0, tzinfo=UTC)


# --- end to end: a real worker on Redis and PostgreSQL ------------------------------------------------

def _database_url() -> str:
    """The URL of the database this test runs in (pytest-django's test database)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(s['NAME'], safe='')}"


class Worker:
    """A ``celery worker`` subprocess consuming one private queue; its output is kept for failures."""

    def __init__(self, queue: str, broker_url: str = BROKER_URL) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
        env.update(DATABASE_URL=_database_url(), DB_POOL="0", CELERY_BROKER_URL=broker_url,
                   DJANGO_SETTINGS_MODULE="backend.settings", PYTHONUNBUFFERED="1")
        self.output: deque[str] = deque(maxlen=200)
        self.ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "backend", "worker",
             "--pool", "solo", "--concurrency", "1", "-Q", queue, "--hostname", f"{queue}@%h",
             "--loglevel", "INFO",
             "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.rstrip())
            if " ready." in line:
                self.ready.set()

    def log(self) -> str:
        return "\n".join(self.output)

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.ready.wait(0.2):
            assert self.process.poll() is None, f"the worker exited early:\n{self.log()}"
            assert time.monotonic() < deadline, f"the worker did not become ready:\n{self.log()}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_recomputes_activity_from_the_ledger() -> None:
    # given: committed guilds and ledger rows, and a worker on its own queue
    world = _seed_world()
    seed_day = timezone.localdate(timezone.now(), UTC)
    queue = f"test-activity-{uuid.uuid4().hex[:12]}"
    worker = Worker(queue)
    always_eager = celery_app.conf.task_always_eager
    try:
        worker.wait_ready(timeout=60)

        # when: the task is sent through the broker, as beat would
        celery_app.conf.task_always_eager = False
        with celery_app.connection_for_write(BROKER_URL) as broker:
            guild_activity_recompute.apply_async(queue=queue, connection=broker)

        # then: the worker computed every living guild's activity
        living = [s.guild_id for s in world.values() if not s.disbanded]
        deadline = time.monotonic() + 60
        while Guild.objects.filter(pk__in=living, activity_row__computed_at__isnull=True).exists():
            assert worker.process.poll() is None, f"the worker died:\n{worker.log()}"
            assert time.monotonic() < deadline, f"no activity computed within 60 s:\n{worker.log()}"
            time.sleep(0.2)
        _assert_activities(world, seed_day=seed_day)
        assert "guilds.tasks.guild_activity_recompute" in worker.log()
    finally:
        celery_app.conf.task_always_eager = always_eager
        worker.stop()
        _forget_queue(queue)


def _forget_queue(queue: str) -> None:
    """Drop the private queue's list and bindings from the broker so test runs leave no litter."""
    import redis

    client = redis.Redis.from_url(BROKER_URL)
    try:
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
        client.zrem("_kombu.binding_deadlines", queue)
    finally:
        client.close()
