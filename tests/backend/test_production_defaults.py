"""Production defaults (issue 11, item 9): no public admin password, rotating refresh tokens, and a
production install of the runtime pins only."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from packaging.requirements import Requirement
from rest_framework.test import APIClient

from tests.dungeons.run_helpers import assert_error
from tests.players.test_auth import register

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"pytest", "pytest-django", "hypothesis", "schemathesis", "mypy", "factory-boy", "faker",
         "time-machine"}


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _pins(path: Path) -> dict[str, str]:
    lines = [line.strip() for line in path.read_text().splitlines()]
    return {_name(line.split("==")[0]): line for line in lines if "==" in line and not line.startswith("#")}


# --- load_demo_data ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_demo_data_is_refused_with_debug_off(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--allow-demo-superuser"):
        call_command("load_demo_data")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_demo_data_loads_with_debug_off_only_when_asked_explicitly(settings) -> None:
    settings.DEBUG = False
    call_command("load_demo_data", "--allow-demo-superuser")
    assert get_user_model().objects.get(username="demo").is_superuser


@pytest.mark.django_db
def test_demo_data_loads_in_the_embedded_development_mode(settings) -> None:
    settings.DEBUG = True
    call_command("load_demo_data")
    assert get_user_model().objects.filter(username="demo", is_superuser=True).exists()


# --- refresh tokens ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_refresh_token_rotates_and_the_old_one_is_blacklisted() -> None:
    first = register(APIClient()).json()["refresh"]
    refreshed = APIClient().post("/api/v1/auth/token/refresh/", {"refresh": first}, format="json")
    assert refreshed.status_code == 200, refreshed.json()
    second = refreshed.json()["refresh"]
    assert second != first and refreshed.json()["access"]

    reused = APIClient().post("/api/v1/auth/token/refresh/", {"refresh": first}, format="json")
    assert_error(reused, 401, "authentication_failed")
    response = APIClient().post("/api/v1/auth/token/refresh/", {"refresh": second}, format="json")
    assert response.status_code == 200


# --- requirements -----------------------------------------------------------------------------------

def test_the_runtime_pins_hold_no_test_tool_and_the_dev_file_adds_them() -> None:
    runtime, dev = _pins(ROOT / "requirements.txt"), _pins(ROOT / "requirements-dev.txt")
    assert not TOOLS & set(runtime)
    assert TOOLS <= set(dev)
    assert not set(runtime) & set(dev)
    assert (ROOT / "requirements-dev.txt").read_text().splitlines()[1] == "-r requirements.txt"


def test_the_runtime_pins_are_closed_under_their_dependencies() -> None:
    runtime = _pins(ROOT / "requirements.txt")
    missing = {}
    for name in runtime:
        for text in importlib.metadata.requires(name) or []:
            requirement = Requirement(text)
            applies = requirement.marker is None or requirement.marker.evaluate({"extra": ""})
            if applies and _name(requirement.name) not in runtime:
                missing.setdefault(name, []).append(requirement.name)
    assert missing == {}


def _dev_module(tmp_path: Path, monkeypatch):
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    (tmp_path / "requirements.txt").write_text("Django==5.2.19\n")
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\npytest==9.2.0\n")
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    monkeypatch.setattr(dev, "REQUIREMENTS", tmp_path / "requirements.txt")
    monkeypatch.setattr(dev, "DEV_REQUIREMENTS", tmp_path / "requirements-dev.txt")
    monkeypatch.setattr(dev, "PYTHON", venv / "bin" / "python")
    monkeypatch.setattr(dev, "STAMP", venv / ".requirements.sha256")
    installed: list[str] = []
    monkeypatch.setattr(dev.subprocess, "run", lambda cmd, check: installed.append(Path(cmd[-1]).name)
                        if cmd[-2] == "-r" else None)
    return dev, installed


def test_serve_installs_the_runtime_pins_and_test_the_dev_ones_each_only_when_changed(tmp_path, monkeypatch):
    dev, installed = _dev_module(tmp_path, monkeypatch)
    dev.ensure_venv()  # serve
    dev.ensure_venv()
    assert installed == ["requirements.txt"]
    dev.ensure_venv(dev=True)  # test
    dev.ensure_venv(dev=True)
    dev.ensure_venv()  # serving after testing installs nothing
    assert installed == ["requirements.txt", "requirements-dev.txt"]
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\npytest==9.2.1\n")
    dev.ensure_venv()  # a new test tool is not the server's business
    dev.ensure_venv(dev=True)
    assert installed == ["requirements.txt", "requirements-dev.txt", "requirements-dev.txt"]
    (tmp_path / "requirements.txt").write_text("Django==5.2.20\n")
    dev.ensure_venv()
    dev.ensure_venv(dev=True)  # the runtime pins changed under the dev install too
    assert installed[3:] == ["requirements.txt", "requirements-dev.txt"]
    (dev.STAMP).write_text("0123abcd")  # the stamp of an older dev.py: install once more
    dev.ensure_venv(dev=True)
    assert installed[5:] == ["requirements-dev.txt"]
