"""Notices to one user under real concurrency on PostgreSQL: numbered 1, 2, 3, ... with no gap and no
repeat whatever commits or rolls back, in the order their steps commit (real concurrent requests on a live
server; threads each in its own transaction)."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from guilds.models import Invitation
from players.models import Notice, NoticeCounter
from players.notices import NoticeKind, Told, notify
from tests.factories import PlayerFactory, make_guild
from tests.guilds.test_concurrency import _all_at_once, _post, _token

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _numbers(user_id: int) -> list[tuple[int, int]]:
    return list(Notice.objects.filter(user_id=user_id).order_by("seq").values_list("seq", "id"))


def test_invitations_sent_at_once_number_the_invitees_notices_without_gap(live_server: Any) -> None:
    # given eight guilds whose leaders invite one player at the same moment, each leader twice
    invitee = PlayerFactory()
    guilds = [make_guild() for _ in range(8)]
    calls = [lambda g=g: _post(live_server.url, f"/api/v1/guilds/{g.pk}/invitations/", _token(g.leader),
                               {"player": invitee.pk})
             for g in guilds for _ in range(2)]
    # when every request runs at once
    replies = _all_at_once(calls)
    # then one invitation per guild was made (the second is refused and rolled back) ...
    made = [r for r in replies if r.status == 201]
    assert len(made) == 8 and Invitation.objects.filter(player=invitee).count() == 8
    # ... and the invitee's notices are 1..8, one per invitation, inserted in the order of their numbers
    numbers = _numbers(invitee.user_id)
    assert [seq for seq, _ in numbers] == list(range(1, 9))
    assert [row_id for _, row_id in numbers] == sorted(row_id for _, row_id in numbers)
    told = Notice.objects.filter(user_id=invitee.user_id).values_list("data__invitation", flat=True)
    assert sorted(told) == sorted(r.body["id"] for r in made)
    assert NoticeCounter.objects.get(user_id=invitee.user_id).last_seq == 8


def test_concurrent_steps_that_roll_back_leave_no_gap() -> None:
    # given two users, and 24 threads each telling both in its own transaction; every third rolls back
    a, b = PlayerFactory(), PlayerFactory()
    barrier = threading.Barrier(24)
    failures: list[BaseException] = []

    class Undone(Exception):
        pass

    def step(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            with transaction.atomic():
                people = (a, b) if index % 2 else (b, a)
                notify([Told(p.pk, NoticeKind.INVITATION, {"step": index}) for p in people])
                if index % 3 == 0:
                    raise Undone
        except Undone:
            pass
        except BaseException as exc:  # noqa: BLE001 - surfaced below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=step, args=(i,), daemon=True) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads) and not failures, failures
    # then each user has 16 notices, numbered 1..16, from the same committed steps
    for person in (a, b):
        numbers = _numbers(person.user_id)
        assert [seq for seq, _ in numbers] == list(range(1, 17))
        assert [row_id for _, row_id in numbers] == sorted(row_id for _, row_id in numbers)
    steps = {p.pk: sorted(Notice.objects.filter(user_id=p.user_id).values_list("data__step", flat=True))
             for p in (a, b)}
    assert steps[a.pk] == steps[b.pk] == [i for i in range(24) if i % 3]
