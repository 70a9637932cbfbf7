"""Real ASGI servers for the tests that need one: uvicorn over ``backend.asgi`` in a process of its own (as
``dev.py serve`` starts it), on the test's database, and an SSE client reading from its socket."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import dev
from tests.backend.live.sse_reader import GUARD_SECONDS, Sse, parse

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return {**env, "DATABASE_URL": database_url, "SECRET_KEY": settings.SECRET_KEY, "PYTHONUNBUFFERED": "1",
            **extra}


def database_url_of_test() -> str:
    """The URL of the database the running test uses (pytest-django's ``test_...`` database)."""
    from django.db import connection

    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@contextmanager
def uvicorn(env: dict[str, str], log: Path) -> Iterator[str]:
    """A uvicorn process serving the project; yields its base URL once it answers."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(dev.asgi_server_command(f"127.0.0.1:{port}"), cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while not _answers(f"{base}/api/v1/modes/"):
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "uvicorn did not come up:\n" + log.read_text()
                time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # 401: it answers
    except (urllib.error.URLError, OSError):
        return False


class SocketSseReader:
    """A stream read from a real server's socket, message by message."""

    def __init__(self, base: str, path: str, headers: dict[str, str]) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=GUARD_SECONDS)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **headers})
        self.response = self.connection.getresponse()

    def next(self) -> Sse:
        while True:
            lines = []
            while (line := self.response.readline().decode()) != "\n":
                if not line:
                    raise EOFError("the server ended the stream")
                lines.append(line)
            message = parse("".join(lines).encode())
            if message.comment != "ping":
                return message

    def until(self, event: str) -> list[Sse]:
        seen = [self.next()]
        while seen[-1].event != event:
            seen.append(self.next())
        return seen

    def close(self) -> None:
        self.connection.close()


def post_json(base: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    import json

    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=GUARD_SECONDS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
