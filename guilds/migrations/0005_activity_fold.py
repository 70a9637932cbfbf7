"""The incremental activity fold: its state row, the folded marks on the ledger, and the schedules:
the fold every 10 minutes, the full recompute once a day (both editable in the admin)."""
import django.db.models.deletion
from django.db import migrations, models

FULL_TASK_NAME = "Recompute guild activity"  # guilds/0002's task, now daily
FOLD_TASK_NAME = "Fold guild activity"


def schedules(apps, schema_editor):
    apps.get_model("guilds", "ActivityFold").objects.get_or_create(pk=1)
    interval_model = apps.get_model("django_celery_beat", "IntervalSchedule")
    crontab_model = apps.get_model("django_celery_beat", "CrontabSchedule")
    task_model = apps.get_model("django_celery_beat", "PeriodicTask")
    every_ten, _ = interval_model.objects.get_or_create(every=10, period="minutes")
    daily, _ = crontab_model.objects.get_or_create(minute="3", hour="0", day_of_week="*", day_of_month="*",
                                                   month_of_year="*", timezone="UTC")
    task_model.objects.filter(name=FULL_TASK_NAME).update(interval=None, crontab=daily)
    task_model.objects.get_or_create(
        name=FOLD_TASK_NAME,
        defaults={"task": "guilds.tasks.guild_activity_fold", "interval": every_ten, "enabled": True},
    )


def unschedule(apps, schema_editor):
    interval_model = apps.get_model("django_celery_beat", "IntervalSchedule")
    task_model = apps.get_model("django_celery_beat", "PeriodicTask")
    task_model.objects.filter(name=FOLD_TASK_NAME).delete()
    every_ten, _ = interval_model.objects.get_or_create(every=10, period="minutes")
    task_model.objects.filter(name=FULL_TASK_NAME).update(interval=every_ten, crontab=None)


class Migration(migrations.Migration):

    dependencies = [
        ('guilds', '0004_merge_0003_hop_rule_and_reject_reason_0003_name_key'),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.CreateModel(
            name='ActivityFold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('day', models.DateField(blank=True, null=True)),
                ('window_days', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('computed_at', models.DateTimeField(blank=True, null=True)),
                ('full_at', models.DateTimeField(blank=True, help_text='The last full recompute.', null=True)),
            ],
            options={
                'verbose_name': 'activity fold state',
            },
        ),
        migrations.AddField(
            model_name='guild',
            name='activity_runs',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='personrunday',
            name='folded',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        # Rows recorded so far count as folded: the first fold finds no state and recomputes in full.
        migrations.RunSQL("UPDATE guilds_personrunday SET folded = person_runs", migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name='personrunday',
            index=models.Index(condition=models.Q(('person_runs', models.F('folded')), _negated=True), fields=['day'], name='person_run_day_unfolded'),
        ),
        migrations.AddIndex(
            model_name='personrunday',
            index=models.Index(fields=['day'], name='person_run_day_day'),
        ),
        # The (guild, day) unique index serves every lookup by guild: one index fewer to maintain.
        migrations.AlterField(
            model_name='personrunday',
            name='guild',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name='person_run_days', to='guilds.guild'),
        ),
        migrations.RunPython(schedules, unschedule),
    ]
