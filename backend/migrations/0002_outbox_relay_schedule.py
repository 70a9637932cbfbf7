"""Schedule the outbox relay every minute (a django-celery-beat periodic task, editable in the admin)."""
from django.db import migrations

RELAY_TASK_NAME = "Relay the task outbox"


def create_schedule(apps, schema_editor):
    interval_model = apps.get_model("django_celery_beat", "IntervalSchedule")
    task_model = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = interval_model.objects.get_or_create(every=1, period="minutes")
    task_model.objects.get_or_create(
        name=RELAY_TASK_NAME,
        defaults={"task": "backend.tasks.outbox_relay", "interval": every_minute, "enabled": True,
                  "description": "Publishes outbox messages whose publish on commit failed (broker down)."},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=RELAY_TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("backend", "0001_outbox"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(create_schedule, remove_schedule)]
