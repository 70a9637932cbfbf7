"""Faults: Redis going down and coming back, with a redis-server that each test starts and stops.

Never the machine's Redis on 6379: every test runs its own ``redis-server`` on a free loopback
port, as the cache, the broker or both. Shown here: endpoints that need no broker keep answering
while Redis is down (the throttles fail open); work enqueued through the outbox is kept while the
broker is down and published by the relay once it is back; a real worker that lost its broker
resumes and runs it against the PostgreSQL test database; a rolled-back transaction enqueues
nothing; two relays at once publish each message once. (Two activity recomputes at once agree:
``tests/guilds/test_activity.py::test_two_recomputes_at_once_queue_on_the_advisory_lock_and_agree``.)
"""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from backend import outbox
from backend.celery import app as celery_app
from backend.models import OutboxMessage
from guilds.models import Guild
from guilds.services import guild_person_runs_record
from tests.dungeons.concurrency import all_at_once
from tests.factories import api_client, make_guild
from tests.guilds.test_activity_worker import Worker

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server binary")

RECOMPUTE = "guilds.tasks.guild_activity_recompute"
PROBE = "tests.outbox_probe"  # no such task here: sent by name, never consumed (no worker runs)
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

    def queued(self, queue: str = QUEUE) -> list[dict]:
        """The messages waiting in a Celery queue (kombu's Redis transport keeps a list per queue)."""
        return [json.loads(raw) for raw in self.client().lrange(queue, 0, -1)]


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
def redis_cache(redis_server: RedisServer, settings) -> RedisServer:  # noqa: ANN001 - pytest-django fixture
    """The Django cache (throttle counters) on the test's Redis, with the production timeouts."""
    from django.conf import settings as live

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": redis_server.url(1), "OPTIONS": live.CACHES["default"].get(
                                       "OPTIONS", {"socket_connect_timeout": 1, "socket_timeout": 1})}}
    return redis_server


def _later(minutes: int) -> datetime:
    return timezone.now() + timedelta(minutes=minutes)


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


# --- the outbox -----------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_enqueues_nothing_and_a_commit_enqueues_once(broker: RedisServer) -> None:
    # when: the transaction that enqueued rolls back
    with pytest.raises(RuntimeError), transaction.atomic():
        outbox.enqueue(RECOMPUTE)
        raise RuntimeError("the business write failed")

    # then: no row and no message
    assert not OutboxMessage.objects.exists()
    assert broker.queued() == []

    # when: it commits; nothing is sent before the commit
    with transaction.atomic():
        message = outbox.enqueue(RECOMPUTE, {})
        assert broker.queued() == []

    # then: exactly one message, with the outbox's task id, and the row says it was published
    (sent,) = broker.queued()
    assert (sent["headers"]["task"], sent["headers"]["id"]) == (RECOMPUTE, f"outbox-{message.pk}")
    message.refresh_from_db()
    assert message.published_at is not None and message.attempts == 0


@pytest.mark.django_db(transaction=True)
def test_work_enqueued_while_the_broker_is_down_waits_and_the_relay_sends_it_when_back(
        broker: RedisServer) -> None:
    # given: the broker is down
    broker.stop()

    # when: a transaction enqueues work and commits
    with transaction.atomic():
        message = outbox.enqueue(RECOMPUTE)

    # then: the business transaction committed; the message waits with a backoff
    message.refresh_from_db()
    assert (message.published_at, message.attempts) == (None, 1)
    assert message.last_error and message.next_attempt_at > timezone.now()
    assert outbox.relay() == 0  # not due yet: no attempt
    message.refresh_from_db()
    assert message.attempts == 1

    # when: the relay runs while the broker is still down, later
    assert outbox.relay(now=_later(10)) == 0
    message.refresh_from_db()
    assert message.attempts == 2  # tried once more, and waits longer now

    # when: the broker is back and the relay runs
    broker.start()
    assert outbox.relay(now=_later(60)) == 1

    # then: published exactly once
    message.refresh_from_db()
    assert message.published_at is not None
    assert [m["headers"]["id"] for m in broker.queued()] == [f"outbox-{message.pk}"]
    assert outbox.relay(now=_later(120)) == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_resumes_after_the_outage_and_runs_what_the_outbox_kept(broker: RedisServer) -> None:
    # given: a guild with 14 person-runs today (activity 1.0 once recomputed) and a worker on the broker
    guild = make_guild(joined_days_ago=30)
    guild_person_runs_record(guild_id=guild.pk, at=timezone.now(), count=14)
    worker = Worker(QUEUE, broker_url=broker.url(0))
    try:
        worker.wait_ready(timeout=60)

        # when: Redis goes down, work is enqueued, Redis comes back and the relay runs
        broker.stop()
        with transaction.atomic():
            message = outbox.enqueue(RECOMPUTE)
        message.refresh_from_db()
        assert message.published_at is None
        broker.start()
        assert outbox.relay(now=_later(60)) == 1

        # then: the same worker process reconnected and ran the task: the effect is in the database
        deadline = time.monotonic() + 90
        while not Guild.objects.filter(pk=guild.pk, activity_row__computed_at__isnull=False).exists():
            assert worker.process.poll() is None, f"the worker died:\n{worker.log()}"
            assert time.monotonic() < deadline, f"the task did not run within 90 s:\n{worker.log()}"
            time.sleep(0.2)
        guild.refresh_from_db()
        assert guild.activity == pytest.approx(1.0)
        assert f"outbox-{message.pk}" in worker.log()
    finally:
        worker.stop()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_relays_at_once_publish_each_message_once(broker: RedisServer) -> None:
    # given: twenty messages whose publish failed
    broker.stop()
    ids = [outbox.enqueue(PROBE, {"n": n}).pk for n in range(20)]
    broker.start()

    # when
    sent = all_at_once([lambda: outbox.relay(now=_later(60))] * 2)

    # then
    assert sum(sent) == 20
    assert sorted(m["headers"]["id"] for m in broker.queued()) == sorted(f"outbox-{pk}" for pk in ids)


@pytest.mark.django_db(transaction=True)
def test_a_message_celery_refuses_does_not_hold_up_the_others(broker: RedisServer) -> None:
    # given: a message with kwargs its task does not take, then a good one
    bad = outbox.enqueue(RECOMPUTE, {"guild_id": 1})
    good = outbox.enqueue(PROBE, {"n": 1})
    bad.refresh_from_db()
    assert bad.published_at is None and "TypeError" in bad.last_error

    # when / then: the relay keeps retrying the bad one (for an operator to see) and sends the rest
    OutboxMessage.objects.filter(pk=good.pk).update(published_at=None)
    assert outbox.relay(now=_later(60)) == 1
    bad.refresh_from_db()
    assert (bad.published_at, bad.attempts) == (None, 2)


@pytest.mark.django_db
def test_publishes_back_off_exponentially_up_to_five_minutes() -> None:
    assert [outbox.retry_delay(n).total_seconds() for n in range(1, 8)] == [15, 30, 60, 120, 240, 300, 300]


@pytest.mark.django_db
def test_the_relay_prunes_published_messages_after_a_week() -> None:
    old = OutboxMessage.objects.create(task_name=RECOMPUTE, published_at=timezone.now() - timedelta(days=8))
    recent = OutboxMessage.objects.create(task_name=RECOMPUTE,
                                          published_at=timezone.now() - timedelta(days=1))
    outbox.relay()
    assert list(OutboxMessage.objects.values_list("pk", flat=True)) == [recent.pk]
    assert old.pk != recent.pk


@pytest.mark.django_db
def test_the_relay_is_a_beat_task_every_minute() -> None:
    task = PeriodicTask.objects.get(task="backend.tasks.outbox_relay")
    assert task.enabled and (task.interval.every, task.interval.period) == (1, "minutes")
    celery_app.loader.import_default_modules()
    assert "backend.tasks.outbox_relay" in celery_app.tasks



@pytest.mark.django_db(transaction=True)
def test_an_operator_publishes_waiting_messages_from_the_admin(broker: RedisServer,
                                                               admin_client: Client) -> None:
    # given: a message that waited through an outage
    broker.stop()
    message = outbox.enqueue(PROBE)
    broker.start()

    # when
    response = admin_client.post(reverse("admin:backend_outboxmessage_changelist"),
                                 {"action": "publish_now", "_selected_action": [message.pk]}, follow=True)

    # then
    assert b"Published 1 of 1 message(s)." in response.content
    message.refresh_from_db()
    assert message.published_at is not None
    assert [m["headers"]["id"] for m in broker.queued()] == [message.task_id]
