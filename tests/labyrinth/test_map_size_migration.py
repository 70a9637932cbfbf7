"""labyrinth/0006 counts every seed 003 map's cells and deactivates the designer maps larger than a lobby
may ask for (they stay as drafts), so the new constraints hold; maps that fit keep their state."""
from __future__ import annotations

from random import Random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from labyrinth.engine import GeneratorSettings, format_map, generate_map
from labyrinth.models import LabyrinthMapDesign
from paper_labyrinth.engine import format_paper_map
from paper_labyrinth.engine.generator import plain_paper_map
from paper_labyrinth.models import PaperMapDesign

BEFORE = [("labyrinth", "0005_map_design_help_texts")]
AFTER = [("labyrinth", "0006_designer_maps_fit_a_lobby")]
PLAIN = GeneratorSettings()


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def console_row(name: str, rows: int, cols: int, settings: GeneratorSettings = PLAIN) -> dict:
    text = format_map(generate_map(rows, cols, Random(1), settings))
    return {"name": name, "text": text, "rows": rows, "cols": cols, "is_active": True}


@pytest.mark.django_db(transaction=True)
def test_oversize_designer_maps_are_deactivated_and_the_others_kept() -> None:
    # given: designer maps saved before the limit (the generator allowed 200 x 200)
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    console = old.get_model("labyrinth", "LabyrinthMapDesign").objects
    dreams = GeneratorSettings(sleep_rate=0.05, dream_fields=2, dream_rows=50, dream_cols=50)
    for row in (console_row("huge", 200, 200), console_row("dreamy", 10, 10, dreams),
                console_row("fits", 50, 50), {**console_row("draft", 60, 4), "is_active": False}):
        console.create(**row)
    paper = old.get_model("labyrinth", "PaperMapDesign").objects
    for name, side in (("paper huge", 13), ("paper fits", 12)):
        paper.create(name=name, text=format_paper_map(plain_paper_map(Random(1), side, side)), rows=side,
                     cols=side, cell_count=side * side, is_active=True)
    # when
    migrate(AFTER)
    # then
    found = {d.name: (d.is_active, d.cell_count) for d in LabyrinthMapDesign.objects.filter(
        name__in=["huge", "dreamy", "fits", "draft"])}
    assert found == {"huge": (False, 40_000 + 25), "dreamy": (False, 5_100), "fits": (True, 2_525),
                     "draft": (False, 240 + 25)}
    assert dict(PaperMapDesign.objects.filter(name__startswith="paper").values_list("name", "is_active")) == {
        "paper huge": False, "paper fits": True}
    migrate(migrate([]).loader.graph.leaf_nodes())
