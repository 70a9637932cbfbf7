"""The engine stays pure: no Django/DRF/Celery imports and no module-level random functions."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import dungeons.generation

PACKAGE = Path(dungeons.generation.__file__).parent
FORBIDDEN_ROOTS = {"django", "rest_framework", "celery", "drf_spectacular", "backend"}


def modules() -> list[Path]:
    found = sorted(PACKAGE.glob("*.py"))
    assert found
    return found


def test_engine_imports_nothing_from_the_framework() -> None:
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN_ROOTS, f"{path.name} imports {name}"


def test_engine_uses_only_injected_random_generators() -> None:
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                raise AssertionError(f"{path.name}: from random import ... invites the global functions")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_importing_the_engine_loads_no_django() -> None:
    code = "import sys, dungeons.generation; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent.parent, capture_output=True)
    assert result.returncode == 0, result.stderr
