"""The run's rules outside battle, under the name they had before they moved into the pure package
``dungeons/runs/engine/`` (``rules.py`` there); kept so its importers keep working."""
from dungeons.runs.engine.rules import *
from dungeons.runs.engine.rules import __all__  # noqa: F401
