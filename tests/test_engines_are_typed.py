"""The pure engines stay type-checked: mypy --strict over them is part of the suite."""
from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_the_pure_engines_pass_mypy_strict():
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"])
    assert status == 0, stdout + stderr
