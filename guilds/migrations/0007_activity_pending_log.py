"""The fold reads new person-runs from an append-only log (PersonRunPending) instead of marking
ledger rows: the ledger loses ``folded`` and its partial index. The person-runs not folded yet
(``person_runs - folded``) become pending rows, so every stored activity value stays as it is."""
import django.db.models.deletion
from django.db import migrations, models

TO_LOG = """INSERT INTO guilds_personrunpending (guild_id, day, person_runs)
            SELECT guild_id, day, person_runs - folded FROM guilds_personrunday WHERE person_runs <> folded"""
# Set-based both ways (no correlated subquery per ledger row): all folded, then less what is pending.
FROM_LOG = (
    "UPDATE guilds_personrunday SET folded = person_runs",
    """UPDATE guilds_personrunday SET folded = guilds_personrunday.person_runs - p.pending
       FROM (SELECT guild_id, day, SUM(person_runs) AS pending FROM guilds_personrunpending
             GROUP BY guild_id, day) AS p
       WHERE guilds_personrunday.guild_id = p.guild_id AND guilds_personrunday.day = p.day""",
)


class Migration(migrations.Migration):

    dependencies = [
        ('guilds', '0006_activity_table'),
    ]

    operations = [
        migrations.CreateModel(
            name='PersonRunPending',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name='ID')),
                ('day', models.DateField()),
                ('person_runs', models.PositiveIntegerField()),
                ('guild', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='+', to='guilds.guild')),
            ],
            options={
                'verbose_name': 'person-runs not yet folded',
                'verbose_name_plural': 'person-runs not yet folded',
            },
        ),
        migrations.RunSQL(TO_LOG, FROM_LOG),
        migrations.RemoveIndex(
            model_name='personrunday',
            name='person_run_day_unfolded',
        ),
        migrations.RemoveField(
            model_name='personrunday',
            name='folded',
        ),
    ]
