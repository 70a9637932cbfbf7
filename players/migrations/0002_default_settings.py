"""Load the default player settings row."""
from django.db import migrations


def create_defaults(apps, schema_editor):
    apps.get_model("players", "PlayerSettings").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]
    operations = [migrations.RunPython(create_defaults, migrations.RunPython.noop)]
