"""App config for darkness: the Labyrinth of Darkness (SPEC 9.5), a guild's maze and its runs."""
from django.apps import AppConfig


class DarknessConfig(AppConfig):
    name = "darkness"
    verbose_name = "Labyrinth of Darkness"
