"""App config for combat."""
from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
