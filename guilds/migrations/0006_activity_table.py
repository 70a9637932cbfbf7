"""Activity moves to a narrow table of its own (one row per guild): a recompute rewrites small rows
with two indexes instead of guild rows with seven. Every guild's stored values are copied over."""
import django.db.models.deletion
from django.db import migrations, models

COPY = """INSERT INTO guilds_guildactivity (guild_id, activity, runs, divisor, computed_at)
          SELECT id, activity, activity_runs, 1.0, activity_computed_at FROM guilds_guild"""
_OF_GUILD = "FROM guilds_guildactivity a WHERE a.guild_id = guilds_guild.id"
COPY_BACK = f"""UPDATE guilds_guild SET
    activity = COALESCE((SELECT a.activity {_OF_GUILD}), 0),
    activity_runs = COALESCE((SELECT a.runs {_OF_GUILD}), 0),
    activity_computed_at = (SELECT a.computed_at {_OF_GUILD})"""


class Migration(migrations.Migration):

    dependencies = [
        ('guilds', '0005_activity_fold'),
    ]

    operations = [
        migrations.CreateModel(
            name='GuildActivity',
            fields=[
                ('guild', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                               related_name='activity_row', serialize=False,
                                               to='guilds.guild')),
                ('activity', models.FloatField(default=0.0)),
                ('runs', models.PositiveIntegerField(default=0, editable=False)),
                ('divisor', models.FloatField(default=1.0, editable=False)),
                ('computed_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'verbose_name': 'guild activity',
                'verbose_name_plural': 'guild activity',
            },
        ),
        # Existing values (and window sums of the fold) are kept as they are; the divisors are not
        # stored yet, so the next pass is a full recompute (the same values).
        migrations.RunSQL(COPY, COPY_BACK),
        migrations.RunSQL("UPDATE guilds_activityfold SET day = NULL", migrations.RunSQL.noop),
        migrations.RemoveConstraint(
            model_name='guild',
            name='guild_activity_not_negative',
        ),
        migrations.RemoveIndex(
            model_name='guild',
            name='guild_list_activity',
        ),
        migrations.RemoveField(
            model_name='guild',
            name='activity',
        ),
        migrations.RemoveField(
            model_name='guild',
            name='activity_computed_at',
        ),
        migrations.RemoveField(
            model_name='guild',
            name='activity_runs',
        ),
        migrations.AddIndex(
            model_name='guildactivity',
            index=models.Index(fields=['activity', 'guild'], name='guild_activity_list'),
        ),
        migrations.AddConstraint(
            model_name='guildactivity',
            constraint=models.CheckConstraint(condition=models.Q(('activity__gte', 0)),
                                              name='guild_activity_not_negative'),
        ),
    ]
