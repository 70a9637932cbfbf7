"""App config for the roguelike (seed 000): registers the ``labyrinth_roguelike`` match mode."""

from django.apps import AppConfig


class RoguelikeConfig(AppConfig):
    name = "roguelike"

    def ready(self) -> None:
        from matches.modes import register
        from roguelike.mode import RoguelikeMode

        register(RoguelikeMode())
