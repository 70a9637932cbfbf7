"""The live hub: a publish wakes the listeners of its channel after the commit (never on a rollback), in this
process in the embedded default and in every process through Redis pub/sub; taps see every message; the
long-poll wait answers on a wake or after its time, holding no database connection meanwhile."""
from __future__ import annotations

import asyncio
import math
import threading

import pytest
from django.db import connection, transaction

from backend.live import hub as hub_module
from backend.live import listen, publish, tap, wait_for
from backend.live.hub import Hub


@pytest.fixture
def embedded(settings):
    settings.REDIS_URL = ""


def test_a_publish_outside_a_transaction_wakes_the_channels_listeners_at_once(embedded) -> None:
    # given a listener on match:1 and one on match:2
    with listen("match:1") as one, listen("match:2") as two:
        # when match:1 is published
        publish("match:1")
        # then only match:1's listener is woken, once
        assert one.wait_blocking(0) is True
        assert one.wait_blocking(0) is False
        assert two.wait_blocking(0) is False


@pytest.mark.django_db(transaction=True)
def test_a_publish_is_sent_after_the_commit_and_never_after_a_rollback(embedded) -> None:
    with listen("run:5") as waiter:
        # given a transaction that publishes
        with transaction.atomic():
            publish("run:5")
            # then nothing is sent before it commits
            assert waiter.wait_blocking(0) is False
        # and it is sent once it has
        assert waiter.wait_blocking(0) is True
        # when a transaction that published rolls back
        with pytest.raises(RuntimeError), transaction.atomic():
            publish("run:5")
            raise RuntimeError
        # then nothing is sent
        assert waiter.wait_blocking(0) is False


def test_a_listener_that_left_is_not_woken_and_the_channel_is_forgotten(embedded) -> None:
    with listen("user:3") as waiter:
        assert hub_module.HUB.listening("user:3") == 1
    publish("user:3")
    assert waiter.wait_blocking(0) is False
    assert hub_module.HUB.listening("user:3") == 0


def test_a_tap_sees_every_message_until_it_is_undone(embedded) -> None:
    seen: list[str] = []
    untap = tap(seen.append)
    publish("match:1")
    publish("user:2")
    untap()
    publish("match:3")
    assert seen == ["match:1", "user:2"]


def test_an_async_listener_is_woken_by_a_publish_from_another_thread(embedded) -> None:
    async def scenario() -> bool:
        with listen("match:9") as waiter:
            thread = threading.Thread(target=publish, args=("match:9",))
            thread.start()
            woken = await waiter.wait(30)  # returns at the wake, long before 30 s
            thread.join()
            return woken

    assert asyncio.run(scenario()) is True


def test_an_async_listener_not_woken_returns_false_after_its_time(embedded) -> None:
    async def scenario() -> bool:
        with listen("match:10") as waiter:
            return await waiter.wait(0.05)

    assert asyncio.run(scenario()) is False


def test_a_failing_tap_does_not_stop_the_others(embedded) -> None:
    seen: list[str] = []

    def broken(channel: str) -> None:
        raise ValueError(channel)

    undo_broken, undo_seen = tap(broken), tap(seen.append)
    try:
        with listen("match:4") as waiter:
            publish("match:4")
            assert waiter.wait_blocking(0) is True
        assert seen == ["match:4"]
    finally:
        undo_broken()
        undo_seen()


# --- the long-poll wait ------------------------------------------------------------------------


def test_wait_for_answers_at_once_when_the_change_is_already_there(embedded) -> None:
    assert wait_for("match:1", lambda: None, seconds=30) is True


def test_wait_for_answers_when_a_publish_brings_the_change(embedded) -> None:
    # given a check that sees the change only once it is made
    changed = threading.Event()
    checks: list[int] = []

    def check() -> float | None:
        checks.append(1)
        return None if changed.is_set() else math.inf

    def change() -> None:
        while hub_module.HUB.listening("match:2") == 0:  # the waiter is registered
            threading.Event().wait(0.01)
        changed.set()
        publish("match:2")

    thread = threading.Thread(target=change)
    thread.start()
    # when the request waits up to 30 s
    answered = wait_for("match:2", check, seconds=30)
    thread.join()
    # then it answers with the change, having checked twice (at the start, at the wake): no polling
    assert answered is True
    assert len(checks) == 2


def test_wait_for_gives_up_after_its_time_when_nothing_changed(embedded) -> None:
    assert wait_for("match:3", lambda: math.inf, seconds=0.05) is False


def test_wait_for_looks_again_when_the_check_asks_to(embedded) -> None:
    # a deadline: the check asks to look again after 0.01 s, when the change is there
    answers = iter([0.01, None])
    assert wait_for("match:4", lambda: next(answers), seconds=30) is True


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_wait_for_holds_no_database_connection_while_it_waits(embedded) -> None:
    # given a check that reads the database, then sees the change at the second look
    held: list[bool] = []

    def check() -> float | None:
        from django.contrib.auth.models import User

        held.append(connection.connection is not None)  # before this check's own query
        if len(held) == 2:
            return None
        User.objects.exists()
        threading.Timer(0.05, publish, args=("m:1",)).start()
        return math.inf

    # when it waits
    assert wait_for("m:1", check, seconds=30) is True
    # then the connection of the first check was given back before the wait (a SQLite memory database
    # is never closed, hence PostgreSQL)
    assert held == [held[0], False]


# --- across processes (Redis) ------------------------------------------------------------------


@pytest.mark.redis
def test_through_redis_a_message_sent_by_one_hub_wakes_the_listeners_of_another(settings) -> None:
    # given two hubs (as two server processes), each with its own subscriber connection
    sender, receiver = Hub(), Hub()
    seen: list[str] = []
    receiver.tap(seen.append)
    with receiver.listen("match:77") as waiter:
        # when the first sends
        sender.send("match:77")
        # then the second's listener is woken through Redis (within 30 s; at once in practice)
        assert waiter.wait_blocking(30) is True
    assert "match:77" in seen


def test_a_tap_for_the_other_processes_does_not_see_this_ones_messages(embedded) -> None:
    everything: list[str] = []
    others: list[str] = []
    undo_everything, undo_others = tap(everything.append), tap(others.append, others_only=True)
    try:
        publish("match:5")
    finally:
        undo_everything()
        undo_others()
    assert everything == ["match:5"]
    assert others == []


def test_the_redis_channel_carries_the_database_number() -> None:
    # pub/sub ignores Redis databases: two deployments on one Redis server must not wake each other
    assert hub_module.redis_channel("redis://127.0.0.1:6379/7") == "deepdelve:live:7"
    assert hub_module.redis_channel("redis://127.0.0.1:6379") == "deepdelve:live:0"


class _Seen:
    """The channels a tap was called with, waited for from the test's thread."""

    def __init__(self) -> None:
        self.channels: list[str] = []
        self.changed = threading.Condition()

    def __call__(self, channel: str) -> None:
        with self.changed:
            self.channels.append(channel)
            self.changed.notify_all()

    def wait_for(self, count: int) -> list[str]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.channels) >= count, 30)
            return list(self.channels)


@pytest.mark.redis
def test_through_redis_a_tap_for_the_other_processes_sees_only_theirs(settings) -> None:
    # given two hubs (as two server processes); the receiver taps everything, and the others' messages only
    sender, receiver = Hub(), Hub()
    everything, others = _Seen(), _Seen()
    receiver.tap(everything)
    receiver.tap(others, others_only=True)
    # when the receiver sends a message itself, then the sender does
    receiver.send("match:81")
    assert everything.wait_for(1) == ["match:81"]
    sender.send("match:82")
    # then both taps see the sender's, and only the first saw the receiver's own (Redis keeps their order)
    assert everything.wait_for(2) == ["match:81", "match:82"]
    assert others.wait_for(1) == ["match:82"]


@pytest.mark.redis
def test_through_redis_a_hub_on_another_database_wakes_nobody_here(settings) -> None:
    # given a receiver listening on this database's channel
    receiver, sender = Hub(), Hub()
    seen = _Seen()
    receiver.tap(seen)
    here = settings.REDIS_URL
    base, _, db = here.rpartition("/")
    elsewhere = f"{base}/{(int(db or 0) + 1) % 16}"
    # when a hub on another database sends, then one on this database
    settings.REDIS_URL = elsewhere
    sender.send("match:83")
    settings.REDIS_URL = here
    sender.send("match:84")
    # then the receiver sees only this database's message (Redis delivers in publish order: the other one
    # would have come first)
    assert seen.wait_for(1) == ["match:84"]
