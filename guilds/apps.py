"""App config for guilds."""
from django.apps import AppConfig


class GuildsConfig(AppConfig):
    name = "guilds"
