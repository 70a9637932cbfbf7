"""The task outbox table (backend.outbox)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="OutboxMessage",
            fields=[
                ("id", models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("task_name", models.CharField(
                    help_text="The Celery task, e.g. guilds.tasks.guild_activity_recompute.",
                    max_length=200)),
                ("kwargs", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("published_at", models.DateTimeField(
                    blank=True, help_text="Empty until the broker took it.", null=True)),
                ("attempts", models.PositiveIntegerField(
                    default=0, help_text="Failed publish attempts so far.")),
                ("next_attempt_at", models.DateTimeField(
                    default=django.utils.timezone.now, help_text="The relay retries from this moment.")),
                ("last_error", models.TextField(blank=True, default="")),
            ],
            options={
                "ordering": ["pk"],
                "indexes": [models.Index(condition=models.Q(("published_at__isnull", True)),
                                         fields=["next_attempt_at", "id"], name="outbox_due")],
            },
        ),
    ]
