"""App config for the project package (shared plumbing, no models)."""
from django.apps import AppConfig


class BackendConfig(AppConfig):
    name = "backend"
    verbose_name = "Deepdelve"
