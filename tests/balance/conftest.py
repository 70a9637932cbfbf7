"""Fixtures of the balancing lab's tests: a real Celery worker for the page's task."""
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


#: The data migrations whose rows the lab reads (the settings rows, the catalog, the bestiary and its tuning,
#: the junk dealer's tiers), in the order they ran.
SEEDING_MIGRATIONS = [
    ("players", "0002_default_settings"), ("players", "0004_starting_catalog"),
    ("players", "0006_amulets_are_rare"), ("combat", "0002_default_settings_and_bestiary"),
    ("combat", "0005_balance_first_dungeon_bestiary"), ("dungeons", "0002_default_generation_settings"),
    ("dungeons", "0004_default_run_settings"), ("npcs", "0002_default_economy"),
    ("npcs", "0005_default_junk_dealer_tiers"),
]


@pytest.fixture
def migrated_data(transactional_db: Any) -> None:
    """The migrated admin data, loaded again when an earlier transactional test's flush emptied the tables.

    (Django's ``serialized_rollback`` would restore it too, but it clashes with the content types that each
    flush makes again: a unique violation under xdist.) Each data migration's forward functions run again
    with the app registry of the current models, as in the migrations' own tests."""
    import importlib

    from django.apps import apps
    from django.db.migrations.operations.special import RunPython

    from combat.models import EnemyKind

    if EnemyKind.objects.exists():
        return
    for app, name in SEEDING_MIGRATIONS:
        migration = importlib.import_module(f"{app}.migrations.{name}").Migration
        for operation in migration.operations:
            if isinstance(operation, RunPython):
                operation.code(apps, None)
