"""App config of the browser pages."""
from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
