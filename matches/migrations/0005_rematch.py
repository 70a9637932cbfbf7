"""Issue 28 (resign, rematch): the seats that resigned, a finished match's one rematch lobby, and the
rematch lobby's window reserved for the players of the match it follows."""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0004_bot_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="resigned_seats",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Seats whose players resigned (lost at once): their turns time out at once, they win "
                "nothing.",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="rematch",
            field=models.OneToOneField(
                blank=True,
                help_text="The lobby a player of this finished match opened as its rematch (at most one).",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematch_of",
                to="matches.match",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="reserved_until",
            field=models.DateTimeField(
                blank=True,
                help_text="A rematch lobby: until then only the players of the match it follows may join.",
                null=True,
            ),
        ),
    ]
