"""Load SPEC's default guild rules and the 10-minute activity schedule (editable in the admin)."""
from django.db import migrations

ACTIVITY_TASK_NAME = "Recompute guild activity"


def create_defaults(apps, schema_editor):
    apps.get_model("guilds", "GuildRules").objects.get_or_create(pk=1)
    interval_model = apps.get_model("django_celery_beat", "IntervalSchedule")
    task_model = apps.get_model("django_celery_beat", "PeriodicTask")
    every_ten, _ = interval_model.objects.get_or_create(every=10, period="minutes")
    task_model.objects.get_or_create(
        name=ACTIVITY_TASK_NAME,
        defaults={"task": "guilds.tasks.guild_activity_recompute", "interval": every_ten, "enabled": True},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=ACTIVITY_TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("guilds", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(create_defaults, remove_schedule)]
