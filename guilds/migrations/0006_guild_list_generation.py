"""The guild list's generation row (guilds/listcache.py)."""
from django.db import migrations, models


def create_row(apps, schema_editor):
    apps.get_model("guilds", "GuildListGeneration").objects.get_or_create(pk=1)


class Migration(migrations.Migration):

    dependencies = [("guilds", "0005_activity_fold")]

    operations = [
        migrations.CreateModel(
            name="GuildListGeneration",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("value", models.BigIntegerField(default=0)),
            ],
            options={"verbose_name": "guild list generation"},
        ),
        migrations.RunPython(create_row, migrations.RunPython.noop),
    ]
