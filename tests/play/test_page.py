"""The cell capture page is served, its static files are found (and collected for DEBUG off)."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

#: The page's files, and the typed API client it imports (clients/typescript/client/, docs/client.md).
FILES = ["play/cell-capture/app.js", "play/cell-capture/board.js", "play/cell-capture/style.css",
         "client/deepdelve.js"]


def test_the_page_is_a_static_shell_that_loads_the_modules(client):
    response = client.get("/play/cell-capture/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<script type="module" src="/static/play/cell-capture/app.js"></script>' in html
    assert 'href="/static/play/cell-capture/style.css"' in html
    assert 'data-api-root="/api/v1/"' in html


def test_the_page_answers_only_get_and_head(client):
    assert client.post("/play/cell-capture/").status_code == 405


def test_head_answers_like_get_without_a_body(client):
    # issue 24: HEAD was Django's 405
    get, head = client.get("/play/cell-capture/"), client.head("/play/cell-capture/")
    assert head.status_code == 200
    assert head.content == b""
    assert head["Content-Type"] == get["Content-Type"] == "text/html; charset=utf-8"


@pytest.mark.parametrize("path", ["/play/cell-capture/", "/play/nowhere/"])
def test_every_play_response_carries_the_content_security_policy_and_nosniff(client, settings, path):
    # issue 24; nosniff whatever SECURE_CONTENT_TYPE_NOSNIFF says (it is Django's, on by default)
    settings.SECURE_CONTENT_TYPE_NOSNIFF = False
    response = client.get(path)
    header = response["Content-Security-Policy"]
    policy = dict(directive.strip().split(" ", 1) for directive in header.split(";"))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"  # no inline script, no foreign origin
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in header
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_page_has_no_inline_script_style_or_handler(client):
    # what the policy would block: the page must not need it
    html = client.get("/play/cell-capture/").content.decode()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html
    assert re.findall(r"\s(?:style|on[a-z]+)\s*=", html) == []
    for name in FILES:
        if name.endswith(".js"):
            source = Path(finders.find(name)).read_text()
            for risky in ("innerHTML", 'setAttribute("style"', "eval("):
                assert risky not in source, (name, risky)


@pytest.mark.parametrize("name", FILES)
def test_every_static_file_is_found_by_the_staticfiles_finders(name):
    assert finders.find(name)


def test_every_module_import_names_a_file_that_exists():
    # an import is a URL relative to the module's own: resolved as the browser does, it must be a static file
    modules = [f"{folder}/{module.name}" for folder, first in (("play/cell-capture", "app.js"),
                                                                 ("client", "deepdelve.js"))
               for module in Path(finders.find(f"{folder}/{first}")).parent.glob("*.js")]
    for name in modules:
        imports = re.findall(r'(?:from|import) "(\.\.?/[^"]+)"', Path(finders.find(name)).read_text())
        if name == "play/cell-capture/app.js":
            assert "../../client/deepdelve.js" in imports  # every call goes through the typed client
        for target in imports:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            assert finders.find(resolved), f"{name} imports {target}"


def test_the_page_runs_the_client_that_ci_type_checks():
    # one copy: the static file is the wrapper in clients/typescript/, not a copy that could drift from it
    served = Path(finders.find("client/deepdelve.js")).resolve()
    assert served == (Path(django_settings.BASE_DIR) / "clients/typescript/client/deepdelve.js").resolve()


def test_collectstatic_gathers_the_page_for_a_server_with_debug_off(tmp_path, settings):
    # With DEBUG off Django serves no static file itself: `collectstatic` copies them to
    # STATIC_ROOT and the proxy serves /static/ (docs/operations.md), like the admin's files.
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == Path(finders.find(name)).read_bytes()
