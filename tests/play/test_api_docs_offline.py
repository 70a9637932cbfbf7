"""/api/docs/ works offline: the Swagger UI comes from the project's own static files, never a CDN.

Chromium loads the page with every request to another origin refused and recorded; the UI must still
render the API's operations from /api/schema/.
"""
from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.play.browser import NEEDS_CHROMIUM, browser, serial_live_server  # noqa: F401 - fixtures

pytestmark = NEEDS_CHROMIUM


def test_the_swagger_ui_renders_with_no_request_to_another_origin(serial_live_server: str, browser) -> None:  # noqa: F811 - the fixtures
    own = urlparse(serial_live_server).netloc
    foreign: list[str] = []

    def only_own(route) -> None:  # route: Playwright's Route
        if urlparse(route.request.url).netloc == own:
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    page = browser.new_page()
    page.route("**/*", only_own)
    page.goto(f"{serial_live_server}/api/docs/")
    page.wait_for_selector(".opblock-summary-path", timeout=20_000)
    paths = page.eval_on_selector_all(".opblock-summary-path", "els => els.map(e => e.textContent)")
    assert any("/api/v1/matches/" in path for path in paths)
    assert foreign == []


@pytest.mark.django_db
def test_the_docs_page_names_no_other_origin(client) -> None:
    html = client.get("/api/docs/").content.decode()
    assert "cdn." not in html and "https://" not in html and "http://" not in html
    assert "/static/drf_spectacular_sidecar/" in html
