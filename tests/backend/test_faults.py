"""Faults: Redis going down and coming back, with a redis-server that each test starts and stops.

Never the machine's Redis on 6379: every test runs its own ``redis-server`` on a free loopback
port, as the cache, the broker or both. Shown here: endpoints that need no broker keep answering
while Redis is down (the throttles fail open); a real worker that lost its broker resumes and runs
the next task sent to it against the PostgreSQL test database. (Two activity recomputes at once agree:
``tests/guilds/test_activity.py::test_two_recomputes_at_once_queue_on_the_advisory_lock_and_agree``.)
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.utils import timezone

from backend.celery import app as celery_app
from guilds.models import Guild
from guilds.services import guild_person_runs_record
from tests.factories import api_client, make_guild
from tests.guilds.test_activity_worker import Worker

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server binary")

RECOMPUTE = "guilds.tasks.guild_activity_recompute"
QUEUE = "celery"  # the default queue: the test's Redis is its own, nobody else consumes from it


class RedisServer:
    """A redis-server process of the test's own on a free loopback port, stopped and started at will."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.client().ping():
                    return
            except redis.ConnectionError:
                assert self.process.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not answer"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _reset_producer_pool() -> None:
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[RedisServer]:
    """This process publishes its Celery messages to the test's Redis."""
    monkeypatch.setenv("CELERY_BROKER_URL", redis_server.url(0))  # Celery prefers it to its conf
    conf = celery_app.conf
    saved = conf.broker_url, conf.broker_transport_options, conf.task_always_eager
    conf.broker_url, conf.broker_transport_options, conf.task_always_eager = (
        redis_server.url(0), {"socket_connect_timeout": 2}, False)
    _reset_producer_pool()
    try:
        yield redis_server
    finally:
        conf.broker_url, conf.broker_transport_options, conf.task_always_eager = saved
        _reset_producer_pool()


@pytest.fixture
def redis_cache(redis_server: RedisServer, settings) -> RedisServer:
    """The Django cache (throttle counters) on the test's Redis, with the production timeouts."""
    from django.conf import settings as live

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": redis_server.url(1), "OPTIONS": live.CACHES["default"].get(
                                       "OPTIONS", {"socket_connect_timeout": 1, "socket_timeout": 1})}}
    return redis_server


# --- endpoints while Redis is down --------------------------------------------------------------

@pytest.mark.django_db
def test_endpoints_that_need_no_broker_keep_answering_while_redis_is_down(
        redis_cache: RedisServer, broker: RedisServer) -> None:
    # given: a player in a guild, the cache and broker on a Redis that then goes down
    guild = make_guild(members=1)
    player = guild.leader
    player.user.set_password("correct-horse-battery")
    player.user.save()
    client = api_client(player)
    assert client.get("/api/v1/guilds/").status_code == 200  # throttles and cache work while it is up
    redis_server = redis_cache
    redis_server.stop()
    with pytest.raises(redis.ConnectionError):
        cache.get("anything")

    # when / then: reads, writes and the throttled auth routes still answer
    assert client.get("/api/v1/me/").status_code == 200
    assert client.get("/api/v1/guilds/").status_code == 200
    assert client.get(f"/api/v1/guilds/{guild.pk}/").status_code == 200
    edit = client.patch(f"/api/v1/guilds/{guild.pk}/", {"description": "still here"}, format="json")
    assert edit.status_code == 200
    token = api_client().post("/api/v1/auth/token/", {"username": player.user.username,
                                                     "password": "correct-horse-battery"}, format="json")
    assert token.status_code == 200 and "access" in token.json()
    register = api_client().post("/api/v1/auth/register/", {"username": "outage-newcomer",
                                                           "password": "deep-delve-2026"}, format="json")
    assert register.status_code == 201


# --- a worker across an outage ---------------------------------------------------------------------

@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_resumes_after_the_outage_and_runs_what_beat_sends_next(broker: RedisServer) -> None:
    # given: a guild with 14 person-runs today (activity 1.0 once recomputed) and a worker on the broker
    guild = make_guild(joined_days_ago=30)
    guild_person_runs_record(guild_id=guild.pk, at=timezone.now(), count=14)
    worker = Worker(QUEUE, broker_url=broker.url(0))
    try:
        worker.wait_ready(timeout=60)

        # when: Redis goes down and comes back, then the next tick of the schedule sends the recompute
        broker.stop()
        broker.start()
        sent = celery_app.send_task(RECOMPUTE)

        # then: the same worker process reconnected and ran the task: the effect is in the database
        deadline = time.monotonic() + 90
        while not Guild.objects.filter(pk=guild.pk, activity_row__computed_at__isnull=False).exists():
            assert worker.process.poll() is None, f"the worker died:\n{worker.log()}"
            assert time.monotonic() < deadline, f"the task did not run within 90 s:\n{worker.log()}"
            time.sleep(0.2)
        guild.refresh_from_db()
        assert guild.activity == pytest.approx(1.0)
        assert sent.id in worker.log()
    finally:
        worker.stop()
