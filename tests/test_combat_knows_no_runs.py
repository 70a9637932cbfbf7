"""The run owns the battle flow: combat/ imports nothing from dungeons/ (issue 13).

The run side (dungeons/runs/battles.py) locks the run and the battle, asks combat to resolve and
save a step, and applies the step's consequences to the run; combat never calls back. The battle's
foreign key to its run names the model by string ("dungeons.Run"), which is no import.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.test_darkness_is_a_leaf import ROOT, _imported


def combat_modules() -> list[Path]:
    return sorted((ROOT / "combat").rglob("*.py"))


def test_the_scan_sees_the_combat_app() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in combat_modules()}
    assert {"combat/services.py", "combat/selectors.py", "combat/models.py", "combat/admin.py",
            "combat/engine/players.py"} <= names


def test_no_combat_module_imports_dungeons() -> None:
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in combat_modules()
                 for name in _imported(ast.parse(path.read_text(), filename=str(path)))
                 if name.split(".")[0] == "dungeons"]
    assert offenders == []
