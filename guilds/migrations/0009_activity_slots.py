"""Two activity value slots per guild (issue 19: the day change costs a tick): ``activity``/``runs``
become slot ``a`` (every stored value kept), slot ``b`` starts empty and unprepared, ``a`` is
current. The stored divisor goes: a fold computes it from the guild's creation time. The daily
full recompute, which now also prepares the next day's slot, moves to 23:40 UTC.

Backwards: the current slot's values go back to ``activity``/``runs``; the divisors are not
stored, so the old code's next pass is a full recompute (``day`` = NULL), which gives the same
values."""
from django.db import migrations, models

FULL_TASK_NAME = "Recompute guild activity"  # guilds/0002's task, daily since guilds/0005
CURRENT_B_TO_A = """UPDATE guilds_guildactivity SET activity_a = activity_b, runs_a = runs_b
                    WHERE EXISTS (SELECT 1 FROM guilds_activityfold WHERE slot = 'b')"""


def _move_daily(apps, *, old: tuple[str, str], new: tuple[str, str]) -> None:
    """Move the daily recompute from (hour, minute) ``old`` to ``new`` UTC, unless an operator
    already scheduled it otherwise."""
    crontab_model = apps.get_model("django_celery_beat", "CrontabSchedule")
    daily, _ = crontab_model.objects.get_or_create(hour=new[0], minute=new[1], day_of_week="*", day_of_month="*",
                                                   month_of_year="*", timezone="UTC")
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(
        name=FULL_TASK_NAME, crontab__hour=old[0], crontab__minute=old[1]).update(crontab=daily)


def before_midnight(apps, schema_editor):
    _move_daily(apps, old=("0", "3"), new=("23", "40"))


def after_midnight(apps, schema_editor):
    _move_daily(apps, old=("23", "40"), new=("0", "3"))


class Migration(migrations.Migration):

    dependencies = [
        ('guilds', '0008_merge_activity_table_and_list_generation'),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='guildactivity', name='guild_activity_not_negative'),
        migrations.RemoveIndex(model_name='guildactivity', name='guild_activity_list'),
        migrations.RenameField(model_name='guildactivity', old_name='activity', new_name='activity_a'),
        migrations.RenameField(model_name='guildactivity', old_name='runs', new_name='runs_a'),
        migrations.RemoveField(model_name='guildactivity', name='divisor'),
        migrations.AddField(model_name='guildactivity', name='activity_b',
                            field=models.FloatField(default=0.0)),
        migrations.AddField(model_name='guildactivity', name='runs_b',
                            field=models.PositiveIntegerField(default=0, editable=False)),
        migrations.AddField(model_name='activityfold', name='slot',
                            field=models.CharField(choices=[('a', 'a'), ('b', 'b')], default='a', max_length=1)),
        migrations.AddField(model_name='activityfold', name='next_day',
                            field=models.DateField(blank=True, null=True,
                                                   help_text='The day the other slot was prepared for (null: not prepared).')),
        # Backwards only: the values readers saw are kept, and the old code recomputes in full next.
        migrations.RunSQL(migrations.RunSQL.noop, [CURRENT_B_TO_A, "UPDATE guilds_activityfold SET day = NULL"]),
        migrations.AddIndex(model_name='guildactivity',
                            index=models.Index(fields=['activity_a', 'guild'], name='guild_activity_list_a')),
        migrations.AddIndex(model_name='guildactivity',
                            index=models.Index(fields=['activity_b', 'guild'], name='guild_activity_list_b')),
        migrations.AddConstraint(model_name='guildactivity',
                                 constraint=models.CheckConstraint(condition=models.Q(('activity_a__gte', 0)),
                                                                   name='guild_activity_a_not_negative')),
        migrations.AddConstraint(model_name='guildactivity',
                                 constraint=models.CheckConstraint(condition=models.Q(('activity_b__gte', 0)),
                                                                   name='guild_activity_b_not_negative')),
        migrations.RunPython(before_midnight, after_midnight),
    ]
