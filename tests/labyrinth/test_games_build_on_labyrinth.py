"""The games on the grid-maze engine build on labyrinth, never the other way round.

labyrinth keeps what they share (the grid engine, the abstract ``MapDesign``, the map admin's bases,
the SVG helpers) and seed 003's game; the roguelike, the paper Labyrinth and the Labyrinth of Darkness
are apps of their own that import it. Its migrations are history and are not scanned: labyrinth/0004
loaded seed 002's example maps with the paper engine, which lived in labyrinth then.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = {"roguelike", "paper_labyrinth", "darkness", "cell_capture"}


def imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_no_labyrinth_module_imports_a_game_app() -> None:
    modules = [p for p in sorted((ROOT / "labyrinth").rglob("*.py")) if "migrations" not in p.parts]
    assert ROOT / "labyrinth" / "engine" / "grid.py" in modules and ROOT / "labyrinth" / "admin.py" in modules
    offenders = [f"{path.relative_to(ROOT)} imports {name}" for path in modules for name in imported(path)
                 if name.split(".")[0] in GAMES]
    assert offenders == []
