"""The cell capture page is served, its static files are found (and collected for DEBUG off)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

FILES = ["play/cell-capture/app.js", "play/cell-capture/api.js", "play/cell-capture/board.js",
         "play/cell-capture/style.css"]


def test_the_page_is_a_static_shell_that_loads_the_modules(client):
    response = client.get("/play/cell-capture/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<script type="module" src="/static/play/cell-capture/app.js"></script>' in html
    assert 'href="/static/play/cell-capture/style.css"' in html
    assert 'data-api-root="/api/v1/"' in html


def test_the_page_answers_only_get(client):
    assert client.post("/play/cell-capture/").status_code == 405


@pytest.mark.parametrize("name", FILES)
def test_every_static_file_is_found_by_the_staticfiles_finders(name):
    assert finders.find(name)


def test_every_module_import_names_a_file_that_exists():
    folder = Path(finders.find("play/cell-capture/app.js")).parent
    for module in folder.glob("*.js"):
        for target in re.findall(r'from "(\./[^"]+)"', module.read_text()):
            assert (folder / target).is_file(), f"{module.name} imports {target}"


def test_collectstatic_gathers_the_page_for_a_server_with_debug_off(tmp_path, settings):
    # With DEBUG off Django serves no static file itself: `collectstatic` copies them to
    # STATIC_ROOT and the proxy serves /static/ (docs/operations.md), like the admin's files.
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == Path(finders.find(name)).read_bytes()
