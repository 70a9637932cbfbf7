"""Celery tasks of the players app: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task

from players.notices import notices_forget


@shared_task(name="players.tasks.notices_forget_old")
def notices_forget_old() -> int:
    """Delete the users' notices older than ``players.notices.KEEP_DAYS`` (daily at 03:17 UTC); returns how
    many went."""
    return notices_forget()
