"""The pure engines stay type-checked: mypy --strict over them is part of the suite.

The suite checks the engines alone (what a contributor to a game's rules touches most); the type check of
every app is `python3 dev.py check`, which CI runs before the suite, so the suite does not repeat it.
"""
from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_the_pure_engines_pass_mypy_strict():
    from tests.test_engines_are_pure import ENGINES

    folders = [str(ROOT / engine.replace(".", "/")) for engine in ENGINES]
    config = ["--config-file", str(ROOT / "pyproject.toml")]
    stdout, stderr, status = api.run([*config, "--no-incremental", *folders])
    assert status == 0, stdout + stderr


def test_every_pure_engine_is_among_the_checked_files():
    import tomllib

    from tests.test_engines_are_pure import ENGINES

    checked = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"])
    for engine in ENGINES:  # the engine's folder, or a folder holding it (its whole app)
        folder = Path(engine.replace(".", "/"))
        assert {str(folder), *(str(p) for p in folder.parents)} & checked, f"{engine} is not type-checked"
