"""Every pure engine stays pure: no web-stack imports, only injected random generators."""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ["dungeons.generation", "combat.engine", "cell_capture.engine", "labyrinth.engine"]
ENGINES += ["roguelike.engine"]  # seed 000 roguelike
ENGINES += ["paper_labyrinth.engine"]  # seed 002 paper Labyrinth
ENGINES += ["darkness.engine"]  # the Labyrinth of Darkness (SPEC 9.5)
ENGINES += ["gamekit"]  # what every engine shares: the result of a move
ENGINES += ["dungeons.runs.engine"]  # the run's rules outside battle (SPEC 6)
ENGINES += ["balance.engine"]  # the balancing lab's simulator (SPEC 17)
FORBIDDEN_ROOTS = {"django", "rest_framework", "celery", "kombu", "drf_spectacular", "backend"}


def modules(engine: str) -> list[Path]:
    found = sorted(Path(importlib.import_module(engine).__file__).parent.glob("*.py"))
    assert found
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_engine_modules_import_nothing_from_the_web_stack(engine: str) -> None:
    for path in modules(engine):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN_ROOTS, f"{path.name} imports {name}"


@pytest.mark.parametrize("engine", ENGINES)
def test_engine_never_uses_the_module_level_random_functions(engine: str) -> None:
    for path in modules(engine):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert [a.name for a in node.names] == ["Random"], f"{path.name} imports from random"
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random"):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


@pytest.mark.parametrize("engine", ENGINES)
def test_importing_the_engine_loads_no_web_stack(engine: str) -> None:
    code = (f"import sys, {engine}; "
            f"bad = [m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN_ROOTS)!r}]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_module_opens_with_a_docstring(engine: str) -> None:
    for path in modules(engine):
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
