"""Celery tasks of the guilds app: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task

from guilds.services import guild_activity_fold, guild_activity_recompute_all


@shared_task(name="guilds.tasks.guild_activity_recompute")
def guild_activity_recompute() -> int:
    """Recompute every guild's activity from its whole window (daily; corrects any drift of the
    fold); returns the guild rows written."""
    return guild_activity_recompute_all()


@shared_task(name="guilds.tasks.guild_activity_fold")
def guild_activity_fold_task() -> int:
    """Fold the person-runs recorded since the last fold and the expired days (every 10 minutes);
    returns the guild rows written."""
    return guild_activity_fold()
