"""A real ASGI server (uvicorn serving ``backend.asgi:application``) applies a passed turn deadline with
nobody reading: its lifespan started the deadline clock (backend/deadlines.py).

Two players register, open, join and start a cell capture match over HTTP with a one-second turn (the
admin's minimum), and then nobody asks the server anything: the test watches the database directly until
the silent player's turn has timed out (a bounded wait; the test does not time the clock), and the
server's access log shows that no read of the match was made. It runs on the embedded default (a SQLite
file, one process: the server is all there is) and on PostgreSQL.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.backend.live.servers import uvicorn

ROOT = Path(__file__).resolve().parents[2]
#: How long the test waits for the clock before it fails (not a measure of speed).
WAIT_SECONDS = 60.0
Sql = Callable[[str, list[Any]], list[tuple[Any, ...]]]


def _call(method: str, url: str, body: dict[str, Any] | None = None, token: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _a_match_whose_silent_turn_times_out(base: str, sql: Sql, log: Path) -> None:
    api = f"{base}/api/v1"
    tokens = []
    for name in ("clock-host", "clock-guest"):
        who = {"username": name, "password": "a-long-Pass-4321"}
        status, body = _call("POST", f"{api}/auth/register/", who)
        assert status == 201, body
        tokens.append(body["access"])
    host, guest = tokens
    status, lobby = _call("POST", f"{api}/matches/", {"mode": "cell_capture", "settings": {}}, host)
    assert status == 201, lobby
    # the admin's shortest turn for the mode, and for this lobby (its copy of the mode's deadline)
    sql("UPDATE matches_matchmodesettings SET turn_deadline_seconds = 1 WHERE mode = %s", ["cell_capture"])
    sql("UPDATE matches_match SET turn_deadline_seconds = 1 WHERE id = %s", [lobby["id"]])
    assert _call("POST", f"{api}/matches/{lobby['id']}/join/", None, guest)[0] == 200
    status, begun = _call("POST", f"{api}/matches/{lobby['id']}/start/", None, host)
    assert status == 200, begun
    assert begun["turn"] == 1

    # when: nobody reads or acts; then: the server times the silent turn out by itself
    give_up = time.monotonic() + WAIT_SECONDS
    while not sql("SELECT turn FROM matches_match WHERE id = %s AND turn >= 2", [lobby["id"]]):
        assert time.monotonic() < give_up, "no deadline fired:\n" + log.read_text()
        time.sleep(0.1)
    timed_out = sql("SELECT action, response FROM matches_matchaction WHERE match_id = %s AND turn = 1",
                    [lobby["id"]])
    assert len(timed_out) == 1 and timed_out[0][0] is None
    assert json.loads(timed_out[0][1]) == {"timeout": True}
    # and nothing read the match: the only requests the server saw are the ones above
    lines = log.read_text().splitlines()
    requests = [line.split('"')[1] for line in lines if '"' in line and " HTTP/" in line]
    assert f"POST /api/v1/matches/{lobby['id']}/start/ HTTP/1.1" in requests, lines  # the log has them all
    assert not [r for r in requests if r.startswith("GET") and "/matches/" in r], requests


def test_the_embedded_server_fires_a_deadline_with_nobody_reading(tmp_path: Path) -> None:
    # given: the embedded default (no DATABASE_URL, REDIS_URL or broker), migrated into a SQLite file
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}}
    env["DEEPDELVE_DATA_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    database = tmp_path / "deepdelve.sqlite3"

    def sql(query: str, params: list[Any]) -> list[tuple[Any, ...]]:
        with sqlite3.connect(database, timeout=30) as db:
            return db.execute(query.replace("%s", "?"), params).fetchall()

    log = tmp_path / "uvicorn.log"
    with uvicorn({**env, "DEADLINE_CLOCK": "1"}, log) as base:
        _a_match_whose_silent_turn_times_out(base, sql, log)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_server_on_postgresql_fires_a_deadline_with_nobody_reading(tmp_path: Path) -> None:
    from django.db import connection

    # given: the server on the test database (what the test commits, the server sees)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if db.get("PASSWORD"):
        url = url.replace("@", f":{db['PASSWORD']}@", 1)
    env = {**os.environ, "DATABASE_URL": url}

    def sql(query: str, params: list[Any]) -> list[tuple[Any, ...]]:
        with connection.cursor() as cursor:
            cursor.execute(query, params)
            rows = cursor.fetchall() if cursor.description else []
        return [tuple(json.dumps(v) if isinstance(v, dict) else v for v in row) for row in rows]

    log = tmp_path / "uvicorn.log"
    try:
        with uvicorn({**env, "DEADLINE_CLOCK": "1"}, log) as base:
            _a_match_whose_silent_turn_times_out(base, sql, log)
    finally:
        connection.close()
