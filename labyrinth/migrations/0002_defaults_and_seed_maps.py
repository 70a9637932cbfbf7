"""Load the generator's default rates and seed 003's two example maps (corrected as SPEC 9.1 says)."""
from django.db import migrations


def load(apps, schema_editor):
    from labyrinth.engine import parse_map, unreachable_cells
    from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE

    seed_maps = {"Seed 003: first example": FIRST_EXAMPLE,
                 "Seed 003: sleep example (corrected)": SLEEP_EXAMPLE}

    apps.get_model("labyrinth", "LabyrinthGeneratorSettings").objects.get_or_create(pk=1)
    Design = apps.get_model("labyrinth", "LabyrinthMapDesign")
    for name, text in seed_maps.items():
        m = parse_map(text)
        unreachable = [list(cell) for cell in unreachable_cells(m)]
        Design.objects.get_or_create(name=name, defaults={
            "text": text, "is_active": not unreachable, "rows": m.fields[0].rows, "cols": m.fields[0].cols,
            "field_count": len(m.fields), "special_count": len(m.specials()), "unreachable": unreachable,
            "unreachable_count": len(unreachable)})


class Migration(migrations.Migration):
    dependencies = [("labyrinth", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
