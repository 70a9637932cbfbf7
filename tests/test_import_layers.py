"""Apps depend one way: every first-party import follows the layers of docs/architecture.md (issue 25).

An app imports only itself and the apps of lower layers; apps of one layer never import each other.
Any app may use a pure engine (its values and rules import no app, so they close no cycle), and an
engine imports only engines: its own and those of lower layers. Within the apps, reads never import
writes (``selectors`` never imports a ``services`` module) and nothing below the views imports them.
Every import counts: at the top of a module, inside a function (lazy) or under ``TYPE_CHECKING``.
Names in strings (INSTALLED_APPS, include(), "app.Model" foreign keys) are wiring, not imports.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.test_engines_are_pure import ENGINES

ROOT = Path(__file__).resolve().parent.parent

#: The layers, lowest first (docs/architecture.md says why each app sits where it does).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("gamekit",),
    ("backend",),
    ("players",),
    ("guilds",),
    ("combat",),
    ("npcs",),
    ("dungeons", "matches"),
    ("labyrinth", "balance"),
    ("cell_capture", "roguelike", "paper_labyrinth", "darkness"),
    ("play",),
)
LAYER = {app: number for number, apps in enumerate(LAYERS) for app in apps}
#: Not apps: they exercise every app.
NOT_APPS = {"tests", "bench"}

#: Module roles (by file name) below the views, and the view modules they never import.
BELOW_THE_VIEWS = {"models", "selectors", "services"}
VIEWS = {"apis", "urls", "admin", "serializers"}

# TEMPORARY (issue 25): imports against the layers whose fix needs an edit in a part being reshaped on
# another branch. Each entry is (importing module, imported module): why it waits. The lead empties this
# list after the merges; an entry that no longer occurs fails the test, so the list only shrinks.
WAITING: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    path: str  # the importing file, relative to the repository root
    line: int
    module: str  # the imported module, absolute


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(path: Path) -> list[Import]:
    """Every first-party module the file imports, wherever the import statement stands."""
    rel, own = path.relative_to(ROOT).as_posix(), _module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from combat import engine`` imports the module combat.engine, not only combat.
            names = [f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base for a in node.names]
        else:
            continue
        found += [Import(rel, node.lineno, name) for name in dict.fromkeys(names)
                  if name.split(".")[0] in LAYER]
    return found


def app_modules() -> list[Path]:
    return [path for app in LAYER for path in sorted((ROOT / app).rglob("*.py"))]


def _engine_of(module: str) -> str | None:
    return next((e for e in ENGINES if module == e or module.startswith(e + ".")), None)


def violation(found: Import) -> str | None:
    """Why the import breaks the layers, or None when it follows them."""
    importer = _module_name(ROOT / found.path)
    app, target = importer.split(".")[0], found.module.split(".")[0]
    if _engine_of(importer):
        if not _engine_of(found.module):
            return f"the engine {_engine_of(importer)} imports {found.module}, which is no engine"
        if target != app and LAYER[target] >= LAYER[app]:
            return f"the engine {_engine_of(importer)} imports {found.module}, of a layer not below {app}"
        return None
    role, imported_role = importer.rpartition(".")[2], found.module.rpartition(".")[2]
    if role == "selectors" and imported_role == "services":
        return "a read (selectors) imports writes (services)"
    if role in BELOW_THE_VIEWS and imported_role in VIEWS:
        return f"{role} imports the view module {found.module}"
    if target == app or _engine_of(found.module):
        return None
    if LAYER[target] == LAYER[app]:
        return f"{app} and {target} are of one layer: neither imports the other"
    if LAYER[target] > LAYER[app]:
        return f"{app} (layer {LAYER[app]}) imports {target}, of the higher layer {LAYER[target]}"
    return None


def offences() -> dict[tuple[str, str], str]:
    return {(found.path, found.module): f"{found.path}:{found.line} imports {found.module}: {why}"
            for path in app_modules() for found in imports_of(path)
            if (why := violation(found)) is not None}


def test_the_layers_name_every_app_once() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} - NOT_APPS
    assert sorted(LAYER) == sorted(packages)
    assert sum(len(apps) for apps in LAYERS) == len(LAYER)
    assert {engine.split(".")[0] for engine in ENGINES} <= set(LAYER)


def test_the_scan_sees_every_kind_of_import() -> None:
    seen = {(found.path, found.module) for path in app_modules() for found in imports_of(path)}
    assert ("guilds/services.py", "players.models") in seen  # at the top
    assert ("matches/access.py", "guilds.models") in seen  # inside a function
    assert ("dungeons/kinds.py", "players.models") in seen  # under TYPE_CHECKING
    assert ("players/apis.py", "players.selectors") in seen  # from players import selectors
    assert ("backend/__init__.py", "backend.celery") in seen  # relative


def test_the_rules_refuse_what_they_should() -> None:
    def refused(path: str, module: str) -> bool:
        return violation(Import(path, 1, module)) is not None

    assert refused("backend/models.py", "players.models")  # upwards
    assert refused("dungeons/models.py", "matches.models")  # one layer
    assert refused("labyrinth/engine/grid.py", "roguelike.engine.model")  # an engine above
    assert refused("combat/engine/state.py", "combat.models")  # an engine importing Django code
    assert refused("guilds/selectors.py", "guilds.services")
    assert refused("players/services.py", "players.serializers")
    assert not refused("players/models.py", "combat.engine")  # any app may use an engine
    assert not refused("roguelike/engine/model.py", "labyrinth.engine.grid")
    assert not refused("darkness/services.py", "dungeons.runs.core")


def test_every_import_follows_the_layers() -> None:
    found = offences()
    new = sorted(message for key, message in found.items() if key not in WAITING)
    assert new == [], "imports against docs/architecture.md's layers:\n" + "\n".join(new)


def test_the_waiting_list_only_shrinks() -> None:
    found = offences()
    gone = sorted(f"{path} -> {module}" for path, module in WAITING if (path, module) not in found)
    assert gone == [], "fixed: remove from WAITING: " + ", ".join(gone)
