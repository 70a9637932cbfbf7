"""Parallel test workers: their Redis databases, the modules kept in one worker, the database tests."""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

#: Redis serves databases 0-15 unless configured otherwise.
REDIS_DATABASES = 16
#: The settings that name a Redis database: the cache (throttle counters) and the Celery broker.
REDIS_ROLES = ("REDIS_URL", "CELERY_BROKER_URL")
#: Fixtures that reach the test database, directly or through the server they start (``django_db_setup``:
#: a module-scoped world unblocks the database itself). A test whose fixture closure holds none of them
#: (and has no ``django_db`` mark) cannot touch it: pytest-django blocks every query outside them. Not
#: ``django_db_blocker``: pytest-django's autouse fixtures put it in every closure.
DB_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "django_db_setup", "live_server", "client", "async_client", "admin_client", "admin_user",
    "django_assert_num_queries", "django_assert_max_num_queries",
})


#: Modules whose tests run in one worker: each builds a module-scoped world once (split between workers,
#: each would build it), and the fuzz's last test counts the cases of all the others.
ONE_WORKER_MODULES = frozenset({"tests/backend/test_fuzz_api.py", "tests/backend/test_fuzz_access.py",
                                "tests/backend/test_cursors.py", "tests/test_dev_serve.py"})


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The scheduler of ``-n`` (``--dist load``, and ``loadgroup``, which pytest-xdist 3.8 cannot apply to
    pytest 9's node ids): every test a unit of work of its own, except the tests of each of
    ``ONE_WORKER_MODULES``, which go to one worker together (the largest unit first)."""
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_WORKER_MODULES else nodeid

    return ModuleGroups(config, log)


def redis_db(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path else 0


def with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


def worker_redis_urls(environ: Mapping[str, str]) -> dict[str, str]:
    """The Redis URLs of this pytest-xdist worker, each in databases of its own; {} outside a worker.

    Worker ``gwN`` moves every role by ``N * stride`` databases, the stride being the span of the
    configured ones: with the cache on 1 and the broker on 0 (CI), gw0 keeps 1 and 0 and gw1 gets 3
    and 2. A worker's ``cache.clear()`` (FLUSHDB) then never empties another worker's counters or queue.
    """
    worker = environ.get("PYTEST_XDIST_WORKER", "")
    urls = {name: environ[name] for name in REDIS_ROLES
            if environ.get(name, "").startswith(("redis://", "rediss://"))}
    if not worker or not urls:
        return {}
    index, count = int(worker.removeprefix("gw")), int(environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    bases = {name: redis_db(url) for name, url in urls.items()}
    stride = max(bases.values()) - min(bases.values()) + 1
    highest = max(bases.values()) + stride * (count - 1)
    if highest >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"{count} workers need Redis databases up to {highest} from {', '.join(urls.values())}; "
            f"Redis has 0-{REDIS_DATABASES - 1}: use fewer workers (-n) or lower database numbers")
    return {name: with_redis_db(url, bases[name] + stride * index) for name, url in urls.items()}


#: The Redis URLs the run was given, before ``use_worker_redis`` moved this worker's.
GIVEN: dict[str, str] = {}


def use_worker_redis() -> dict[str, str]:
    """Point this worker's environment and Django settings at its own Redis databases.

    Runs from the root conftest, after pytest-django has loaded the settings and before anything
    uses the cache or the broker: the environment for the processes tests start and for Celery
    (which prefers ``CELERY_BROKER_URL`` to its configuration), the settings for this process.
    """
    GIVEN.update({name: os.environ[name] for name in REDIS_ROLES if name in os.environ})
    urls = worker_redis_urls(os.environ)
    if not urls:
        return {}
    from django.conf import settings
    from django.test import override_settings

    os.environ.update(urls)
    changed: dict[str, object] = {}
    if "REDIS_URL" in urls:
        cache = {**settings.CACHES["default"], "LOCATION": urls["REDIS_URL"]}
        changed.update(REDIS_URL=urls["REDIS_URL"], CACHES={**settings.CACHES, "default": cache})
    if "CELERY_BROKER_URL" in urls:
        changed["CELERY_BROKER_URL"] = urls["CELERY_BROKER_URL"]
    override_settings(**changed).enable()  # for the whole worker: it also resets the cache handler
    return urls


#: The fixture that serves the project's pages in this process (tests/play/browser.py). A test that uses it
#: checks a page, which is the same whatever the database: it runs in the embedded default's run only (SQLite
#: and no Redis, what ``dev.py serve`` gives a newcomer), and the PostgreSQL run skips it; every API call
#: the page makes is tested on both databases by the API's own tests.
EMBEDDED_PAGE_FIXTURE = "serial_live_server"


def embedded_page(item: pytest.Item) -> bool:
    """Whether the test checks a page served in this process (``EMBEDDED_PAGE_FIXTURE``)."""
    return EMBEDDED_PAGE_FIXTURE in getattr(item, "fixturenames", ())


def touches_db(item: pytest.Item) -> bool:
    """Whether the test may use the database: a ``django_db`` mark, a database fixture anywhere in its
    fixture closure, a Django test case class, or the ``per_database`` mark (results of a database run)."""
    if item.get_closest_marker("django_db") or item.get_closest_marker("per_database"):
        return True
    if DB_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    from django.test import TransactionTestCase

    cls = getattr(item, "cls", None)
    return cls is not None and issubclass(cls, TransactionTestCase)
