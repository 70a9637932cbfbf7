"""The Labyrinth of Darkness uses the runs through their public functions only (issue 25).

A run kind built on dungeons imports what ``dungeons.runs`` declares public (its ``__all__``), from the
package itself: never one of its modules (core, rooms, endings, store, ...), never a private name.
"""
from __future__ import annotations

import ast

import dungeons.runs
from tests.test_darkness_is_a_leaf import ROOT


def _imports_of_runs() -> list[tuple[str, str, str]]:
    """(file, module, name) for every import of dungeons.runs or its modules in darkness/."""
    found = []
    for path in sorted((ROOT / "darkness").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dungeons.runs"):
                found += [(path.name, node.module, alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(path.name, alias.name, "") for alias in node.names
                          if alias.name.startswith("dungeons.runs")]
    return found


def test_darkness_imports_the_runs_public_names_from_the_package() -> None:
    imported = _imports_of_runs()
    assert imported, "the scan sees darkness using the runs"
    offenders = [item for item in imported
                 if item[1] != "dungeons.runs" or item[2] not in dungeons.runs.__all__]
    assert offenders == []


def test_every_public_name_of_the_runs_resolves() -> None:
    for name in dungeons.runs.__all__:
        assert not name.startswith("_")
        assert getattr(dungeons.runs, name) is not None
