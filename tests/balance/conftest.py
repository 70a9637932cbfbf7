"""Fixtures of the balancing lab's tests: a real Celery worker for the page's task (the migrated data: the
root conftest's `migrated_data`)."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from backend.celery import app as celery_app


def _route(*, routes: Any) -> None:
    """Set the app's routes; Celery keeps the ones it read first in its router, so make it read them again."""
    celery_app.conf.task_routes = routes
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)


@pytest.fixture
def balance_worker() -> Iterator[Any]:
    """A ``celery worker`` subprocess (tests/guilds/test_activity_worker.py's) on a queue of its own, to which
    ``balance.tasks.simulation_run`` is routed while the test runs, sent through the broker (never eager)."""
    from tests.guilds.test_activity_worker import Worker, _forget_queue

    queue = f"test-balance-{uuid.uuid4().hex[:12]}"
    process = Worker(queue)
    routes, eager = celery_app.conf.task_routes, celery_app.conf.task_always_eager
    try:
        process.wait_ready(timeout=60)
        _route(routes={"balance.tasks.simulation_run": {"queue": queue}})
        celery_app.conf.task_always_eager = False
        yield process
    finally:
        _route(routes=routes)
        celery_app.conf.task_always_eager = eager
        process.stop()
        _forget_queue(queue)
