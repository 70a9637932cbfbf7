"""Remove the task outbox (issue 13): it never had a production caller.

Drops the relay's beat entry (backend/0002) and the OutboxMessage table. Reversing recreates the
empty table and the schedule entry, as 0001 and 0002 made them.
"""
from django.db import migrations

RELAY_TASK_NAME = "Relay the task outbox"  # the name backend/0002 gave the periodic task


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=RELAY_TASK_NAME).delete()


def restore_schedule(apps, schema_editor):
    interval_model = apps.get_model("django_celery_beat", "IntervalSchedule")
    every_minute, _ = interval_model.objects.get_or_create(every=1, period="minutes")
    apps.get_model("django_celery_beat", "PeriodicTask").objects.get_or_create(
        name=RELAY_TASK_NAME,
        defaults={"task": "backend.tasks.outbox_relay", "interval": every_minute, "enabled": True,
                  "description": "Publishes outbox messages whose publish on commit failed (broker down)."},
    )


class Migration(migrations.Migration):
    dependencies = [
        ("backend", "0002_outbox_relay_schedule"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [
        migrations.RunPython(remove_schedule, restore_schedule),
        migrations.DeleteModel(name="OutboxMessage"),
    ]
