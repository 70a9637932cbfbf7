"""App config for guilds."""
from django.apps import AppConfig


class GuildsConfig(AppConfig):
    name = "guilds"

    def ready(self) -> None:
        from guilds.listcache import connect_receivers

        connect_receivers()
