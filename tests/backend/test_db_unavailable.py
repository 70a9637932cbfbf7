"""A request whose database connection is lost answers 503 ``database_unavailable``, and writes nothing.

Issue 24, item 5: requests in flight when PostgreSQL ended their connection (``pg_terminate_backend``,
what a restart or a failover does) answered 500 (12 in three kills). The connections are killed from a
second connection while the requests run through a real threaded WSGI server (``live_server``), as in
``test_db_reconnect.py``, which covers the requests after a kill.
"""
from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, OperationalError, ProgrammingError, connection, connections
from django.test import Client, RequestFactory
from rest_framework_simplejwt.tokens import RefreshToken

from backend.api.errors import DATABASE_RETRY_AFTER_SECONDS, database_unavailable, server_error_view
from guilds.models import Guild, Membership
from tests.factories import PlayerFactory

UNAVAILABLE = {"error": {"code": "database_unavailable",
                         "message": "The game's database is unavailable for a moment; try again.",
                         "details": {"retry_after": DATABASE_RETRY_AFTER_SECONDS}}}


def _request(url: str, *, token: str | None = None, cookie: str | None = None,
             body: dict[str, Any] | None = None) -> tuple[int, dict[str, str], bytes]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if cookie:
        headers["Cookie"] = cookie
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _admin_params() -> dict[str, Any]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return params


def _terminate(where: str) -> int:
    """Terminate the other backends of the test database that match ``where``; returns how many."""
    with psycopg.connect(**_admin_params(), autocommit=True) as admin:
        return len(admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                                 f"current_database() AND pid <> pg_backend_pid() AND {where}").fetchall())


class TableLock:
    """A table lock held from a connection of the test's own (``hold``) until ``release`` or the end."""

    def __init__(self) -> None:
        self.holder = psycopg.connect(**_admin_params())

    def hold(self, table: str, mode: str) -> int:
        """Take the lock; returns the holder's backend pid."""
        self.holder.execute(f"LOCK TABLE {table} IN {mode} MODE")
        return int(self.holder.info.backend_pid)

    def release(self) -> None:
        self.holder.rollback()


@pytest.fixture
def table_lock() -> Iterator[TableLock]:
    lock = TableLock()
    yield lock
    lock.release()
    lock.holder.close()


def _in_flight(target: Any, holder_pid: int) -> tuple[threading.Thread, dict[str, Any]]:
    """Run ``target`` in a thread until the server's connection waits on the held lock: it is in flight."""
    result: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: result.update(answer=target()))
    thread.start()
    deadline = time.monotonic() + 20
    while _waiting(holder_pid) == 0:
        assert time.monotonic() < deadline, "the request never reached the locked table"
        time.sleep(0.05)
    return thread, result


def _waiting(holder_pid: int) -> int:
    with psycopg.connect(**_admin_params(), autocommit=True) as admin:
        return len(admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND "
                                 "%s = ANY(pg_blocking_pids(pid))", [holder_pid]).fetchall())


def _assert_unavailable(status: int, headers: dict[str, str], body: bytes) -> None:
    assert status == 503, body
    assert headers["Content-Type"] == "application/json"
    assert headers["Retry-After"] == str(DATABASE_RETRY_AFTER_SECONDS)
    assert json.loads(body) == UNAVAILABLE


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_write_whose_connection_is_killed_mid_transaction_is_a_503_and_writes_nothing(
    live_server: Any, table_lock: TableLock
) -> None:
    # given a player founding a guild, held by a lock after the guild's row is written and before its
    # first membership is
    player = PlayerFactory()
    token = str(RefreshToken.for_user(player.user).access_token)
    url = f"{live_server.url}/api/v1/guilds/"
    holder = table_lock.hold("guilds_membership", "SHARE")
    thread, result = _in_flight(lambda: _request(url, token=token, body={"name": "Lantern Bearers"}), holder)
    # when PostgreSQL ends the request's connection
    assert _terminate(f"{holder} = ANY(pg_blocking_pids(pid))") == 1
    thread.join(timeout=60)
    # then the answer is the JSON 503 with Retry-After, and nothing of the guild was written
    _assert_unavailable(*result["answer"])
    assert not Guild.objects.filter(name="Lantern Bearers").exists()
    assert not Membership.objects.filter(player=player).exists()
    # and the same request, sent again once the database is back, founds the guild
    table_lock.release()
    status, _, body = _request(url, token=token, body={"name": "Lantern Bearers"})
    assert status == 201, body
    assert Membership.objects.filter(player=player, guild__name="Lantern Bearers").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_admin_page_whose_connection_is_killed_is_the_same_503(
    live_server: Any, table_lock: TableLock
) -> None:
    # given a staff session (the admin is a Django view, not DRF's) whose page waits on a locked table
    user = get_user_model().objects.create_superuser("keeper", password="a long admin passphrase")
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    holder = table_lock.hold("guilds_guild", "ACCESS EXCLUSIVE")
    page = f"{live_server.url}/admin/guilds/guild/"
    thread, result = _in_flight(lambda: _request(page, cookie=cookie), holder)
    # when its connection is ended
    assert _terminate(f"{holder} = ANY(pg_blocking_pids(pid))") == 1
    thread.join(timeout=60)
    # then
    _assert_unavailable(*result["answer"])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_requests_in_flight_while_every_connection_is_killed_get_200_or_503_never_500(live_server) -> None:
    # given four clients reading and writing without pause
    players = PlayerFactory.create_batch(4)
    connection.close()
    stop, answers = threading.Event(), []

    def client(player: Any) -> None:
        token = str(RefreshToken.for_user(player.user).access_token)
        while not stop.is_set():
            answers.append(_request(f"{live_server.url}/api/v1/me/", token=token))
            answers.append(_request(f"{live_server.url}/api/v1/guilds/", token=token,
                                    body={"name": f"Guild of {player.user.username}"}))

    threads = [threading.Thread(target=client, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    try:
        # when PostgreSQL drops every connection of the server three times
        for _ in range(3):
            time.sleep(0.5)
            _terminate("backend_type = 'client backend'")
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    # then every answer is a success, the rule's refusal of a second guild, or the JSON 503
    statuses = [status for status, _, _ in answers]
    assert set(statuses) <= {200, 201, 409, 503}, statuses
    for answer in answers:
        if answer[0] == 503:
            _assert_unavailable(*answer)
    # and no guild was left half-written: each has exactly its founder as member
    for guild in Guild.objects.all():
        assert list(guild.memberships.values_list("player_id", flat=True)) == [guild.leader_id]


# --- what counts as the database being unavailable --------------------------------------------------------

def _refused() -> OperationalError:
    """What Django raises when PostgreSQL cannot be reached (nothing listens on the port)."""
    settings_dict = {**connection.settings_dict, "PORT": 1, "OPTIONS": {}}
    unreachable = type(connections["default"])(settings_dict, alias="unreachable")
    try:
        unreachable.ensure_connection()
    except OperationalError as exc:
        return exc
    raise AssertionError("port 1 answered")


@pytest.mark.postgres
def test_a_refused_connection_counts_and_a_failing_statement_does_not(db) -> None:
    assert database_unavailable(_refused())
    for statement, error in [("SELECT 1/0", DataError), ("SELECT * FROM no_such_table", ProgrammingError)]:
        with pytest.raises(error) as failed, connection.cursor() as cursor:
            cursor.execute(f"SAVEPOINT s; {statement}")
        assert not database_unavailable(failed.value)
        with connection.cursor() as cursor:
            cursor.execute("ROLLBACK TO SAVEPOINT s")
    assert not database_unavailable(IntegrityError("duplicate key"))


@pytest.mark.postgres
def test_no_free_pooled_connection_in_time_counts(db) -> None:
    pool = {"min_size": 0, "max_size": 1, "timeout": 0.2}
    settings_dict = {**connection.settings_dict, "OPTIONS": {"pool": pool}}
    first, second = (type(connections["default"])(settings_dict, alias="tiny-pool") for _ in range(2))
    try:
        first.ensure_connection()  # holds the pool's only connection
        with pytest.raises(OperationalError) as timed_out:
            second.ensure_connection()
        assert database_unavailable(timed_out.value)
    finally:
        first.close()
        first.close_pool()


@pytest.mark.postgres
def test_the_500_handler_answers_a_lost_database_as_the_503(db) -> None:
    # handler500 answers errors raised outside any view (a middleware); it sees the error being handled
    request = RequestFactory().get("/admin/")
    try:
        raise _refused()
    except OperationalError:
        response = server_error_view(request)
    _assert_unavailable(response.status_code, dict(response.headers), response.content)
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error_view(request).status_code == 500
