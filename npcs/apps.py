"""App config for npcs."""
from django.apps import AppConfig


class NpcsConfig(AppConfig):
    name = "npcs"
