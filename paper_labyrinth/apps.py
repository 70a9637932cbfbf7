"""App config for the paper Labyrinth (seed 002): registers the ``labyrinth_paper`` match mode."""

from django.apps import AppConfig


class PaperLabyrinthConfig(AppConfig):
    name = "paper_labyrinth"
    verbose_name = "Paper labyrinth"

    def ready(self) -> None:
        from matches.modes import register
        from paper_labyrinth.mode import PaperLabyrinthMode

        register(PaperLabyrinthMode())
