"""Spectators (SPEC 15): each mode's admin row says whether its started matches may be watched and how many
steps behind a spectator reads a running one.

The rows existing now get this migration's defaults: watching on for cell capture (its board is public) and
both labyrinths played at a table (their public views show no map), off for the single-player roguelike.
A row created later starts with its adapter's declaration (``matches.services.mode_settings``). The modes
are named here as the words they were when this was written, as a migration keeps its meaning.
"""

import django.core.validators
from django.db import migrations, models

WATCHED = ("cell_capture", "labyrinth_console", "labyrinth_paper")


def watched_modes_on(apps, schema_editor):
    apps.get_model("matches", "MatchModeSettings").objects.filter(mode__in=WATCHED).update(spectators=True)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0006_lobbies"),
        ("cell_capture", "0001_mode_settings"),  # its row exists before it is switched on
    ]

    operations = [
        migrations.AddField(
            model_name="matchmodesettings",
            name="spectators",
            field=models.BooleanField(
                default=False,
                help_text="Anyone who may see a started match of this mode (public, or of their own guild) "
                "may watch it: the public view and public events only, never a seat's private knowledge.",
            ),
        ),
        migrations.AddField(
            model_name="matchmodesettings",
            name="spectator_delay_turns",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Spectators of a running match see it this many steps behind (0: live); after the "
                "end, everything public.",
                validators=[django.core.validators.MaxValueValidator(1000)],
            ),
        ),
        migrations.RunPython(watched_modes_on, migrations.RunPython.noop),
    ]
