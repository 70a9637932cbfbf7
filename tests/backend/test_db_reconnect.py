"""Dropped database connections are replaced, not handed to requests (issue 11, item 2).

After ``pg_terminate_backend`` on the server's connections (what a PostgreSQL restart or failover
does), the pool handed out dead connections for seconds: bursts of 500s. The pool now checks a
connection before lending it. Requests go through a real threaded WSGI server (``live_server``),
so connections are borrowed from and returned to the pool exactly as under gunicorn.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from rest_framework_simplejwt.tokens import RefreshToken

from tests.factories import PlayerFactory


def _get(url: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _kill_server_connections() -> int:
    """Terminate every other backend connected to the test database; returns how many."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        rows = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    return len(rows)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_requests_after_the_servers_connections_are_killed_get_no_500(live_server) -> None:
    # given: the server has pooled connections (several concurrent-free requests fill the pool)
    player = PlayerFactory()
    token = str(RefreshToken.for_user(player.user).access_token)
    url = f"{live_server.url}/api/v1/me/"
    assert settings.DATABASES["default"]["OPTIONS"].get("pool"), "the pool is what this test is about"
    # A pool of its own, as a server process starts with: the live server and the pool are shared by the
    # whole session, and an earlier test that killed connections mid-request (test_db_unavailable.py) can
    # leave some of them counted as lent, after which this test's kills found no connection in time.
    connection.close_pool()
    connection.close()  # the test's own connection goes back to the pool too
    assert all(_get(url, token)[0] == 200 for _ in range(5))

    statuses = []
    for _ in range(3):
        # when: PostgreSQL drops every connection the server holds
        assert _kill_server_connections() >= 1
        # then: the next requests are answered, none with a 500
        statuses += [_get(url, token)[0] for _ in range(10)]
    assert statuses == [200] * 30


@pytest.mark.parametrize(("pool", "expected"), [("1", (True, 0, True)), ("0", (True, 60, False))])
def test_connections_are_health_checked_with_and_without_the_pool(pool, expected) -> None:
    # the settings as a fresh process builds them (no database is contacted)
    code = ("from django.conf import settings as s; d = s.DATABASES['default']; "
            "print(d['CONN_HEALTH_CHECKS'], d.get('CONN_MAX_AGE'), 'pool' in d.get('OPTIONS', {}))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "backend.settings", "DB_POOL": pool,
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    out = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], env=env,
                         capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.split() == [str(value) for value in expected]
