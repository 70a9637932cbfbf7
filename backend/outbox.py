"""The transactional task outbox: Celery work that must not be lost when the broker is down.

``enqueue(task_name, kwargs)`` writes an ``OutboxMessage`` row in the caller's transaction and
publishes it to the broker once that transaction commits: a rolled-back transaction sends
nothing, a committed one is sent even if Redis is unreachable at that moment, because a failed
publish leaves the row for ``relay()`` (the ``backend.tasks.outbox_relay`` beat task, every
minute), which retries with exponential backoff until the broker takes it.

Delivery is at least once (a publish whose row update is lost is sent again), so the tasks sent
through here must be idempotent; each message keeps one task id (``outbox-<pk>``) for all its
publishes, which a consumer may use to drop a duplicate.

    from backend import outbox

    @transaction.atomic
    def guild_member_add(...):
        ...  # the business write
        outbox.enqueue("guilds.tasks.guild_activity_recompute")
"""
from __future__ import annotations

import enum
import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from backend.celery import app as celery_app
from backend.models import OutboxMessage

logger = logging.getLogger(__name__)

RETRY_BASE_SECONDS = 15  # the first retry after a failed publish; doubled each failure
RETRY_MAX_SECONDS = 300  # never wait longer than this once the broker is back
KEEP_PUBLISHED_DAYS = 7  # published rows are kept this long for the admin, then pruned
RELAY_BATCH = 100
# One reconnect covers a pooled broker connection that went stale while Redis restarted; a broker
# that is really down fails fast and the relay tries again later.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}


class Published(enum.Enum):
    SENT = "sent"
    SKIPPED = "skipped"  # already published, or another relay holds the row
    FAILED = "failed"  # the broker was unreachable; the row waits for a retry
    REJECTED = "rejected"  # the message itself is wrong (e.g. kwargs the task does not take); retried too


# What an unreachable or failing broker raises through Celery (it wraps most in OperationalError).
BROKER_ERRORS = (OperationalError, ConnectionError, TimeoutError, OSError)


def enqueue(task_name: str, kwargs: dict[str, Any] | None = None) -> OutboxMessage:
    """Record ``task_name(**kwargs)`` in the current transaction; publish it when that commits.

    ``kwargs`` must be JSON-serialisable (ids, not model instances). Outside a transaction the
    row is committed at once and published straight away.
    """
    message = OutboxMessage.objects.create(task_name=task_name, kwargs=kwargs or {})
    transaction.on_commit(partial(publish, message.pk), robust=True)
    return message


def retry_delay(attempts: int) -> timedelta:
    """Backoff after the ``attempts``-th failed publish: 15 s, 30 s, 60 s, ... at most 5 minutes."""
    return timedelta(seconds=min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** max(0, attempts - 1)))


def publish(message_id: int) -> Published:
    """Send one unpublished message to the broker and mark it published; on failure schedule a retry.

    The row is locked (SKIP LOCKED on PostgreSQL) while it is sent, so the commit hook and any
    number of relays never publish one message twice at the same moment.
    """
    with transaction.atomic():
        message = (OutboxMessage.objects.select_for_update(skip_locked=True)
                   .filter(pk=message_id, published_at__isnull=True).first())
        if message is None:
            return Published.SKIPPED
        try:
            celery_app.signature(message.task_name, kwargs=message.kwargs).apply_async(
                task_id=message.task_id, retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        except Exception as exc:  # noqa: BLE001 - a broker error, or a message Celery refuses to send
            outcome = Published.FAILED if isinstance(exc, BROKER_ERRORS) else Published.REJECTED
            message.attempts += 1
            message.next_attempt_at = timezone.now() + retry_delay(message.attempts)
            message.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            message.save(update_fields=["attempts", "next_attempt_at", "last_error"])
            log = logger.warning if outcome is Published.FAILED else logger.error
            log("outbox: could not publish %s (attempt %d, %s), retrying from %s", message, message.attempts,
                message.last_error, message.next_attempt_at.isoformat())
            return outcome
        message.published_at = timezone.now()
        message.save(update_fields=["published_at"])
        return Published.SENT


def relay(*, now: datetime | None = None, limit: int = RELAY_BATCH) -> int:
    """Publish the messages whose retry is due, oldest first; returns how many were sent.

    Stops at the first broker failure (the rest would fail too; a rejected message does not stop
    it, so one bad message never holds up the others), and prunes
    published rows older than ``KEEP_PUBLISHED_DAYS``. Safe to run concurrently.
    """
    now = now or timezone.now()
    due = list(OutboxMessage.objects.filter(published_at__isnull=True, next_attempt_at__lte=now)
               .order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit])
    sent = 0
    for message_id in due:
        outcome = publish(message_id)
        if outcome is Published.FAILED:
            break
        sent += outcome is Published.SENT
    OutboxMessage.objects.filter(published_at__lt=now - timedelta(days=KEEP_PUBLISHED_DAYS)).delete()
    return sent
