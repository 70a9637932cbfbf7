"""Celery tasks of the project package: the outbox relay (beat, every minute)."""
from __future__ import annotations

from celery import shared_task

from backend import outbox


@shared_task(name="backend.tasks.outbox_relay")
def outbox_relay() -> int:
    """Publish outbox messages whose earlier publish failed (idempotent); returns how many were sent."""
    return outbox.relay()
