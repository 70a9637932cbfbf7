from django.db import migrations


def create_run_settings(apps, schema_editor):
    """The run balancing row with the defaults of dungeons.run_rules.RunRules."""
    apps.get_model("dungeons", "RunSettings").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("dungeons", "0003_runs")]

    operations = [migrations.RunPython(create_run_settings, migrations.RunPython.noop)]
