"""App config for dungeons."""
from django.apps import AppConfig


class DungeonsConfig(AppConfig):
    name = "dungeons"
