"""App config for labyrinth (the grid-maze engine's maps, seed 003's game): registers labyrinth_console."""
from django.apps import AppConfig


class LabyrinthConfig(AppConfig):
    name = "labyrinth"

    def ready(self) -> None:
        from labyrinth.mode import LabyrinthConsoleMode
        from matches.modes import register

        register(LabyrinthConsoleMode())
