"""The Labyrinth of Darkness builds on dungeons and guilds, never the other way round.

No first-party module outside ``darkness/`` imports it (tests and benchmarks aside, which exercise
it): dungeons reaches it only through the run-kind hooks (dungeons/kinds.py) and guilds through
the ``guild_created`` signal (guilds/signals.py), both connected in ``DarknessConfig.ready()``.
Settings and URLs name it by string (INSTALLED_APPS, include()), which is no import.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"darkness", "tests", "bench", "var", "docs"}


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def first_party_modules() -> list[Path]:
    found = sorted(ROOT.glob("*.py"))
    for package in sorted(ROOT.iterdir()):
        if package.is_dir() and package.name not in SKIPPED and (package / "__init__.py").exists():
            found += sorted(package.rglob("*.py"))
    return found


def test_the_scan_sees_the_apps_darkness_builds_on() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in first_party_modules()}
    assert {"dungeons/services.py", "dungeons/selectors.py", "dungeons/serializers.py",
            "guilds/services.py", "backend/settings.py", "manage.py"} <= names
    assert not any(n.startswith("darkness/") for n in names)


def test_no_module_outside_darkness_imports_darkness() -> None:
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in first_party_modules()
                 for name in _imported(ast.parse(path.read_text(), filename=str(path)))
                 if name.split(".")[0] == "darkness"]
    assert offenders == []
