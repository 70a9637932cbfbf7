"""The cell_capture mode's admin row: default board 8 x 8, a 60 s turn deadline."""
from django.db import migrations

DEFAULTS = {"width": 8, "height": 8}


def create(apps, schema_editor):
    MatchModeSettings = apps.get_model("matches", "MatchModeSettings")
    MatchModeSettings.objects.get_or_create(mode="cell_capture",
                                            defaults={"defaults": DEFAULTS, "turn_deadline_seconds": 60})


def remove(apps, schema_editor):
    apps.get_model("matches", "MatchModeSettings").objects.filter(mode="cell_capture").delete()


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]
