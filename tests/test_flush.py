"""What lets a transactional test's teardown empty the tables by DELETE on PostgreSQL (tests/conftest.py,
``_flush_by_delete_on_postgresql``): every foreign key may wait for the end of the flush's transaction,
and no trigger fires on a delete; and the flush it makes empties every table."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_every_foreign_key_is_deferrable_and_no_table_has_a_trigger() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT conrelid::regclass::text, conname FROM pg_constraint "
                       "WHERE contype = 'f' AND connamespace = 'public'::regnamespace AND NOT condeferrable")
        assert cursor.fetchall() == []
        cursor.execute("SELECT count(*) FROM pg_constraint "
                       "WHERE contype = 'f' AND connamespace = 'public'::regnamespace")
        assert cursor.fetchone()[0] > 50  # the check reads the real schema
        cursor.execute("SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal")
        assert cursor.fetchall() == []


def test_the_flush_after_a_test_deletes_every_row_of_every_table_referenced_or_not() -> None:
    from django.test.utils import CaptureQueriesContext

    from tests.factories import make_guild, make_run

    make_guild(members=2)  # a guild, its members, its maze: rows that reference each other
    make_run()
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with CaptureQueriesContext(connection) as flushed:  # as a transactional test's teardown flushes
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False,
                     inhibit_post_migrate=True)
    statements = [query["sql"] for query in flushed.captured_queries]
    assert sum(sql.startswith("DELETE FROM") for sql in statements) == len(tables)
    assert not any("TRUNCATE" in sql for sql in statements)
    with connection.cursor() as cursor:
        left = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            left[table] = cursor.fetchone()[0]
    assert set(left.values()) == {0}
