"""Load seed 002's example paper maps (paper_labyrinth/engine/examples.py) as designer maps."""
from django.db import migrations


def load(apps, schema_editor):
    from paper_labyrinth.engine import parse_paper_map, validate_paper_map
    from paper_labyrinth.engine.examples import CUT_CORNERS_TEXT, SMALL_CLASSIC_TEXT

    Design = apps.get_model("labyrinth", "PaperMapDesign")
    for name, text in (("Seed 002: small classic example", SMALL_CLASSIC_TEXT),
                       ("Seed 002: cut corners example", CUT_CORNERS_TEXT)):
        m = parse_paper_map(text)
        result = validate_paper_map(m, "classic")
        findings = [{"rule": f.rule, "cells": [list(p) for p in f.cells], "message": f.message}
                    for f in result.errors + result.warnings]
        Design.objects.get_or_create(name=name, defaults={
            "text": text, "variant": "classic", "is_active": result.ok, "rows": m.rows, "cols": m.cols,
            "cell_count": len(m.cells), "errors": findings[:len(result.errors)],
            "error_count": len(result.errors), "warnings": findings[len(result.errors):],
            "warning_count": len(result.warnings)})


class Migration(migrations.Migration):
    dependencies = [("labyrinth", "0003_paper_map_design")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
