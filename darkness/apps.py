"""App config for darkness: the Labyrinth of Darkness (SPEC 9.5), a guild's maze and its runs.

It builds on dungeons and guilds, which import nothing from it: ready() registers the run kind's
hooks (dungeons/kinds.py) and its run-log entries' texts, and connects to guild creation
(guilds/signals.py)."""
from django.apps import AppConfig


class DarknessConfig(AppConfig):
    name = "darkness"
    verbose_name = "Labyrinth of Darkness"

    def ready(self) -> None:
        from darkness.hooks import DarknessHooks, on_guild_created
        from darkness.texts import register_texts
        from dungeons.kinds import register_run_kind
        from dungeons.models import DungeonKind
        from guilds.signals import guild_created

        register_run_kind(DungeonKind.DARKNESS, DarknessHooks())
        register_texts()  # its run-log entries speak (dungeons/runs/texts.py)
        guild_created.connect(on_guild_created, dispatch_uid="darkness.guild_maze_create")
