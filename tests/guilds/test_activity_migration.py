"""guilds/0006 and 0007 keep every stored activity value: the values move to GuildActivity and the
ledger's unfolded person-runs become pending log rows; both migrations reverse to the same data."""
from __future__ import annotations

from datetime import date, datetime
from datetime import timezone as dt_timezone

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from guilds.models import GuildActivity, PersonRunDay, PersonRunPending
from tests.factories import PlayerFactory

BEFORE = [("guilds", "0005_activity_fold")]
COMPUTED = datetime(2026, 11, 20, 12, 0, tzinfo=dt_timezone.utc)


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

    assert {(a.guild_id, a.activity, a.runs, a.computed_at) for a in GuildActivity.objects.all()} == {
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
