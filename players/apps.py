"""App config for players."""
from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
