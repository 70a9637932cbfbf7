"""Celery tasks of the guilds app: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task

from guilds.services import guild_activity_fold, guild_activity_recompute_all


@shared_task(name="guilds.tasks.guild_activity_recompute")
def guild_activity_recompute() -> int:
    """Recompute every guild's activity from its whole window and prepare the next day's values
    (daily at 23:40 UTC; corrects any drift of the fold); returns the guild rows written."""
    return guild_activity_recompute_all()


@shared_task(name="guilds.tasks.guild_activity_fold")
def guild_activity_fold_task() -> int:
    """Fold the person-runs recorded since the last fold (every 10 minutes; the first of a UTC day
    switches to the prepared next day's values); returns the guild rows written."""
    return guild_activity_fold()
