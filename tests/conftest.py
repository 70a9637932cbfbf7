"""Suite-wide fixtures: hypothesis profiles, a clean cache per test, database-kind markers, workers, the
migrated default data for transactional tests."""
from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.workers import embedded_page, make_scheduler, touches_db, use_worker_redis

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The API fuzzer's budget (cases over all operations) and seed for this run, unless given: a new seed
# each run, drawn here in the main process before any worker starts (workers inherit the environment),
# printed in the header and named by every fuzz failure (tests/backend/test_fuzz_api.py).
os.environ.setdefault("FUZZ_MIN_CASES", "1000")
os.environ.setdefault("FUZZ_SEED", str(random.SystemRandom().randrange(1, 2**32)))
use_worker_redis()  # under pytest-xdist: this worker's own Redis databases
# No deadline clock in a server a test starts (they inherit the environment), unless the test turns it on
# (tests/backend/test_deadlines_served.py): a test's deadlines move when the test moves them.
os.environ.setdefault("DEADLINE_CLOCK", "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--db-tests-only", action="store_true",
                     help="run only the tests that use the database (for a second database's run: the "
                          "others ran already)")


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    return make_scheduler(config, log) if config.getvalue("dist") in ("load", "loadgroup") else None


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"fuzz: FUZZ_SEED={os.environ['FUZZ_SEED']} FUZZ_MIN_CASES={os.environ['FUZZ_MIN_CASES']}"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.conf import settings as django_settings

    if config.getoption("db_tests_only"):
        elsewhere = [item for item in items if not touches_db(item)]
        if elsewhere:
            config.hook.pytest_deselected(items=elsewhere)
            items[:] = [item for item in items if touches_db(item)]

    on_postgres = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL: SQLite ignores row locks (set DATABASE_URL)")
    skip_redis = pytest.mark.skip(reason="needs Redis (set REDIS_URL)")
    skip_page = pytest.mark.skip(reason="a page served in-process: runs on the embedded default (SQLite), "
                                        "the second run of .ci/run (tests/workers.py, EMBEDDED_PAGE_FIXTURE)")
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(skip_pg)
        if on_postgres and embedded_page(item):
            item.add_marker(skip_page)
        if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(skip_redis)


@pytest.fixture(autouse=True)
def _clean_cache():
    """Throttle counters live in the cache; each test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2's deliberate slowness protects real passwords; tests need none of it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _match_seeds_of_the_test(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match a test starts draws its seed from a generator seeded by the test's id (the server draws
    from the system's randomness): a test plays the same games in every run, so a failure on an unlucky
    seed reproduces. A test that chooses its seeds patches ``_SEED_SOURCE`` itself, after this."""
    import zlib

    from matches import services as match_services

    seeded = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(match_services, "_SEED_SOURCE", seeded)


@pytest.fixture(autouse=True)
def _fresh_settings_rows():
    """Each test's database starts from the migrated settings rows; so must the in-process cache."""
    from backend.models import SingletonSettings, balancing_cache_clear

    SingletonSettings._cache.clear()
    balancing_cache_clear()
    yield
    SingletonSettings._cache.clear()
    balancing_cache_clear()


@pytest.fixture(autouse=True)
def _fresh_pool_after_transactional_tests(request: pytest.FixtureRequest) -> Any:
    """After a test that committed through other threads (a transactional test: a live server, threads of
    its own), this process's connection pool is closed; the next test opens a new one.

    Django's test live server leaves pool slots counted as lent when PostgreSQL kills connections under
    requests in flight (its request threads keep their connection wrappers), and the whole session shares
    one pool per worker: a later test sending 16 requests at once then waited the pool's 10 s and got 503s
    (tests/players/test_notices_concurrency.py; docs/live.md). Set up before the database fixtures, so this
    runs after their teardown (the flush)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    if not transactional and "transactional_db" not in request.fixturenames:
        return
    from django.db import connections

    default = connections["default"]
    if default.vendor == "postgresql" and default.settings_dict.get("OPTIONS", {}).get("pool"):
        default.close()
        default.close_pool()


@pytest.fixture(autouse=True, scope="session")
def _compiled_catalogues() -> None:
    """The gettext catalogues compiled, as the install does (``manage.py compile_catalogs``), so every
    test reads the game in English and in Russian whichever way the suite was started."""
    from backend.management.commands.compile_catalogs import compile_catalogues

    compile_catalogues()


@pytest.fixture(autouse=True, scope="session")
def _flush_by_delete_on_postgresql() -> Any:
    """A transactional test's teardown empties every table (Django's ``flush``): on PostgreSQL with DELETE
    instead of one TRUNCATE of all of them. TRUNCATE makes new files for each of the 80-odd tables, about
    0.3 s a test; the few rows a test leaves go in about 0.02 s. Every foreign key is deferrable (Django's),
    so the order does not matter within the flush's transaction; nothing is triggered by a delete
    (tests/test_flush.py holds both). Where a test asks Django to reset the sequences, or to cascade to
    tables outside its apps, Django's own statement does it."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: DatabaseOperations, style: Any, tables: Any, *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                for table in tables]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = truncate  # type: ignore[method-assign]


#: The data migrations whose rows are the game's defaults (the settings rows, the catalog, the bestiary and
#: its tuning, the NPC economy, the junk dealer's tiers), in the order they ran.
SEEDING_MIGRATIONS = [
    ("players", "0002_default_settings"), ("players", "0004_starting_catalog"),
    ("players", "0006_amulets_are_rare"), ("combat", "0002_default_settings_and_bestiary"),
    ("combat", "0005_balance_first_dungeon_bestiary"), ("dungeons", "0002_default_generation_settings"),
    ("dungeons", "0004_default_run_settings"), ("npcs", "0002_default_economy"),
    ("npcs", "0005_default_junk_dealer_tiers"),
]


@pytest.fixture
def anyio_backend() -> str:
    """The async tests (``pytest.mark.anyio``) run on asyncio, as Django's ASGI handler does."""
    return "asyncio"


@pytest.fixture(autouse=True)
def _close_connections_of_sync_to_async(request: pytest.FixtureRequest) -> Any:
    """After an async test, the database connections of asgiref's one thread for ``sync_to_async`` (its
    factories, its ``AsyncClient`` requests' sync parts) are closed. Left open, they outlived the session,
    and dropping the test database at the end failed ("is being accessed by other users")."""
    yield
    if request.node.get_closest_marker("anyio") is None:
        return
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture
def embedded_hub(settings: Any) -> None:
    """The live hub delivers in this process, not through Redis: a stream test's steps wake its streams
    (``pytest.mark.usefixtures("embedded_hub")``)."""
    settings.REDIS_URL = ""


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
