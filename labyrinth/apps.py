"""App config for labyrinth (the grid-maze engine's maps and, later, the labyrinth games)."""
from django.apps import AppConfig


class LabyrinthConfig(AppConfig):
    name = "labyrinth"
