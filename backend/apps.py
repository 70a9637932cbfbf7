"""App config for the project package (shared plumbing; its one table is the settings token)."""
import logging
from typing import Any

from django.apps import AppConfig
from django.db import DatabaseError


class BackendConfig(AppConfig):
    name = "backend"
    verbose_name = "Deepdelve"

    def ready(self) -> None:
        from django.core.signals import request_finished, request_started
        from django.db.models.signals import post_migrate

        from backend.models import settings_token_forget

        request_started.connect(settings_token_forget, dispatch_uid="settings-token-start")
        request_finished.connect(settings_token_forget, dispatch_uid="settings-token-end")
        post_migrate.connect(_settings_migrated, sender=self, dispatch_uid="settings-token-migrate")


def _settings_migrated(sender: Any, *, using: str = "default", **kwargs: Any) -> None:
    """A migration may rewrite settings rows without saving models: copies read before it must go."""
    from backend.models import settings_changed

    try:
        settings_changed(None, using=using)
    except DatabaseError:  # e.g. migrating backwards past the token's table
        logging.getLogger(__name__).warning("settings token not replaced after migrate", exc_info=True)
