"""App config for matches (modes register themselves from their own apps' ready())."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
