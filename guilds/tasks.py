"""Celery tasks of the guilds app: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task

from guilds.services import guild_activity_recompute_all


@shared_task(name="guilds.tasks.guild_activity_recompute")
def guild_activity_recompute() -> int:
    """Recompute every guild's activity in one set-based pass (idempotent); returns guilds updated."""
    return guild_activity_recompute_all()
