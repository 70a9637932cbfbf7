"""The incremental activity fold: equal to the full recompute and to a naive per-guild loop, guild
for guild, on random ledgers and random clocks (young guilds, day boundaries, late and
future-dated records, disbanded guilds, long gaps), as a task, and under concurrency."""
from __future__ import annotations

import random
import threading
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum

from guilds.models import ActivityFold, Guild, GuildActivity, GuildRules, PersonRunDay, PersonRunPending
from guilds.services import (
    activity_divisor,
    guild_activity_fold,
    guild_activity_recompute_all,
    guild_person_runs_record,
)
from guilds.tasks import guild_activity_fold_task
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 1, 21, 0, tzinfo=dt_timezone.utc)


def naive_activity(guild: Guild, now: datetime) -> float:
    """The definition, one guild at a time: its ledger sum over the window / its divisor."""
    window = GuildRules.load().activity_window_days
    today = now.astimezone(dt_timezone.utc).date()
    first = today - timedelta(days=window - 1)
    total = (PersonRunDay.objects.filter(guild=guild, day__gte=first, day__lte=today)
             .aggregate(total=Sum("person_runs"))["total"] or 0)
    return total / activity_divisor(created_at=guild.created_at, today=today, window_days=window)


def stored() -> dict[int, float]:
    living = GuildActivity.objects.filter(guild__disbanded_at__isnull=True)
    return dict(living.values_list("guild_id", "activity"))


def expected(now: datetime) -> dict[int, float]:
    return {g.pk: naive_activity(g, now) for g in Guild.objects.filter(disbanded_at__isnull=True)}


def new_guild(leader, rng: random.Random, at: datetime) -> Guild:  # type: ignore[no-untyped-def]
    return Guild.objects.create(name=f"G{rng.random()}", leader=leader, created_at=at)


def simulate(seed: int, steps: int) -> None:
    """Random guilds and runs on a random clock; after every fold all three ways agree exactly."""
    rng = random.Random(seed)
    leader = PlayerFactory()
    now = START
    guilds = [new_guild(leader, rng, now - timedelta(days=rng.choice([0, 0.3, 1, 5, 12.9, 13, 14, 40])))
              for _ in range(8)]
    for _ in range(steps):
        # 10 minutes mostly; sometimes across midnight, a few days, or more than a window
        gap = rng.choice([timedelta(minutes=10)] * 6 + [timedelta(hours=3), timedelta(days=1),
                                                         timedelta(days=3), timedelta(days=16)])
        previous, now = now, now + gap
        if rng.random() < 0.3:
            guilds.append(new_guild(leader, rng, previous + (now - previous) * rng.random()))
        if rng.random() < 0.1:
            victim = rng.choice(guilds)
            Guild.objects.filter(pk=victim.pk).update(disbanded_at=now)
        for _ in range(rng.randrange(0, 12)):
            guild = rng.choice(guilds)
            # mostly runs since the last fold; some late (an earlier day), some future-dated
            at = rng.choice([previous + (now - previous) * rng.random()] * 6
                            + [now - timedelta(days=rng.randrange(1, 20)), now + timedelta(days=1)])
            guild_person_runs_record(guild_id=guild.pk, at=max(at, guild.created_at), count=rng.randrange(1, 6))
        guild_activity_fold(now=now)
        assert stored() == expected(now)
    folded = stored()
    guild_activity_recompute_all(now=now)
    assert stored() == folded == expected(now)


@pytest.mark.parametrize("seed", range(6))
def test_fold_equals_full_recompute_and_the_per_guild_loop_on_random_ledgers(seed: int) -> None:
    simulate(seed, steps=25)


@pytest.mark.postgres
def test_fold_equals_the_per_guild_loop_on_postgresql() -> None:
    simulate(99, steps=20)


def test_a_fold_across_midnight_drops_the_expired_day_and_grows_young_divisors() -> None:
    leader = PlayerFactory()
    evening = datetime(2026, 11, 20, 23, 55, tzinfo=dt_timezone.utc)
    old = Guild.objects.create(name="Old", leader=leader, created_at=evening - timedelta(days=100))
    young = Guild.objects.create(name="Young", leader=leader, created_at=evening - timedelta(days=1))
    guild_person_runs_record(guild_id=old.pk, at=evening - timedelta(days=13), count=14)  # the window's first day
    guild_person_runs_record(guild_id=old.pk, at=evening, count=28)
    guild_person_runs_record(guild_id=young.pk, at=evening, count=6)
    guild_activity_fold(now=evening)
    assert stored() == {old.pk: 42 / 14, young.pk: 6 / 2}
    written = guild_activity_fold(now=evening + timedelta(minutes=10))  # 00:05: a new day
    assert written == 2
    assert stored() == {old.pk: 28 / 14, young.pk: 6 / 3}
    assert guild_activity_fold(now=evening + timedelta(minutes=20)) == 0  # nothing changed: nothing written


def test_a_changed_window_or_a_long_gap_falls_back_to_the_full_recompute() -> None:
    leader = PlayerFactory()
    guild = Guild.objects.create(name="G", leader=leader, created_at=START - timedelta(days=100))
    guild_person_runs_record(guild_id=guild.pk, at=START - timedelta(days=6), count=7)
    guild_person_runs_record(guild_id=guild.pk, at=START - timedelta(days=7), count=700)
    guild_activity_fold(now=START)
    assert stored() == {guild.pk: 707 / 14}
    rules = GuildRules.load()
    rules.activity_window_days = 7
    rules.save()
    guild_activity_fold(now=START)
    assert stored() == {guild.pk: 7 / 7}
    state = ActivityFold.objects.get()
    assert (state.day, state.window_days, state.full_at) == (START.date(), 7, START)
    guild_activity_fold(now=START + timedelta(days=30))
    assert stored() == {guild.pk: 0.0}


def test_the_fold_task_runs_the_fold_at_the_current_time() -> None:
    leader = PlayerFactory()
    guild = Guild.objects.create(name="G", leader=leader, created_at=START - timedelta(days=30))
    guild_person_runs_record(guild_id=guild.pk, at=START, count=14)
    with time_machine.travel(START, tick=False):
        result = guild_activity_fold_task.apply()
    assert result.successful() and result.get() == 1
    assert stored() == {guild.pk: 1.0}
    guild_person_runs_record(guild_id=guild.pk, at=START + timedelta(minutes=5), count=7)
    with time_machine.travel(START + timedelta(minutes=10), tick=False):
        assert guild_activity_fold_task.apply().get() == 1
    assert stored() == {guild.pk: 1.5}
    assert ActivityFold.objects.get().computed_at == START + timedelta(minutes=10)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_folds_and_full_recomputes_at_once_while_runs_are_recorded_lose_nothing() -> None:
    # given: guilds, and a first fold
    leader = PlayerFactory()
    now = datetime.now(dt_timezone.utc)
    guilds = [Guild.objects.create(name=f"G{i}", leader=leader, created_at=now - timedelta(days=30))
              for i in range(10)]
    guild_activity_fold(now=now)
    barrier = threading.Barrier(4)
    errors: list[Exception] = []
    results: list[int] = []

    def recorder(seed: int) -> None:
        rng = random.Random(seed)
        try:
            barrier.wait(timeout=10)
            for _ in range(60):
                guild_person_runs_record(guild_id=rng.choice(guilds).pk, at=now, count=rng.randrange(1, 4))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    def recomputer(full: bool) -> None:
        try:
            barrier.wait(timeout=10)
            for _ in range(8):
                results.append(guild_activity_recompute_all(now=now) if full else guild_activity_fold(now=now))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    # when: two recorders, a folder and a full recompute run at once
    threads = [threading.Thread(target=recorder, args=(1,)), threading.Thread(target=recorder, args=(2,)),
               threading.Thread(target=recomputer, args=(False,)), threading.Thread(target=recomputer, args=(True,))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then: no error, and one more fold gives every guild exactly its ledger's value
    assert errors == [] and len(results) == 16
    guild_activity_fold(now=now)
    assert stored() == expected(now)
    assert not PersonRunPending.objects.exists()

