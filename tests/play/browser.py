"""What every browser test shares: Debian's Chromium driven by Playwright, and a live server for it.

Debian's chromium is driven through Playwright's Python package (never `playwright install`); a test
module marks itself with ``NEEDS_CHROMIUM`` so it is skipped, saying why, only when no chromium binary
exists. Import the fixtures in the test module (``from tests.play.browser import browser, ...``).
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import WSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler

CHROMIUM = shutil.which("chromium") or next(
    (p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None)
NEEDS_CHROMIUM = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary: `apt-get install chromium`")


class SerialLiveServerThread(LiveServerThread):
    """A live server that answers one request at a time.

    On SQLite the test database lives in memory and every thread of a live server shares the test's
    one connection: a threaded server interleaves the transactions of concurrent requests on it
    ("database table is locked"). Browsers poll concurrently, so serve them in turn (Django then
    answers with Connection: close, so no browser holds the server).
    """

    def _create_server(self, connections_override: Any = None) -> WSGIServer:
        return WSGIServer((self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=False)


@pytest.fixture
def serial_live_server(transactional_db: None) -> Iterator[str]:
    """The project served in this process, one request at a time; a test that uses it runs in the embedded
    default's run only (tests/workers.py, ``EMBEDDED_PAGE_FIXTURE``)."""
    shared = {c.alias: c for c in connections.all() if c.vendor == "sqlite" and c.is_in_memory_db()}
    for connection in shared.values():
        connection.inc_thread_sharing()
    thread = SerialLiveServerThread("localhost", StaticFilesHandler, connections_override=shared)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield f"http://localhost:{thread.port}"
    thread.terminate()
    for connection in shared.values():
        connection.dec_thread_sharing()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a module's tests on a worker (launching one takes most of a second); each test opens
    contexts of its own in it. Not wider: Playwright's sync API leaves its event loop set in this thread
    while it is open, which only the browser tests' modules may see."""
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        # the event loop set in this thread makes Django refuse the tests' own (sync) ORM reads
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            yield chromium
            chromium.close()


class Api:
    """The public API over HTTP as one player (registered by the page with ``password``), to check what a
    page shows against what the server answers; ``language``: the answers' language."""

    def __init__(self, base: str, username: str, password: str, language: str = "en") -> None:
        self.base = base
        credentials = {"username": username, "password": password}
        tokens = requests.post(f"{base}/api/v1/auth/token/", json=credentials, timeout=10)
        assert tokens.status_code == 200, tokens.text
        self.headers = {"Authorization": f"Bearer {tokens.json()['access']}", "Accept-Language": language}

    def get(self, path: str) -> Any:
        response = requests.get(f"{self.base}/api/v1/{path}", headers=self.headers, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def refusal(self, path: str) -> dict[str, Any]:
        """POSTs what the page was refused and returns the API's error (a refusal changes nothing)."""
        response = requests.post(f"{self.base}/api/v1/{path}", headers=self.headers, timeout=10)
        assert response.status_code >= 400, response.text
        return dict(response.json()["error"])
