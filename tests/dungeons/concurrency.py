"""Real concurrent HTTP requests against a live test server: one thread (and one database
connection) per request, all released together by a barrier. For tests marked ``postgres``.

``live_url`` serves the project like pytest-django's ``live_server`` (a threaded WSGI server on
127.0.0.1 over the test database), but with a listen backlog of 128 instead of Django's 10: 32
clients connecting in the same instant overflow a backlog of 10 and some get their connection
reset before the server ever reads their request. Import ``live_url_fixture`` into a test module
and ask for ``live_url``.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection
from django.test.testcases import LiveServerThread, _StaticFilesHandler
from rest_framework_simplejwt.tokens import RefreshToken

from players.models import Player

T = TypeVar("T")


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any

    @property
    def code(self) -> str | None:
        """The error code of a JSON error body, None for a success."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return self.body["error"]["code"]
        return None


def token(player: Player) -> str:
    return str(RefreshToken.for_user(player.user).access_token)


def request(method: str, url: str, bearer: str, data: Any = None) -> Reply:
    """One request on its own connection; HTTP errors are replies, not exceptions."""
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(
        url,
        data=body,
        method=method,
        headers={
            "Authorization": f"Bearer {bearer}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            raw, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    return Reply(status, json.loads(raw) if raw else None)


def all_at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run every call in its own thread, all released by one barrier; results in call order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int, call: Callable[[], T]) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except BaseException as exc:  # noqa: BLE001 - surfaced in the test thread below
            failures.append(exc)
        finally:
            connection.close()  # a thread that touched the ORM must not leak its connection

    threads = [threading.Thread(target=run, args=(i, call), daemon=True) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a concurrent call hung"
    if failures:
        raise failures[0]
    return results


class _DeepBacklogServer(ThreadedWSGIServer):
    request_queue_size = 128


class _ServerThread(LiveServerThread):
    server_class = _DeepBacklogServer


@pytest.fixture(name="live_url")
def live_url_fixture(transactional_db: None, settings: Any) -> Any:
    """Base URL of a live server for this test (committed data, real connections per request)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    thread = _ServerThread("127.0.0.1", _StaticFilesHandler)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait(timeout=30)
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()
    thread.join(timeout=30)
