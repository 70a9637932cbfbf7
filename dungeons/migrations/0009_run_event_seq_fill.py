"""Existing runs get their one sequence (SPEC 13): the log's entries and the battles' events numbered together.

The order of a battle's events among the run's entries was not stored before; they are placed right after the
battle's ``battle`` entry (which names it), and a battle the log does not name goes after the last entry. New
writes number each entry and event as it happens (docs/runs.md, "One sequence per run").
"""
from __future__ import annotations

from typing import Any

from django.db import migrations


def _number(apps: Any, schema_editor: Any) -> None:
    Run = apps.get_model("dungeons", "Run")
    Battle = apps.get_model("combat", "Battle")
    BattleEvent = apps.get_model("combat", "BattleEvent")
    for run in Run.objects.order_by("pk").iterator():
        battles = list(Battle.objects.filter(run_id=run.pk).order_by("pk").values_list("pk", flat=True))
        named = {entry.get("battle") for entry in run.log if entry.get("kind") == "battle"}
        seq, log = 0, []

        def battle_events(battle_id: int) -> None:
            nonlocal seq
            events = list(BattleEvent.objects.filter(battle_id=battle_id).order_by("seq"))
            for event in events:
                seq += 1
                event.run_seq = seq
            BattleEvent.objects.bulk_update(events, ["run_seq"])
            Battle.objects.filter(pk=battle_id).update(run_seq=seq)

        for entry in run.log:
            seq += 1
            log.append({**entry, "seq": seq})
            if entry.get("kind") == "battle" and entry.get("battle") in battles:
                battle_events(entry["battle"])
        for battle_id in battles:
            if battle_id not in named:
                battle_events(battle_id)
        Run.objects.filter(pk=run.pk).update(log=log, event_seq=seq)


class Migration(migrations.Migration):

    dependencies = [
        ("dungeons", "0008_run_actions_run_event_seq_run_rules"),
        ("combat", "0007_battle_run_seq_battleevent_run_seq"),
    ]

    operations = [migrations.RunPython(_number, migrations.RunPython.noop)]
