"""The incremental activity fold: equal to the full recompute and to a naive per-guild loop, guild
for guild, on random ledgers and random clocks (young guilds, day boundaries, late and
future-dated records, disbanded guilds, long gaps, full recomputes that prepare the next day's slot
at random times or not at all, so day changes both switch slots and fall back to the full
recompute), as a task, and under concurrency."""
from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from guilds.models import ActivityFold, Guild, GuildListGeneration, GuildRules, PersonRunDay, PersonRunPending
from guilds.selectors import with_activity
from guilds.services import (
    activity_divisor,
    guild_activity_fold,
    guild_activity_recompute_all,
    guild_person_runs_record,
)
from guilds.tasks import guild_activity_fold_task
from tests.factories import PlayerFactory, api_client

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 1, 21, 0, tzinfo=UTC)


def naive_activity(guild: Guild, now: datetime) -> float:
    """The definition, one guild at a time: its ledger sum over the window / its divisor."""
    window = GuildRules.load().activity_window_days
    today = now.astimezone(UTC).date()
    first = today - timedelta(days=window - 1)
    total = (PersonRunDay.objects.filter(guild=guild, day__gte=first, day__lte=today)
             .aggregate(total=Sum("person_runs"))["total"] or 0)
    return total / activity_divisor(created_at=guild.created_at, today=today, window_days=window)


def stored() -> dict[int, float]:
    """The living guilds' activity as the list reads it (the current slot)."""
    return dict(with_activity(Guild.objects.filter(disbanded_at__isnull=True)).values_list("pk", "activity"))


def expected(now: datetime) -> dict[int, float]:
    return {g.pk: naive_activity(g, now) for g in Guild.objects.filter(disbanded_at__isnull=True)}


def new_guild(leader, rng: random.Random, at: datetime) -> Guild:  # type: ignore[no-untyped-def]
    return Guild.objects.create(name=f"G{rng.random()}", leader=leader, created_at=at)


def record_some(rng: random.Random, guilds: list[Guild], previous: datetime, now: datetime) -> None:
    for _ in range(rng.randrange(0, 8)):
        guild = rng.choice(guilds)
        # mostly runs since the last fold; some late (an earlier day), some future-dated
        at = rng.choice([previous + (now - previous) * rng.random()] * 6
                        + [now - timedelta(days=rng.randrange(1, 20)), now + timedelta(days=1)])
        guild_person_runs_record(guild_id=guild.pk, at=max(at, guild.created_at), count=rng.randrange(1, 6))


def simulate(seed: int, steps: int) -> tuple[int, int]:
    """Random guilds and runs on a random clock; after every fold all three ways agree exactly.

    Full recomputes (each prepares the next day's slot) come at random moments, often late in the
    day as the beat runs them, sometimes not for days: a fold on the next day then switches slots
    (the prepared one, with the runs recorded since folded in) or, unprepared, recomputes in full.
    Returns how many folds switched slots and how many fell back to the full recompute."""
    rng = random.Random(seed)
    leader = PlayerFactory()
    now = START
    flips = fallbacks = 0
    guilds = [new_guild(leader, rng, now - timedelta(days=rng.choice([0, 0.3, 1, 5, 12.9, 13, 14, 40])))
              for _ in range(8)]
    for _ in range(steps):
        # 10 minutes mostly; sometimes to just after the next midnight, across it, a few days, or
        # more than a window
        next_midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
        just_after_midnight = next_midnight + timedelta(minutes=rng.randrange(1, 10)) - now
        gap = rng.choice([timedelta(minutes=10)] * 6 + [just_after_midnight, timedelta(hours=3),
                                                         timedelta(days=1), timedelta(days=3),
                                                         timedelta(days=16)])
        previous, now = now, now + gap
        if rng.random() < 0.3:
            guilds.append(new_guild(leader, rng, previous + (now - previous) * rng.random()))
        if rng.random() < 0.1:
            victim = rng.choice(guilds)
            Guild.objects.filter(pk=victim.pk).update(disbanded_at=now)
        record_some(rng, guilds, previous, now)
        if rng.random() < 0.35:
            # a full recompute at a random moment of the gap, or at 23:40 of its first day
            late = datetime.combine(previous.date(), datetime.min.time(), tzinfo=UTC) + timedelta(
                hours=23, minutes=40)
            at = (late if previous < late < now and rng.random() < 0.6
                  else previous + (now - previous) * rng.random())
            guild_activity_recompute_all(now=at)
            assert stored() == expected(at)
            record_some(rng, guilds, at, now)
        before = ActivityFold.objects.filter(pk=1).first()
        guild_activity_fold(now=now)
        assert stored() == expected(now)
        after = ActivityFold.objects.get()
        flips += before is not None and after.slot != before.slot
        fallbacks += after.full_at == now
    folded = stored()
    guild_activity_recompute_all(now=now)
    assert stored() == folded == expected(now)
    return flips, fallbacks


@pytest.mark.parametrize("seed", range(6))
def test_fold_equals_full_recompute_and_the_per_guild_loop_on_random_ledgers(seed: int) -> None:
    flips, fallbacks = simulate(seed, steps=25)
    assert flips and fallbacks  # both day changes happen with these seeds


@pytest.mark.postgres
def test_fold_equals_the_per_guild_loop_on_postgresql() -> None:
    flips, fallbacks = simulate(99, steps=25)
    assert flips and fallbacks


def test_a_fold_across_midnight_drops_the_expired_day_and_grows_young_divisors() -> None:
    leader = PlayerFactory()
    evening = datetime(2026, 11, 20, 23, 55, tzinfo=UTC)
    old = Guild.objects.create(name="Old", leader=leader, created_at=evening - timedelta(days=100))
    young = Guild.objects.create(name="Young", leader=leader, created_at=evening - timedelta(days=1))
    # the window's first day
    guild_person_runs_record(guild_id=old.pk, at=evening - timedelta(days=13), count=14)
    guild_person_runs_record(guild_id=old.pk, at=evening, count=28)
    guild_person_runs_record(guild_id=young.pk, at=evening, count=6)
    guild_activity_fold(now=evening)
    assert stored() == {old.pk: 42 / 14, young.pk: 6 / 2}
    written = guild_activity_fold(now=evening + timedelta(minutes=10))  # 00:05: a new day
    assert written == 2
    assert stored() == {old.pk: 28 / 14, young.pk: 6 / 3}
    assert guild_activity_fold(now=evening + timedelta(minutes=20)) == 0  # nothing changed: nothing written


def test_a_prepared_day_change_folds_into_the_other_slot_and_switches_to_it() -> None:
    # given: yesterday's values, and at 23:40 a full recompute that prepared today's
    leader = PlayerFactory()
    evening = datetime(2026, 11, 20, 23, 40, tzinfo=UTC)
    old = Guild.objects.create(name="Old", leader=leader, created_at=evening - timedelta(days=100))
    young = Guild.objects.create(name="Young", leader=leader, created_at=evening - timedelta(days=1))
    idle = Guild.objects.create(name="Idle", leader=leader, created_at=evening - timedelta(days=100))
    guild_person_runs_record(guild_id=old.pk, at=evening - timedelta(days=13), count=14)  # leaves the window
    guild_person_runs_record(guild_id=old.pk, at=evening, count=28)
    guild_person_runs_record(guild_id=young.pk, at=evening, count=6)
    guild_person_runs_record(guild_id=idle.pk, at=evening - timedelta(days=5), count=7)
    guild_person_runs_record(guild_id=young.pk, at=evening + timedelta(hours=1), count=1)  # tomorrow's
    assert guild_activity_recompute_all(now=evening) == 3
    assert stored() == {old.pk: 42 / 14, young.pk: 6 / 2, idle.pk: 7 / 14}
    state = ActivityFold.objects.get()
    assert (state.slot, state.day, state.next_day) == (
        "a", evening.date(), evening.date() + timedelta(days=1))
    guild_person_runs_record(guild_id=old.pk, at=evening + timedelta(minutes=5), count=14)
    assert guild_activity_fold(now=evening + timedelta(minutes=10)) == 1  # folded into both slots
    assert stored() == {old.pk: 56 / 14, young.pk: 6 / 2, idle.pk: 7 / 14}
    guild_person_runs_record(guild_id=old.pk, at=evening + timedelta(minutes=15), count=7)  # late for 23:xx
    newcomer = Guild.objects.create(name="New", leader=leader, created_at=evening + timedelta(minutes=16))
    guild_person_runs_record(guild_id=newcomer.pk, at=evening + timedelta(minutes=17), count=3)

    # when: the first fold of the new day
    with CaptureQueriesContext(connection) as queries:
        written = guild_activity_fold(now=evening + timedelta(minutes=25))  # 00:05

    # then: only the guilds that played are written, the prepared slot is current
    assert written == 3  # old, young (its run recorded for today), the newcomer
    assert not any("personrunday" in q["sql"].lower() for q in queries.captured_queries)  # no ledger read
    assert stored() == {old.pk: (28 + 14 + 7) / 14, young.pk: (6 + 1) / 3, idle.pk: 7 / 14,
                        newcomer.pk: 3 / 2}
    assert stored() == expected(evening + timedelta(minutes=25))
    state = ActivityFold.objects.get()
    assert (state.slot, state.day, state.next_day) == ("b", evening.date() + timedelta(days=1), None)
    assert Guild.objects.get(pk=old.pk).activity == 49 / 14  # the model reads the current slot too
    # the next day's first fold, unprepared, is the full recompute of that slot
    guild_activity_fold(now=evening + timedelta(days=1, minutes=25))
    assert ActivityFold.objects.get().full_at == evening + timedelta(days=1, minutes=25)
    assert stored() == expected(evening + timedelta(days=1, minutes=25))


def test_the_list_and_the_detail_read_the_slot_switched_to(django_capture_on_commit_callbacks) -> None:
    leader = PlayerFactory()
    evening = datetime(2026, 11, 20, 23, 40, tzinfo=UTC)
    fading = Guild.objects.create(name="Fading", leader=leader, created_at=evening - timedelta(days=100))
    rising = Guild.objects.create(name="Rising", leader=leader, created_at=evening - timedelta(days=100))
    guild_person_runs_record(guild_id=fading.pk, at=evening - timedelta(days=13), count=28)
    guild_person_runs_record(guild_id=rising.pk, at=evening, count=14)
    guild_activity_recompute_all(now=evening)
    client = api_client(PlayerFactory())
    listed = client.get("/api/v1/guilds/?ordering=-activity").json()["results"]
    assert [(g["name"], g["activity"]) for g in listed] == [("Fading", 2.0), ("Rising", 1.0)]
    generation = GuildListGeneration.objects.get().value

    with django_capture_on_commit_callbacks(execute=True):  # the list's count runs after the commit
        guild_activity_fold(now=evening + timedelta(minutes=25))  # the switch: no row of these guilds written

    assert GuildListGeneration.objects.get().value > generation  # kept list pages are dead
    listed = client.get("/api/v1/guilds/?ordering=-activity").json()["results"]
    assert [(g["name"], g["activity"]) for g in listed] == [("Rising", 1.0), ("Fading", 0.0)]
    first = client.get("/api/v1/guilds/", {"ordering": "-activity", "page_size": 1}).json()
    second = client.get("/api/v1/guilds/", {"ordering": "-activity", "page_size": 1, "cursor": first["next"]})
    assert [g["name"] for g in second.json()["results"]] == ["Fading"]  # a cursor on the current slot
    assert client.get(f"/api/v1/guilds/{fading.pk}/").json()["activity"] == 0.0


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
    now = datetime.now(UTC)
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
                at = rng.choice([now, now, now + timedelta(days=1)])  # some for the prepared day
                guild_person_runs_record(guild_id=rng.choice(guilds).pk, at=at, count=rng.randrange(1, 4))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    def recomputer(full: bool) -> None:
        try:
            barrier.wait(timeout=10)
            for _ in range(8):
                fold = guild_activity_recompute_all if full else guild_activity_fold
                results.append(fold(now=now))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    # when: two recorders, a folder and a full recompute run at once
    threads = [threading.Thread(target=recorder, args=(1,)), threading.Thread(target=recorder, args=(2,)),
               threading.Thread(target=recomputer, args=(False,)),
               threading.Thread(target=recomputer, args=(True,))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then: no error, and one more fold gives every guild exactly its ledger's value
    assert errors == [] and len(results) == 16
    guild_activity_fold(now=now)
    assert stored() == expected(now)
    assert not PersonRunPending.objects.filter(day__lte=now.date()).exists()
    # and the next day's slot, prepared by the full recomputes and kept up by the folds, is exact
    tomorrow = now + timedelta(days=1)
    guild_activity_fold(now=tomorrow)
    assert ActivityFold.objects.get().full_at != tomorrow  # switched, not recomputed
    assert stored() == expected(tomorrow)
    assert not PersonRunPending.objects.exists()

