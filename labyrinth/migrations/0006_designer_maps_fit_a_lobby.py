"""Designer maps no larger than a lobby may ask for: every seed 003 map's cells counted, larger maps
deactivated (kept as drafts), and database constraints that keep them inactive."""

from django.db import migrations, models

# The limits as they were when this migration was written (a migration must not follow later code).
CONSOLE_MAX_SIDE = 50
CONSOLE_MAX_CELLS = 5000
PAPER_MAX_SIDE = 12


def fit(apps, schema_editor):
    """Count the cells of every seed 003 map (all fields) and deactivate the maps that are too large."""
    from labyrinth.engine import MapFormatError, parse_map

    designs = apps.get_model("labyrinth", "LabyrinthMapDesign").objects
    for design in designs.only("pk", "text", "rows", "cols", "is_active").iterator():
        try:
            cells = sum(field.rows * field.cols for field in parse_map(design.text).fields)
        except MapFormatError:  # a row older than a format rule: its field 0 as stored
            cells = design.rows * design.cols
        too_large = max(design.rows, design.cols) > CONSOLE_MAX_SIDE or cells > CONSOLE_MAX_CELLS
        designs.filter(pk=design.pk).update(cell_count=cells, is_active=design.is_active and not too_large)
    paper = apps.get_model("labyrinth", "PaperMapDesign").objects
    too_large = models.Q(rows__gt=PAPER_MAX_SIDE) | models.Q(cols__gt=PAPER_MAX_SIDE)
    paper.filter(too_large, is_active=True).update(is_active=False)


class Migration(migrations.Migration):

    dependencies = [
        ("labyrinth", "0005_map_design_help_texts"),
    ]

    operations = [
        migrations.AddField(
            model_name="labyrinthmapdesign",
            name="cell_count",
            field=models.PositiveIntegerField(
                default=0, editable=False, help_text="Cells of the map (of all fields in a seed 003 map)."
            ),
        ),
        migrations.AlterField(
            model_name="papermapdesign",
            name="cell_count",
            field=models.PositiveIntegerField(
                default=0, editable=False, help_text="Cells of the map (of all fields in a seed 003 map)."
            ),
        ),
        migrations.RunPython(fit, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="labyrinthmapdesign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("is_active", False),
                    models.Q(("cell_count__lte", 5000), ("cols__lte", 50), ("rows__lte", 50)),
                    _connector="OR",
                ),
                name="labyrinth_active_maps_fit_a_lobby",
            ),
        ),
        migrations.AddConstraint(
            model_name="papermapdesign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("is_active", False), models.Q(("cols__lte", 12), ("rows__lte", 12)), _connector="OR"
                ),
                name="labyrinth_active_paper_maps_fit_a_lobby",
            ),
        ),
    ]
