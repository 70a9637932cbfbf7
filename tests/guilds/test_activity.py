"""The person-run ledger, the set-based activity recompute, its task and its schedule."""
from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_celery_beat.models import PeriodicTask

from guilds.models import Guild, GuildActivity, GuildRules, PersonRunDay
from guilds.services import (
    activity_divisor,
    guild_activity_recompute_all,
    guild_person_runs_record,
    guild_rank_add,
)
from guilds.tasks import guild_activity_recompute
from tests.factories import make_guild

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def guild_created(days_ago: float, **kwargs) -> Guild:
    with time_machine.travel(NOW - timedelta(days=days_ago), tick=False):
        return make_guild(**kwargs)


def test_recording_person_runs_adds_to_one_row_per_day():
    guild = make_guild()
    guild_person_runs_record(guild_id=guild.pk, at=NOW, count=3)
    guild_person_runs_record(guild_id=guild.pk, at=NOW + timedelta(hours=5), count=2)
    guild_person_runs_record(guild_id=guild.pk, at=NOW + timedelta(days=1), count=1)
    guild_person_runs_record(guild_id=guild.pk, at=NOW, count=0)
    rows = dict(PersonRunDay.objects.filter(guild=guild).values_list("day", "person_runs"))
    assert rows == {NOW.date(): 5, (NOW + timedelta(days=1)).date(): 1}


def test_activity_of_an_old_guild_averages_the_last_14_days():
    guild = guild_created(days_ago=100)
    for days_ago, count in [(0, 4), (5, 10), (13, 14), (14, 1000), (30, 1000)]:  # 14 and 30 are outside
        guild_person_runs_record(guild_id=guild.pk, at=NOW - timedelta(days=days_ago), count=count)
    assert guild_activity_recompute_all(now=NOW) == 1
    guild.refresh_from_db()
    assert guild.activity == pytest.approx(28 / 14)
    assert guild.activity_computed_at == NOW


def test_a_young_guild_divides_by_its_age_in_days():
    guild = guild_created(days_ago=2.25)  # created on the day before yesterday: 3 UTC days old
    guild_person_runs_record(guild_id=guild.pk, at=NOW, count=6)
    guild_person_runs_record(guild_id=guild.pk, at=NOW - timedelta(days=2), count=3)
    guild_activity_recompute_all(now=NOW)
    guild.refresh_from_db()
    assert guild.activity == pytest.approx(9 / 3)


def test_a_guild_created_today_divides_by_one():
    guild = guild_created(days_ago=0.1)
    guild_person_runs_record(guild_id=guild.pk, at=NOW, count=5)
    guild_activity_recompute_all(now=NOW)
    guild.refresh_from_db()
    assert guild.activity == pytest.approx(5.0)


def test_a_guild_without_runs_has_zero_activity_and_stale_values_reset():
    guild = guild_created(days_ago=40)
    GuildActivity.objects.filter(guild=guild).update(activity_a=7.5)
    guild_activity_recompute_all(now=NOW)
    guild.refresh_from_db()
    assert guild.activity == 0.0


def test_disbanded_guilds_are_not_recomputed():
    guild = guild_created(days_ago=20)
    Guild.objects.filter(pk=guild.pk).update(disbanded_at=NOW)
    GuildActivity.objects.filter(guild=guild).update(activity_a=1.0)
    assert guild_activity_recompute_all(now=NOW) == 0
    guild.refresh_from_db()
    assert guild.activity == 1.0


def test_the_window_is_admin_data():
    rules = GuildRules.load()
    rules.activity_window_days = 7
    rules.save()
    guild = guild_created(days_ago=100)
    guild_person_runs_record(guild_id=guild.pk, at=NOW - timedelta(days=6), count=7)
    guild_person_runs_record(guild_id=guild.pk, at=NOW - timedelta(days=7), count=700)
    guild_activity_recompute_all(now=NOW)
    guild.refresh_from_db()
    assert guild.activity == pytest.approx(1.0)


@pytest.mark.parametrize("created, expected", [
    (NOW, 1), (NOW - timedelta(hours=13), 2), (NOW - timedelta(days=12), 13),
    (NOW - timedelta(days=13), 14), (NOW - timedelta(days=400), 14),
])
def test_activity_divisor_counts_utc_days_of_age(created, expected):
    assert activity_divisor(created_at=created, today=NOW.date(), window_days=14) == expected


def test_recompute_matches_the_divisor_for_every_age_in_the_window():
    guilds = {age: guild_created(days_ago=age) for age in range(16)}
    for guild in guilds.values():
        guild_person_runs_record(guild_id=guild.pk, at=NOW, count=42)
    guild_activity_recompute_all(now=NOW)
    for age, guild in guilds.items():
        guild.refresh_from_db()
        expected = 42 / activity_divisor(created_at=guild.created_at, today=NOW.date(), window_days=14)
        assert guild.activity == pytest.approx(expected), age


def test_recompute_uses_the_same_few_queries_for_any_number_of_guilds():
    # the rules row, a savepoint, (PostgreSQL: the advisory lock, jit, work_mem), the state row
    # (read, insert on the first run, save), the fold of new person-runs (two statements on
    # SQLite, one plus the planner settings on PostgreSQL), one UPDATE, the release
    counts = []
    for batch in (2, 20):
        for _ in range(batch):
            guild_person_runs_record(guild_id=make_guild().pk, at=NOW, count=1)
        with CaptureQueriesContext(connection) as queries:
            guild_activity_recompute_all(now=NOW)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 12


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_recomputes_at_once_queue_on_the_advisory_lock_and_agree():
    guilds = [guild_created(days_ago=30) for _ in range(20)]
    for index, guild in enumerate(guilds):
        guild_person_runs_record(guild_id=guild.pk, at=NOW, count=index * 14)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(guild_activity_recompute_all(now=NOW))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # the second one finds every value already written: it writes nothing
    assert errors == [] and sorted(results) == [0, 20]
    for index, guild in enumerate(guilds):
        guild.refresh_from_db()
        assert guild.activity == pytest.approx(index * 1.0)


def test_the_task_recomputes_activity():
    guild = guild_created(days_ago=30)
    guild_person_runs_record(guild_id=guild.pk, at=NOW, count=14)
    with time_machine.travel(NOW, tick=False):
        result = guild_activity_recompute.apply()
    assert result.successful()
    guild.refresh_from_db()
    assert guild.activity == pytest.approx(1.0)


def test_the_beat_schedule_folds_every_ten_minutes_recomputes_daily_and_is_admin_data():
    fold = PeriodicTask.objects.get(task="guilds.tasks.guild_activity_fold")
    assert fold.enabled
    assert (fold.interval.every, fold.interval.period) == (10, "minutes")
    full = PeriodicTask.objects.get(task="guilds.tasks.guild_activity_recompute")
    assert full.enabled and full.interval is None
    # before midnight: it prepares the next day
    assert (full.crontab.minute, full.crontab.hour, full.crontab.day_of_month) == ("40", "23", "*")


def test_rank_starts_at_zero_and_rescues_add_points():
    guild = make_guild()
    assert guild.rank == 0
    assert guild_rank_add(guild_id=guild.pk, points=1).rank == 1
    assert guild_rank_add(guild_id=guild.pk, points=2).rank == 3
