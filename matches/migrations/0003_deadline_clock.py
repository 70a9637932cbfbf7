"""The deadline clock's column and index: ``deadline_at``, when the awaited turn times out, kept by every
step, with a partial index on the matches that have one (finished matches are not in it).

A running match gets its turn's start as a first ``deadline_at``: the earliest its deadline can be (a seat
that walked out times out at once). The clock then locks it, applies what has really passed (nothing, for
a turn still running) and stores the true deadline, as it does for any stored deadline that is not the
match's own (backend/deadlines.py, matches/services.py). The mode's rule for the deadline is not copied
here: a migration keeps the meaning it had when it was written.
"""

from __future__ import annotations

from django.db import migrations, models


def running_matches_get_a_first_deadline(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    waiting = Match.objects.filter(status="active", awaiting__isnull=False, turn_started_at__isnull=False)
    waiting.update(deadline_at=models.F("turn_started_at"))


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0002_one_result_shape"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="deadline_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the awaited turn times out (null: nobody awaited, or no deadline): kept by every "
                "step, read by the deadline clock (backend/deadlines.py).",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("deadline_at__isnull", False)), fields=["deadline_at"], name="match_deadline_pending"
            ),
        ),
        migrations.RunPython(running_matches_get_a_first_deadline, migrations.RunPython.noop),
    ]
