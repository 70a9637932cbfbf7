"""The run log's typed entries, under the name they had before they moved into the pure package
``dungeons/runs/engine/`` (``log.py`` there); kept so its importers (the admin, darkness) keep working."""
from dungeons.runs.engine.log import *
from dungeons.runs.engine.log import __all__  # noqa: F401
