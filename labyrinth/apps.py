"""App config for labyrinth (the maze engine's maps and the labyrinth games); registers their match modes."""
from django.apps import AppConfig


class LabyrinthConfig(AppConfig):
    name = "labyrinth"

    def ready(self) -> None:
        from labyrinth.mode import LabyrinthConsoleMode
        from labyrinth.paper_mode import PaperLabyrinthMode
        from matches.modes import register

        register(LabyrinthConsoleMode())
        register(PaperLabyrinthMode())
