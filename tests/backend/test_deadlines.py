"""Deadlines fire by themselves (backend/deadlines.py): the next deadline over matches and battles, firing
what has passed with nobody reading (the result is the one a read leaves), once under concurrent firing,
and the clock that does it (woken by a step, started and stopped by the ASGI lifespan).

Time is moved, not waited for: the services take ``now=``, and a turn that "started long ago" is one whose
start the test moved back. The clock's tests run it for real in a thread of its own and wait, with a
bounded loop, for what it must do; they assert that it happened, never how fast.
"""
from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from backend.asgi import application
from backend.deadlines import DeadlineClock, deadline_next, deadlines_fire_due
from combat.models import Battle, BattleAction, BattleEvent
from dungeons.models import Run, RunMember
from dungeons.runs.battles import battle_refresh
from matches.models import Match, MatchAction, MatchEvent, MatchStatus
from matches.services import match_refresh
from players.models import Player
from tests.dungeons.run_helpers import bestiary, combat_settings, current_battle, small_dungeons
from tests.dungeons.run_helpers import started as run_started
from tests.factories import PlayerFactory
from tests.matches.helpers import started as match_started

ENEMY_FIRST = ["enemy", "trap", "treasure", "rest", "boss"]
#: How long a test waits for the clock before it fails (a loaded machine is slow; the clock is not timed).
WAIT_SECONDS = 30.0


# --- builders and snapshots ---------------------------------------------------------------------------


def _match(players: int = 3, deadline: int = 60) -> tuple[list[Player], Match]:
    return match_started("cell_capture", players=players, deadline=deadline)


def _battle(monkeypatch: Any, deadline: int = 60) -> tuple[list[Player], Battle]:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=30, enemy_damage=1)
    combat_settings(turn_deadline_seconds=deadline)
    players = [PlayerFactory(stamina=20), PlayerFactory(stamina=20)]
    return players, current_battle(run_started(players, monkeypatch, ENEMY_FIRST))


def _moved_back(match: Match, by: timedelta) -> None:
    """The match's turn began ``by`` earlier (time passed with nobody acting)."""
    Match.objects.filter(pk=match.pk).update(turn_started_at=match.turn_started_at - by,
                                             deadline_at=match.deadline_at - by)


def _match_as_stored(match_id: int) -> dict[str, Any]:
    row = Match.objects.filter(pk=match_id).values(
        "status", "turn", "awaiting_id", "turn_started_at", "deadline_at", "idle_steps", "state", "result",
        "event_count", "absent_seats").get()
    events = list(MatchEvent.objects.filter(match_id=match_id).order_by("seq").values("seq", "turn", "data",
                                                                                      "seats"))
    actions = list(MatchAction.objects.filter(match_id=match_id).order_by("turn").values(
        "turn", "seat", "player_id", "action", "response"))
    return {"match": row, "events": events, "actions": actions}


def _battle_as_stored(battle_id: int) -> dict[str, Any]:
    battle = Battle.objects.filter(pk=battle_id).values(
        "state", "step", "event_count", "outcome", "awaiting_id", "turn_started_at", "run_id").get()
    run_id = battle.pop("run_id")
    return {
        "battle": battle,
        "events": list(BattleEvent.objects.filter(battle_id=battle_id).order_by("seq").values("seq", "data")),
        "actions": list(BattleAction.objects.filter(battle_id=battle_id).order_by("step").values(
            "step", "player_id", "action", "response")),
        "run": Run.objects.filter(pk=run_id).values("status", "step", "room_cleared", "log").get(),
        "members": list(RunMember.objects.filter(run_id=run_id).order_by("player_id").values(
            "player_id", "status", "hp")),
    }


class _Undone(Exception):
    pass


def _what_it_leaves(apply: Callable[[], object], stored: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """What ``apply`` leaves in the database, then undone (rolled back), so another way can start over."""
    try:
        with transaction.atomic():
            apply()
            seen = stored()
            raise _Undone
    except _Undone:
        pass
    return seen


# --- the next deadline -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_next_deadline_is_the_earliest_over_running_matches_and_battles(monkeypatch) -> None:
    assert deadline_next() is None  # nothing is waited for
    # given: a match with a minute per turn, then a battle with 30 s per turn
    _people, match = _match(deadline=60)
    assert deadline_next() == match.turn_started_at + timedelta(seconds=60)
    _players, battle = _battle(monkeypatch, deadline=30)
    # then: the earlier of the two
    minute, half = timedelta(seconds=60), timedelta(seconds=30)
    assert deadline_next() == min(match.turn_started_at + minute, battle.turn_started_at + half)


@pytest.mark.django_db
def test_a_finished_match_has_no_deadline_left() -> None:
    _people, match = _match(players=2, deadline=60)
    # a whole round of silence abandons the match
    assert deadlines_fire_due(match.turn_started_at + timedelta(days=1)) == 2
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.deadline_at is None
    assert deadline_next() is None


@pytest.mark.django_db
def test_the_next_deadline_costs_one_statement_per_kind(django_assert_max_num_queries, monkeypatch) -> None:
    # given: a running match and a running battle
    _match()
    _battle(monkeypatch)
    # then: the matches' statement, the lobbies' (a kind of its own, on the same table), the battles' and
    # the combat settings row (the battles' seconds)
    with django_assert_max_num_queries(4) as captured:
        deadline_next()
    statements = [q["sql"] for q in captured.captured_queries]
    assert [sum(f'FROM "{table}"' in q for q in statements) for table in ("matches_match", "combat_battle")] \
        == [2, 1], statements


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_clocks_statements_are_served_by_partial_indexes_of_the_running_rows(monkeypatch) -> None:
    # given: a running match and battle; the statements the clock makes for the next deadline and the due rows
    _people, match = _match()
    _battle(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        deadline_next()
        deadlines_fire_due(match.turn_started_at)  # nothing due: only the three reads of due rows
    statements = [q["sql"] for q in captured.captured_queries if '"combat_combatsettings"' not in q["sql"]]
    assert len(statements) == 6, statements
    # then: with sequential scans ruled out, each is planned on its table's partial index (the planner
    # prefers a scan of the few rows a test has; with millions of finished rows the index is the only way)
    plans = []
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for statement in statements:
            cursor.execute(f"EXPLAIN {statement}")
            plans.append("\n".join(row[0] for row in cursor.fetchall()))
    names = ["match_lobby_deadline_pending" if '"lobby_deadline_at"' in q
             else "match_deadline_pending" if '"matches_match"' in q else "battle_turn_awaited"
             for q in statements]
    assert all(name in plan for name, plan in zip(names, plans, strict=True)), plans
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE indexdef LIKE %s", ["% WHERE %"])
        partial = {row[0] for row in cursor.fetchall()}
    assert {"match_deadline_pending", "match_lobby_deadline_pending", "battle_turn_awaited"} <= partial


# --- firing is what a read does ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_passed_match_deadline_is_applied_with_nobody_reading_exactly_as_a_read_applies_it() -> None:
    # given: three seats, a minute per turn, and two and a half minutes of silence
    people, match = _match(players=3, deadline=60)
    t0 = match.turn_started_at
    later = t0 + timedelta(seconds=150)
    read = _what_it_leaves(lambda: match_refresh(player=people[0], match_id=match.pk, now=later),
                           lambda: _match_as_stored(match.pk))

    # when: the clock fires what is due, nobody reading
    fired = deadlines_fire_due(later)

    # then: two turns timed out, the deadlines chained, and the match is what a read leaves, row for row
    assert fired == 2
    assert _match_as_stored(match.pk) == read
    stored = read["match"]
    assert stored["turn"] == 3 and stored["turn_started_at"] == t0 + timedelta(seconds=120)
    assert stored["deadline_at"] == t0 + timedelta(seconds=180)
    assert [a["response"] for a in read["actions"]] == [{"timeout": True}] * 2
    assert deadline_next() == t0 + timedelta(seconds=180)


@pytest.mark.django_db
def test_a_passed_battle_deadline_is_applied_with_nobody_reading_exactly_as_a_read_applies_it(
    monkeypatch,
) -> None:
    # given: two players in a battle, a minute per turn, three minutes and a second of silence
    players, battle = _battle(monkeypatch, deadline=60)
    t0 = battle.turn_started_at
    later = t0 + timedelta(seconds=181)
    read = _what_it_leaves(lambda: battle_refresh(player=players[0], battle_id=battle.pk, now=later),
                           lambda: _battle_as_stored(battle.pk))

    fired = deadlines_fire_due(later)

    assert fired == 3  # first (60 s), second (120 s), first again (180 s)
    assert _battle_as_stored(battle.pk) == read
    assert [a["response"] for a in read["actions"]] == [{"timeout": True}] * 3
    assert read["battle"]["turn_started_at"] == t0 + timedelta(seconds=180)
    assert deadline_next() == t0 + timedelta(seconds=240)


@pytest.mark.django_db
def test_nothing_is_fired_before_the_deadline_and_nothing_twice(monkeypatch) -> None:
    _people, match = _match(deadline=60)
    _players, battle = _battle(monkeypatch, deadline=60)
    before = (_match_as_stored(match.pk), _battle_as_stored(battle.pk))
    early = min(match.turn_started_at, battle.turn_started_at) + timedelta(seconds=59)

    assert deadlines_fire_due(early) == 0
    assert (_match_as_stored(match.pk), _battle_as_stored(battle.pk)) == before

    late = max(match.turn_started_at, battle.turn_started_at) + timedelta(seconds=61)
    assert deadlines_fire_due(late) == 2  # one turn of each
    after = (_match_as_stored(match.pk), _battle_as_stored(battle.pk))
    assert deadlines_fire_due(late) == 0  # fired again at the same moment: nothing more
    assert (_match_as_stored(match.pk), _battle_as_stored(battle.pk)) == after


@pytest.mark.django_db
def test_a_stored_deadline_earlier_than_the_matchs_own_is_corrected_without_a_step() -> None:
    # given: a running match whose stored deadline is its turn's start (as the migration leaves it)
    _people, match = _match(deadline=60)
    t0 = match.turn_started_at
    Match.objects.filter(pk=match.pk).update(deadline_at=t0)
    before = _match_as_stored(match.pk)

    # when: the clock finds it due
    assert deadlines_fire_due(t0 + timedelta(seconds=1)) == 0

    # then: no turn timed out; the match's own deadline is stored
    after = _match_as_stored(match.pk)
    assert after["match"]["deadline_at"] == t0 + timedelta(seconds=60)
    assert {**after["match"], "deadline_at": t0} == before["match"]
    assert (after["events"], after["actions"]) == (before["events"], before["actions"])


@pytest.mark.django_db
def test_a_seat_that_walks_out_leaves_a_deadline_of_its_next_turn_at_once() -> None:
    from matches.services import match_leave

    # given: three seats; the second to play walks out during the first one's turn
    people, match = _match(players=3, deadline=60)
    events = _match_as_stored(match.pk)["events"]
    begun = next(e["data"] for e in events if e["data"]["kind"] == "match_started")
    second = next(p for p in people if p.pk == begun["order"][1])
    t0 = match.turn_started_at
    match_leave(player=second, match_id=match.pk, now=t0 + timedelta(seconds=10))

    # when: the first player's minute runs out
    assert deadlines_fire_due(t0 + timedelta(seconds=60)) == 2
    # then: the first player's turn timed out, and the walked-out seat's turn at that same moment
    stored = _match_as_stored(match.pk)["match"]
    assert stored["turn"] == 3 and stored["turn_started_at"] == t0 + timedelta(seconds=60)
    assert stored["deadline_at"] == t0 + timedelta(seconds=120)


# --- concurrent firing ------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_instances_firing_at_once_apply_each_deadline_once(monkeypatch, caplog) -> None:
    # given: a match two turns overdue and a battle one turn overdue
    _people, match = _match(players=3, deadline=60)
    _players, battle = _battle(monkeypatch, deadline=60)
    now = timezone.now()
    _moved_back(match, now - match.turn_started_at + timedelta(seconds=150))
    Battle.objects.filter(pk=battle.pk).update(turn_started_at=now - timedelta(seconds=61))
    threads, barrier = 8, threading.Barrier(8)
    fired: list[int] = []
    failures: list[BaseException] = []

    def instance() -> None:
        try:
            barrier.wait(timeout=30)
            fired.append(deadlines_fire_due(now))
        except BaseException as exc:  # noqa: BLE001 - surfaced below
            failures.append(exc)
        finally:
            connections.close_all()

    # when: eight instances' clocks fire at the same moment
    running = [threading.Thread(target=instance) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join(timeout=60)

    # then: every timeout was applied by exactly one of them
    assert not failures, failures
    assert not [r for r in caplog.records if r.name == "backend.deadlines"], caplog.text  # no row failed
    assert sum(fired) == 3, fired
    assert MatchAction.objects.filter(match=match, action__isnull=True).count() == 2
    assert BattleAction.objects.filter(battle=battle, response={"timeout": True}).count() == 1
    stored = _match_as_stored(match.pk)
    assert [e["seq"] for e in stored["events"]] == list(range(1, stored["match"]["event_count"] + 1))


# --- the clock --------------------------------------------------------------------------------------


def _eventually(check: Callable[[], bool], what: str) -> None:
    give_up = time.monotonic() + WAIT_SECONDS
    while not check():
        assert time.monotonic() < give_up, f"the clock did not {what} within {WAIT_SECONDS} s"
        time.sleep(0.05)


@contextmanager
def _clock_running(**options: Any) -> Iterator[DeadlineClock]:
    """A clock running in an event loop of its own thread, cancelled on the way out."""
    clock = DeadlineClock(**options)
    ready = threading.Event()
    stop: dict[str, Callable[[], None]] = {}

    async def main() -> None:
        task = asyncio.create_task(clock.run())
        loop = asyncio.get_running_loop()
        stop["it"] = lambda: loop.call_soon_threadsafe(task.cancel)
        ready.set()
        try:
            await task
        except asyncio.CancelledError:
            pass

    thread = threading.Thread(target=asyncio.run, args=(main(),))
    thread.start()
    ready.wait(timeout=10)
    try:
        yield clock
    finally:
        stop["it"]()
        thread.join(timeout=30)
        assert not thread.is_alive()


def _turn(match_id: int) -> int:
    return Match.objects.values_list("turn", flat=True).get(pk=match_id)


# On PostgreSQL: SQLite's in-memory test database (shared cache) refuses a second writer at once instead of
# waiting for it, so the test's own reads would fail while the clock writes; the embedded default's file
# database waits, and tests/backend/test_deadlines_served.py runs the clock on it.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_clock_fires_an_overdue_deadline_and_is_woken_by_a_step_that_sets_an_earlier_one() -> None:
    # given: a match of two whose turn started a day ago (a minute per turn)
    _people, overdue = _match(players=2, deadline=60)
    _moved_back(overdue, timedelta(days=1))
    # when: a clock runs that would sleep an hour unless woken
    with _clock_running(resync_seconds=3600):
        # then: it times out both silent turns, nobody reading: the match is abandoned, no deadline is left
        _eventually(lambda: Match.objects.get(pk=overdue.pk).status == MatchStatus.ABANDONED,
                    "fire the overdue deadlines")
        assert deadline_next() is None
        # when: a match starts whose turns last the admin's minimum, a second
        _others, quick = _match(players=2, deadline=1)
        # then: the start woke the clock, which times the silent turn out
        _eventually(lambda: _turn(quick.pk) >= 2, "fire the deadline of a turn begun after it slept")
    timed_out = MatchAction.objects.filter(match=quick, turn=1).get()
    assert timed_out.action is None and timed_out.response == {"timeout": True}


def _lifespan(messages: list[str]) -> tuple[list[str], list[str]]:
    """Drive the ASGI application's lifespan with ``messages``; returns what it sent and the clock tasks
    that ran between startup and shutdown."""
    sent: list[str] = []
    seen: list[str] = []

    async def main() -> None:
        queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        for message in messages:
            queue.put_nowait({"type": message})

        async def receive() -> dict[str, str]:
            message = await queue.get()
            if message["type"] == "lifespan.shutdown":
                seen.extend(t.get_name() for t in asyncio.all_tasks() if t.get_name() == "deadline-clock")
            return message

        async def send(message: dict[str, str]) -> None:
            sent.append(message["type"])

        await application({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)
        assert not [t for t in asyncio.all_tasks() if t.get_name() == "deadline-clock"]

    asyncio.run(main())
    return sent, seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("on", "clocks"), [(True, ["deadline-clock"]), (False, [])])
def test_the_server_lifespan_starts_the_clock_when_the_setting_is_on_and_stops_it(settings, on, clocks):
    settings.DEADLINE_CLOCK = on
    sent, seen = _lifespan(["lifespan.startup", "lifespan.shutdown"])
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert seen == clocks
