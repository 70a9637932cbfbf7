"""Who left a lobby is a stranger to the run it became: 404 on the run, its battles and its moves.

Issue 11, item 6: a player who left a lobby kept reading the started run and its battles, and their
action requests took the run and battle locks before being refused. (An action's locking statement
now carries the membership check in its WHERE: a stranger's finds no row, so it locks nothing.)
"""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from backend.sql import prepared_sql
from dungeons.runs import lobby as run_services
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    combat_settings,
    current_battle,
    fix_seed,
    rooms_are,
    seed_where,
    small_dungeons,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ROOMS = ["enemy", "trap", "treasure", "rest", "boss"]


def _run_started_after_one_left(monkeypatch):
    """A lobby of host and leaver; the leaver leaves, the host starts alone into an enemy room."""
    small_dungeons(rooms=5)
    bestiary(enemy_hp=30, enemy_damage=1, boss_hp=30)
    host, leaver = PlayerFactory(), PlayerFactory()
    fix_seed(monkeypatch, seed_where(rooms_are(*ROOMS), players=[host]))
    party = Party([host, leaver])
    run_id = party.post(host, "runs/", {"kind": "ordinary"}).json()["id"]
    assert party.post(leaver, f"runs/{run_id}/join/").status_code == 200
    assert party.post(leaver, f"runs/{run_id}/leave/").status_code == 200
    assert party.post(host, f"runs/{run_id}/weapon/", {"item_kind": None}).status_code == 200
    assert party.post(host, f"runs/{run_id}/start/").status_code == 200
    run = run_services.Run.objects.get(pk=run_id)
    return party, host, leaver, run, current_battle(run)


def test_a_player_who_left_the_lobby_cannot_read_the_started_run_or_its_battle(monkeypatch) -> None:
    party, host, leaver, run, battle = _run_started_after_one_left(monkeypatch)
    client = party.client(leaver)

    assert_error(client.get(f"{API}/runs/{run.pk}/"), 404, "run_not_found")
    assert_error(client.get(f"{API}/battles/{battle.pk}/"), 404, "battle_not_found")
    action = {"turn": battle.step, "action": {"kind": "skip"}, "idempotency_key": ""}
    assert_error(client.post(f"{API}/battles/{battle.pk}/actions/", action, format="json"), 404,
                 "battle_not_found")
    assert run.pk not in [row["id"] for row in client.get(f"{API}/runs/").json()["results"]]
    # the host still sees both
    assert party.run(run.pk, host)["id"] == run.pk
    assert party.battle(battle.pk, host)["id"] == battle.pk


@pytest.mark.postgres
def test_a_player_who_left_the_lobby_takes_no_lock_of_the_run_or_battle(monkeypatch) -> None:
    # given: the battle's turn deadline has passed, so a member's read would take the locks
    party, _, leaver, _run, battle = _run_started_after_one_left(monkeypatch)
    client = party.client(leaver)
    action = {"turn": battle.step, "action": {"kind": "skip"}, "idempotency_key": ""}
    deadline = 60
    combat_settings(turn_deadline_seconds=deadline)

    locks_before = _row_locks(battle.pk)

    # when: the player who left reads the battle and acts in it
    with (time_machine.travel(timezone.now() + timedelta(seconds=deadline + 1)),
          CaptureQueriesContext(connection) as seen):
        read = client.get(f"{API}/battles/{battle.pk}/")
        act = client.post(f"{API}/battles/{battle.pk}/actions/", action, format="json")

    # then: both are 404 and no row was locked: the read takes no lock, and the action's one locking
    # statement (the check is in its WHERE) found no row to lock
    assert (read.status_code, act.status_code) == (404, 404), read.json()
    locking = [sql for sql in (prepared_sql(q["sql"]) for q in seen.captured_queries) if "FOR UPDATE" in sql]
    assert len(locking) <= 1 and all("dungeons_runmember" in sql for sql in locking), locking
    assert _row_locks(battle.pk) == locks_before


def _row_locks(battle_id: int) -> tuple[str, str]:
    """The battle's and its run's ``xmax``: a row lock taken on either (even by this test's own
    transaction, a request's savepoint) changes it."""
    with connection.cursor() as cursor:
        cursor.execute('SELECT b."xmax"::text, r."xmax"::text FROM "combat_battle" b '
                       'INNER JOIN "dungeons_run" r ON r."id" = b."run_id" WHERE b."id" = %s', [battle_id])
        return cursor.fetchone()
