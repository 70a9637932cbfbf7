"""Load SPEC section 5's default generation parameters into the settings singleton."""
from django.db import migrations

# Frozen here on purpose: a migration must not follow later changes of the code's defaults.
SPEC_DEFAULTS = {
    "f_min": 2,
    "f_max": 6,
    "r_min": 4,
    "r_max": 8,
    "n_opt": 4.0,
    "r_opt": 3.0,
    "c_opt": 10.0,
    "k": 0.5,
    "treasure_base": 10.0,
    "treasure_cap": 14.0,
    "trap_base": 2.0,
    "trap_cap": 8.0,
    "enemy_base": 30.0,
    "enemy_cap": 40.0,
    "story_item_chance": 0.05,
}


def load_defaults(apps, schema_editor):  # Django's untyped migration signature
    GenerationSettings = apps.get_model("dungeons", "GenerationSettings")
    GenerationSettings.objects.update_or_create(pk=1, defaults=SPEC_DEFAULTS)


class Migration(migrations.Migration):
    dependencies = [("dungeons", "0001_initial")]

    operations = [migrations.RunPython(load_defaults, migrations.RunPython.noop)]
