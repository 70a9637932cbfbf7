"""The slots of open streams (SPEC 13: at most 8 per user): leases renewed together, in this process and in
Redis; released even when many streams close at once."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from backend.live import access
from backend.live.access import SLOT_LEASE_SECONDS, slot_release, slot_take, slots_held, slots_renew

BACKENDS = [
    pytest.param("", id="in this process"),
    pytest.param("redis", id="Redis", marks=pytest.mark.redis),
]


@pytest.fixture(params=BACKENDS)
def where(request, settings) -> str:
    if not request.param:
        settings.REDIS_URL = ""
    return str(request.param)


def test_renewing_the_slots_together_keeps_each_of_them_held_past_its_first_lease(where) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        # given two users' slots, taken now
        slots = [(7001, slot_take(7001)), (7002, slot_take(7002)), (7002, slot_take(7002))]
        gone = slot_take(7003)
    assert all(slot is not None for _, slot in slots) and gone is not None
    slot_release(7003, gone)
    try:
        # when they are renewed together most of a lease later (with a released slot among them)
        with time_machine.travel(start + timedelta(seconds=SLOT_LEASE_SECONDS - 10), tick=False):
            slots_renew([(user, str(slot)) for user, slot in slots] + [(7003, gone)])
        # then after the first lease has ended they are all still held, and the released one stays released
        with time_machine.travel(start + timedelta(seconds=SLOT_LEASE_SECONDS + 10), tick=False):
            assert (slots_held(7001), slots_held(7002), slots_held(7003)) == (1, 2, 0)
        # while without the renewal they would have ended
        with time_machine.travel(start + timedelta(seconds=2 * SLOT_LEASE_SECONDS), tick=False):
            assert (slots_held(7001), slots_held(7002)) == (0, 0)
    finally:
        for user, slot in slots:
            slot_release(user, str(slot))


@pytest.mark.redis
def test_many_streams_closing_at_once_all_release_their_slots(settings) -> None:
    # more releases at once than the process's Redis connections: they wait for one instead of failing
    users = range(8000, 8000 + max(150, 4 * access.REDIS_CONNECTIONS))  # redis-py allowed 100 at once
    slots = [(user, slot_take(user)) for user in users]
    failures: list[BaseException] = []
    start = threading.Barrier(len(slots))

    def release(user: int, slot: str) -> None:
        start.wait()
        try:
            slot_release(user, slot)
        except Exception as error:  # noqa: BLE001  # e.g. redis-py's MaxConnectionsError: what it looks for
            failures.append(error)

    threads = [threading.Thread(target=release, args=(user, str(slot))) for user, slot in slots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert [slots_held(user) for user in users] == [0] * len(slots)
