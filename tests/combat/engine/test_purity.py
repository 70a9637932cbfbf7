"""The engine is pure: no Django/DRF/Celery imports and no module-level random functions."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import combat.engine

ENGINE_DIR = Path(combat.engine.__file__).parent
FORBIDDEN_ROOTS = {"django", "rest_framework", "celery", "backend", "kombu"}


def engine_modules() -> list[Path]:
    return sorted(ENGINE_DIR.glob("*.py"))


def test_engine_modules_import_nothing_from_the_web_stack() -> None:
    for path in engine_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN_ROOTS, f"{path.name} imports {name}"


def test_engine_never_calls_the_module_level_random_functions() -> None:
    for path in engine_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(
                node.value, ast.Name
            ) and node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert [a.name for a in node.names] == ["Random"], f"{path.name} imports from random"


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, combat.engine; "
        "bad = [m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'}]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ENGINE_DIR.parent.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_engine_module_opens_with_a_docstring() -> None:
    for path in engine_modules():
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
