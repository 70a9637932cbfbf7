"""dungeons/0009 gives the runs stored before it their one sequence (docs/runs.md, "One sequence per run"):
the log's entries in order, each battle's events right after its ``battle`` entry, a battle the log does not
name after the last entry; the run's counter and each battle's are the last numbers given."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from combat.models import Battle, BattleEvent
from dungeons.models import Run
from tests.factories import PlayerFactory

BEFORE = [("dungeons", "0008_run_actions_run_event_seq_run_rules"),
          ("combat", "0007_battle_run_seq_battleevent_run_seq")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_runs_stored_before_get_one_gap_free_sequence() -> None:
    # given a run stored before the sequence: two battles named by its log, one it does not name
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    host = PlayerFactory()
    run_model, battle_model = old.get_model("dungeons", "Run"), old.get_model("combat", "Battle")
    run = run_model.objects.create(kind="ordinary", host_id=host.pk, seed=7)
    battles = [battle_model.objects.create(run_id=run.pk, floor=0, room=room, seed=1, engine_version=2,
                                           setup={}, state={}) for room in (1, 2, 3)]
    event_model = old.get_model("combat", "BattleEvent")
    for battle, count in zip(battles, (3, 2, 1), strict=True):
        for seq in range(1, count + 1):
            event_model.objects.create(battle_id=battle.pk, seq=seq, data={"kind": "turn_started"})
    log = [{"kind": "started"}, {"kind": "entered"}, {"kind": "battle", "battle": battles[0].pk},
           {"kind": "died"}, {"kind": "battle_over", "battle": battles[0].pk}, {"kind": "entered"},
           {"kind": "battle", "battle": battles[1].pk}, {"kind": "battle_over", "battle": battles[1].pk}]
    run_model.objects.filter(pk=run.pk).update(log=log)
    # when the migrations run
    migrate(migrate([]).loader.graph.leaf_nodes())
    # then the entries and the events are numbered 1..14 in the order they happened, no gap, none twice
    stored = Run.objects.get(pk=run.pk)
    assert [entry["seq"] for entry in stored.log] == [1, 2, 3, 7, 8, 9, 10, 13]
    events = {b.pk: list(BattleEvent.objects.filter(battle=b.pk).order_by("seq")
                         .values_list("run_seq", flat=True)) for b in battles}
    assert events == {battles[0].pk: [4, 5, 6], battles[1].pk: [11, 12], battles[2].pk: [14]}
    assert stored.event_seq == 14
    assert [Battle.objects.get(pk=b.pk).run_seq for b in battles] == [6, 12, 14]
    assert [{k: v for k, v in entry.items() if k != "seq"} for entry in stored.log] == log
