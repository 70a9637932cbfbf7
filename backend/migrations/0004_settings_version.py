"""The settings token (issue 24): one row that every change of a settings row gives a new random token."""
import secrets

from django.db import migrations, models


def create_token(apps, schema_editor):
    apps.get_model("backend", "SettingsVersion").objects.create(pk=1, token=secrets.randbits(62))


class Migration(migrations.Migration):
    dependencies = [("backend", "0003_remove_outbox")]
    operations = [
        migrations.CreateModel(
            name="SettingsVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("token", models.BigIntegerField()),
            ],
        ),
        migrations.RunPython(create_token, migrations.RunPython.noop),
    ]
