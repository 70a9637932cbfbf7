from django.db import migrations


def forwards(apps, schema_editor):
    """The settings row with its defaults, and a maze for every guild that has none (SPEC 9.5)."""
    from darkness.engine import MazeParams
    from darkness.layout import new_maze_fields

    settings_row, _ = apps.get_model("darkness", "DarknessSettings").objects.get_or_create(pk=1)
    params = MazeParams(rows=settings_row.rows, cols=settings_row.cols, sections=settings_row.sections,
                        teleport_rate=settings_row.teleport_rate, rubber_rate=settings_row.rubber_rate,
                        stun_rate=settings_row.stun_rate, stun_turns=settings_row.stun_turns)
    GuildMaze = apps.get_model("darkness", "GuildMaze")
    Guild = apps.get_model("guilds", "Guild")
    for guild_id in Guild.objects.filter(maze__isnull=True).order_by("pk").values_list("pk", flat=True):
        GuildMaze.objects.create(guild_id=guild_id, **new_maze_fields(params))


class Migration(migrations.Migration):
    dependencies = [("darkness", "0001_initial"), ("guilds", "0002_default_rules_and_schedule")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
