"""The user's notices (SPEC 13, ``GET me/notices/``): each kind is written by the step it tells, numbered per
user with no gap, read back after ``?since=`` by their user only, each with its sentence in the reader's
language. On both databases; the fast (PostgreSQL) and portable writes are held equal."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from combat.services import battle_turn_told
from combat.store import BattleRow
from players.models import Notice, NoticeCounter, Player
from players.notice_store import notices_insert
from players.notices import NoticeKind, Told, notices_forget, notify
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db

NOTICES = "/api/v1/me/notices/"


def notices(player: Player, since: int = 0, **headers: Any) -> dict[str, Any]:
    reply = api_client(player).get(NOTICES, {"since": since}, **headers)
    assert reply.status_code == 200, reply.json()
    return reply.json()


def kinds(player: Player) -> list[tuple[str, dict[str, Any]]]:
    return [(n["kind"], n["data"]) for n in notices(player)["notices"]]


# --- each kind by its step --------------------------------------------------------------------------


def test_an_invitation_tells_the_invitee() -> None:
    guild, player = make_guild(), PlayerFactory()
    reply = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/", {"player": player.pk},
                                          format="json")
    assert reply.status_code == 201
    [told] = notices(player)["notices"]
    assert (told["kind"], told["data"]) == (
        "invitation", {"guild": guild.pk, "name": guild.name, "invitation": reply.json()["id"]})
    assert told["text"] == f"You are invited to join the guild {guild.name}."


def test_a_decided_application_tells_the_applicant_with_the_reason() -> None:
    guild = make_guild()
    taken, refused = PlayerFactory(), PlayerFactory()
    ids = [api_client(p).post(f"/api/v1/guilds/{guild.pk}/applications/").json()["id"]
           for p in (taken, refused)]
    leader = api_client(guild.leader)
    assert leader.post(f"/api/v1/guilds/{guild.pk}/applications/{ids[0]}/approve/").status_code == 200
    assert leader.post(f"/api/v1/guilds/{guild.pk}/applications/{ids[1]}/reject/", {"reason": "Too loud"},
                       format="json").status_code == 200
    about = {"guild": guild.pk, "name": guild.name}
    assert kinds(taken) == [("application_decided",
                             {**about, "application": ids[0], "status": "approved", "reason": ""})]
    [told] = notices(refused)["notices"]
    assert told["data"] == {**about, "application": ids[1], "status": "rejected", "reason": "Too loud"}
    assert told["text"] == f"Your application to the guild {guild.name} was rejected: Too loud"
    ru = notices(refused, HTTP_ACCEPT_LANGUAGE="ru")["notices"][0]["text"]
    assert ru == f"Вашу заявку в гильдию {guild.name} отклонили: Too loud"


def _battle(awaiting: int | None) -> BattleRow:
    now = timezone.now()
    return BattleRow(id=9, run_id=3, floor=0, room=0, seed=1, engine_version=1, state={}, outcome="ongoing",
                     step=4, event_count=0, awaiting_id=awaiting, turn_started_at=now, created_at=now,
                     ended_at=None)


def test_a_battle_turn_tells_the_awaited_player_unless_they_just_acted() -> None:
    mover, other = PlayerFactory(), PlayerFactory()
    with transaction.atomic():
        notify(battle_turn_told(_battle(mover.pk), actor=mover.pk))  # the mover's turn again: nobody told
        notify(battle_turn_told(_battle(other.pk), actor=mover.pk))
        notify(battle_turn_told(_battle(None), actor=None))  # over: nobody awaited
    assert kinds(mover) == []
    [told] = notices(other)["notices"]
    assert (told["kind"], told["data"]) == ("your_turn", {"run": 3, "battle": 9, "turn": 4})
    assert told["text"] == "It is your turn in the battle of run 3."


# --- reading --------------------------------------------------------------------------------------


def test_a_user_reads_only_their_own_notices_after_since() -> None:
    me, someone = PlayerFactory(), PlayerFactory()
    with transaction.atomic():
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": i, "name": f"G{i}", "invitation": i})
                for i in range(1, 4)] + [Told(someone.pk, NoticeKind.INVITATION,
                                              {"guild": 9, "name": "G9", "invitation": 9})])
    page = notices(me, since=1)
    assert [n["seq"] for n in page["notices"]] == [2, 3] and page["last"] == 3 and page["more"] is False
    assert [n["data"]["guild"] for n in page["notices"]] == [2, 3]
    assert [n["data"]["guild"] for n in notices(someone)["notices"]] == [9]
    assert notices(me, since=3) == {"notices": [], "last": 3, "more": False}


@pytest.mark.parametrize("since", ["x", "-1", "1.5", str(2**63)])
def test_a_bad_since_is_a_400(since: str) -> None:
    reply = api_client(PlayerFactory()).get(NOTICES, {"since": since})
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "invalid"


def test_notices_need_authentication() -> None:
    assert api_client().get(NOTICES).status_code == 401


def test_old_notices_are_forgotten_and_numbers_never_reused() -> None:
    me = PlayerFactory()
    with transaction.atomic():
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": 1, "name": "G", "invitation": 1})],
               now=timezone.now() - timedelta(days=40))
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": 2, "name": "G", "invitation": 2})])
    assert notices_forget() == 1
    with transaction.atomic():
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": 3, "name": "G", "invitation": 3})])
    assert [n["seq"] for n in notices(me)["notices"]] == [2, 3]


# --- the store --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fast", [False, pytest.param(True, marks=pytest.mark.postgres)])
def test_both_writes_number_each_users_notices_in_order(fast: bool) -> None:
    a, b = PlayerFactory(), PlayerFactory()
    batches = [[a, b, a], [b], [a, a, b]]
    with transaction.atomic():
        for batch in batches:
            told = [Told(p.pk, "invitation", {"n": i}) for i, p in enumerate(batch)]
            assert notices_insert(told, now=timezone.now(), fast=fast) == sorted({p.user_id for p in batch})
    rows = list(Notice.objects.order_by("user_id", "seq").values_list("user_id", "seq", "data"))
    assert rows == sorted([
        (a.user_id, 1, {"n": 0}), (a.user_id, 2, {"n": 2}),
        (a.user_id, 3, {"n": 0}), (a.user_id, 4, {"n": 1}),
        (b.user_id, 1, {"n": 1}), (b.user_id, 2, {"n": 0}), (b.user_id, 3, {"n": 2}),
    ])
    assert dict(NoticeCounter.objects.values_list("user_id", "last_seq")) == {a.user_id: 4, b.user_id: 3}


@pytest.mark.postgres
def test_a_batch_of_notices_is_one_statement_on_postgresql() -> None:
    people = [PlayerFactory() for _ in range(4)]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        notify([Told(p.pk, "match_started", {"match": 1}) for p in people])
    assert len(queries.captured_queries) == 1


def test_nothing_to_tell_costs_no_statement(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        notify([])


def test_the_daily_task_forgets_old_notices_and_is_scheduled() -> None:
    from django_celery_beat.models import PeriodicTask

    from players.tasks import notices_forget_old

    me = PlayerFactory()
    with transaction.atomic():
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": 1, "name": "G", "invitation": 1})],
               now=timezone.now() - timedelta(days=31))
        notify([Told(me.pk, NoticeKind.INVITATION, {"guild": 2, "name": "G", "invitation": 2})])
    assert notices_forget_old.apply().get() == 1
    assert [n["data"]["guild"] for n in notices(me)["notices"]] == [2]
    scheduled = PeriodicTask.objects.get(task="players.tasks.notices_forget_old")
    assert scheduled.enabled and scheduled.crontab is not None
