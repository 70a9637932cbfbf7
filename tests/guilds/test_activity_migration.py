"""guilds/0006, 0007 and 0009 keep every stored activity value: the values move to GuildActivity,
the ledger's unfolded person-runs become pending log rows, the value becomes slot ``a`` of two;
each migration reverses to the same data (0009 to the current slot's values)."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from guilds.models import ActivityFold, GuildActivity, PersonRunDay, PersonRunPending
from tests.factories import PlayerFactory

BEFORE = [("guilds", "0005_activity_fold")]
COMPUTED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_activity_migrations_keep_values_and_unfolded_person_runs_both_ways() -> None:
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    leader = PlayerFactory()  # players are at their latest migration: the current model
    guild_model, ledger_model = old.get_model("guilds", "Guild"), old.get_model("guilds", "PersonRunDay")
    busy = guild_model.objects.create(name="Busy", leader_id=leader.pk, created_at="2026-01-01T00:00Z",
                                      activity=2.5, activity_runs=35, activity_computed_at=COMPUTED)
    fresh = guild_model.objects.create(name="Fresh", leader_id=leader.pk, created_at="2026-11-20T00:00Z")
    ledger_model.objects.create(guild=busy, day=date(2026, 11, 19), person_runs=30, folded=30)
    ledger_model.objects.create(guild=busy, day=date(2026, 11, 20), person_runs=11, folded=5)

    migrate(migrate([]).loader.graph.leaf_nodes())

    assert {(a.guild_id, a.activity_a, a.runs_a, a.computed_at) for a in GuildActivity.objects.all()} == {
        (busy.pk, 2.5, 35, COMPUTED), (fresh.pk, 0.0, 0, None)}
    assert list(PersonRunPending.objects.values_list("guild_id", "day", "person_runs")) == [
        (busy.pk, date(2026, 11, 20), 6)]
    assert sorted(PersonRunDay.objects.values_list("day", "person_runs")) == [
        (date(2026, 11, 19), 30), (date(2026, 11, 20), 11)]

    # and back: the old columns get the same values
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    values = old.get_model("guilds", "Guild").objects.values_list("activity", "activity_runs",
                                                                  "activity_computed_at")
    assert values.get(pk=busy.pk) == (2.5, 35, COMPUTED)
    assert values.get(pk=fresh.pk) == (0.0, 0, None)
    ledger = old.get_model("guilds", "PersonRunDay").objects.values_list("day", "person_runs", "folded")
    assert sorted(ledger) == [(date(2026, 11, 19), 30, 30), (date(2026, 11, 20), 11, 5)]
    migrate(migrate([]).loader.graph.leaf_nodes())


BEFORE_SLOTS = [("guilds", "0008_merge_activity_table_and_list_generation")]


@pytest.mark.django_db(transaction=True)
def test_the_slot_migration_keeps_the_value_as_slot_a_and_reverses_to_the_current_slot() -> None:
    executor = migrate(BEFORE_SLOTS)
    old = executor.loader.project_state(BEFORE_SLOTS).apps
    leader = PlayerFactory()
    guild = old.get_model("guilds", "Guild").objects.create(name="Busy", leader_id=leader.pk,
                                                            created_at="2026-01-01T00:00Z")
    old.get_model("guilds", "GuildActivity").objects.create(guild=guild, activity=2.5, runs=35, divisor=14.0,
                                                            computed_at=COMPUTED)
    old.get_model("guilds", "ActivityFold").objects.update_or_create(
        pk=1, defaults={"day": date(2026, 11, 20), "window_days": 14, "computed_at": COMPUTED})
    # the schedule as guilds/0005 made it (a transactional test starts from empty tables)
    daily, _ = CrontabSchedule.objects.get_or_create(minute="3", hour="0", day_of_week="*", day_of_month="*",
                                                     month_of_year="*", timezone="UTC")
    PeriodicTask.objects.update_or_create(name="Recompute guild activity", defaults={
        "task": "guilds.tasks.guild_activity_recompute", "crontab": daily, "interval": None})

    migrate(migrate([]).loader.graph.leaf_nodes())

    row = GuildActivity.objects.get(guild_id=guild.id)
    assert (row.activity_a, row.runs_a, row.activity_b, row.runs_b, row.computed_at) == (
        2.5, 35, 0.0, 0, COMPUTED)
    state = ActivityFold.objects.get()
    assert (state.slot, state.day, state.window_days, state.next_day) == ("a", date(2026, 11, 20), 14, None)
    full = PeriodicTask.objects.get(task="guilds.tasks.guild_activity_recompute")
    assert (full.crontab.hour, full.crontab.minute) == ("23", "40")

    # back, with slot b current: its values are what the old column keeps; the old code's next
    # pass recomputes in full (it needs the divisors no longer stored)
    GuildActivity.objects.filter(guild_id=guild.id).update(activity_b=4.0, runs_b=56)
    ActivityFold.objects.update(slot="b")
    executor = migrate(BEFORE_SLOTS)
    old = executor.loader.project_state(BEFORE_SLOTS).apps
    activities = old.get_model("guilds", "GuildActivity").objects
    stored = activities.values_list("activity", "runs", "computed_at").get(guild_id=guild.id)
    assert stored == (4.0, 56, COMPUTED)
    assert old.get_model("guilds", "ActivityFold").objects.get().day is None
    full = PeriodicTask.objects.get(task="guilds.tasks.guild_activity_recompute")
    assert (full.crontab.hour, full.crontab.minute) == ("0", "3")
    migrate(migrate([]).loader.graph.leaf_nodes())
