"""Labyrinth of Darkness cost, in process: a darkness run start and a move, next to the baseline write.

    DATABASE_URL=postgres://... .venv/bin/python bench/bench_darkness.py [--runs 30]

Creates a throw-away test database (Django's test-database machinery: ``test_<name>``), serves the
real URL map plus bench/bench_urls.py's ``/bench/baseline-write/`` through DRF's in-process client
(no HTTP server, one client: this measures the work of one request, not throughput), and prints
for each operation the SQL statements it ran and its wall time (median and 90th percentile):

- baseline write: JWT authentication plus one committed UPDATE (the floor of any write);
- darkness run start, party of 4: the guild's maze loaded, the run's dungeon row, person-runs,
  members, the torch given, the entrance entered, the run view returned; and the same start by a
  party of 1 and of 8 (other guilds), whose statement counts are equal (issue 13);
- darkness move into a new empty room, a new enemy room (the battle starts), a room entered before,
  and a refused move into a wall (409).
Each ratio is given twice: to the baseline measured first, and to the baseline write timed right before
every sample ("between the samples"), which sees the same moment's load on a shared machine.
It asserts nothing and is not part of the test suite.
"""
from __future__ import annotations

import argparse
import logging
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bench_settings")

if TYPE_CHECKING:
    from players.models import Player

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)

from backend.models import SingletonSettings  # noqa: E402


def measure(label: str, calls: list[Callable[[], int]], rows: list[tuple[str, float, float, float]]) -> None:
    times, counts = [], []
    for call in calls:
        connection.queries_log.clear()  # a full log (9000 entries) would capture nothing
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            status = call()
            times.append((time.perf_counter() - start) * 1000)
        counts.append(len(queries.captured_queries))
        assert status in (200, 201, 409), (label, status)
    times.sort()
    p90 = times[math.ceil(len(times) * 0.9) - 1]
    rows.append((label, statistics.median(counts), statistics.median(times), p90))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the measured 409s
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args.runs)
    finally:
        teardown_databases(old, verbosity=0)


def _singletons() -> list[type[SingletonSettings]]:
    """Every settings row's model."""
    return [model for model in apps.get_models() if issubclass(model, SingletonSettings)]


def run(n: int) -> None:
    from darkness.engine import MoveOutcome, move
    from darkness.models import DarknessRun, DarknessSettings, GuildMaze
    from dungeons.runs import lobby as run_services
    from labyrinth.engine.grid import DIRECTIONS
    from tests.dungeons.run_helpers import bestiary_kept, guild_party, run_settings
    from tests.factories import api_client

    settings = DarknessSettings.load()
    settings.torch_length = 500
    settings.save()
    run_settings(max_party_size=8)
    players, guild = guild_party(4)
    clients = [api_client(p) for p in players]
    sized = {size: guild_party(size)[0] for size in (1, 8)}  # a guild each, for the start alone
    sized_clients = {size: api_client(party[0]) for size, party in sized.items()}
    host = clients[0]
    rows: list[tuple[str, float, float, float]] = []
    measure("baseline write", [lambda: host.post("/bench/baseline-write/").status_code] * n, rows)

    def weights(content: str) -> None:
        for name in ("enemy", "trap", "treasure", "empty"):
            setattr(settings, f"{name}_weight", 1.0 if name == content else 0.0)
        settings.enemy_weight_per_section = 0.0
        settings.save()
        # A save changes the settings token, so every process reads its settings rows again on its next
        # request: once per admin edit on a server, but here before every sample. Read them now, unmeasured,
        # so the samples measure the steady state a server is in between edits.
        for model in _singletons():
            model.cached()
        # so is the bestiary, kept per floor while the token stands (combat.selectors.bestiary_of_floor)
        bestiary_kept(*sorted(set(layout.section_of_row)))

    def lobby(party: list[Player] = players) -> int:
        run = run_services.run_open(player=party[0], kind="darkness")
        for p in party[1:]:
            run_services.run_join(player=p, run_id=run.pk)
        for p in party:
            run_services.run_weapon_choose(player=p, run_id=run.pk, item_kind_id=None)
        return run.pk

    def end(run_id: int) -> None:  # everyone out so the next lobby can open (not measured)
        from dungeons.models import Run, RunMember
        from players.models import InventoryItem
        InventoryItem.objects.filter(acquired_in_run_id=run_id).delete()  # the torch stays in the labyrinth
        RunMember.objects.filter(run_id=run_id).update(active=False, status="escaped")
        Run.objects.filter(pk=run_id).update(status="escaped")

    layout = GuildMaze.objects.get(guild=guild).layout()
    outcomes = {d: move(layout.map, layout.entrance, d).outcome for d in DIRECTIONS}
    open_dirs = [d for d in DIRECTIONS if outcomes[d] is not MoveOutcome.WALL]
    wall_dirs = [d for d in DIRECTIONS if outcomes[d] is MoveOutcome.WALL]

    start_times: list[float] = []
    start_counts: list[int] = []
    move_rows: dict[str, tuple[list[float], list[int]]] = {k: ([], []) for k in (
        "move, new empty room", "move, new enemy room (battle starts)", "move, room entered before",
        "move into a wall (409)")}
    sized_rows: dict[int, tuple[list[float], list[int]]] = {size: ([], []) for size in sized}

    between: list[float] = []  # the baseline write, timed right before every sample: the same moment's load

    def timed(label: str, fn: Callable[[], int]) -> int:
        t = time.perf_counter()
        host.post("/bench/baseline-write/")
        between.append((time.perf_counter() - t) * 1000)
        connection.queries_log.clear()  # a full log (9000 entries) would capture nothing
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            status = fn()
            elapsed = (time.perf_counter() - t) * 1000
        bucket = (move_rows[label] if label in move_rows else sized_rows[int(label)] if label.isdigit()
                  else (start_times, start_counts))
        bucket[0].append(elapsed)
        bucket[1].append(len(queries.captured_queries))
        return status

    d = open_dirs[0]
    # The requests to time, built with the loop's values of the moment (each runs at once, in its iteration).
    def starting(client: Any, run_id: int) -> Callable[[], int]:
        return lambda: client.post(f"/api/v1/runs/{run_id}/start/").status_code

    def moving(run_id: int, step: int, direction: str) -> Callable[[], int]:
        return lambda: clients[1].post(f"/api/v1/runs/{run_id}/move/", {"step": step, "direction": direction},
                                       format="json").status_code

    def starting_kept(run_id: int, reply: dict[str, Any]) -> Callable[[], int]:
        return lambda: (reply.update(host.post(f"/api/v1/runs/{run_id}/start/").json()), 200)[1]

    for i in range(n):
        weights("enemy" if i % 2 else "empty")
        for size, party in sized.items():  # the start alone, by a party of 1 and of 8
            run_id = lobby(party)
            status = timed(str(size), starting(sized_clients[size], run_id))
            assert status == 200, status
            end(run_id)
        run_id = lobby()
        reply: dict[str, Any] = {}
        timed("start", starting_kept(run_id, reply))
        step = reply["step"]
        if wall_dirs:
            timed("move into a wall (409)", moving(run_id, step, wall_dirs[0].value))
        label = "move, new enemy room (battle starts)" if i % 2 else "move, new empty room"
        status = timed(label, moving(run_id, step, d.value))
        assert status == 200, status
        if not i % 2:  # back to the entrance, entered before
            back = d.opposite
            dark = DarknessRun.objects.get(run_id=run_id)
            there = (layout.entrance[0] + d.delta[0], layout.entrance[1] + d.delta[1])
            if dark.position != there:  # a teleport moved the party: no way straight back
                end(run_id)
                continue
            timed("move, room entered before", moving(run_id, step + 1, back.value))
        end(run_id)

    def row(label: str, times: list[float], counts: list[int]) -> tuple[str, float, float, float]:
        times = sorted(times)
        p90 = times[math.ceil(len(times) * 0.9) - 1]
        return (label, statistics.median(counts), statistics.median(times), p90)

    rows.append(row("darkness run start, party of 4", start_times, start_counts))
    for size, (times, counts) in sized_rows.items():
        rows.append(row(f"darkness run start, party of {size}", times, counts))
    for label, (times, counts) in move_rows.items():
        if times:
            rows.append(row(label, times, counts))
    rows.insert(1, row("baseline write, between the samples", between, [2]))
    print(f"{connection.vendor}, {n} samples each (in process, one client)")
    print(f"{'operation':40} {'SQL statements':>15} {'median ms':>10} {'p90 ms':>8} {'x baseline':>11} "
          f"{'x between':>10}")
    base, near = rows[0][2], rows[1][2]
    for label, count, median, p90 in rows:
        print(f"{label:40} {count:>15.0f} {median:>10.1f} {p90:>8.1f} {median / base:>11.1f} "
              f"{median / near:>10.1f}")


if __name__ == "__main__":
    main()
