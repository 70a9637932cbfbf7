"""A run's log entries and events in the OpenAPI schema: one drf-spectacular postprocessing hook (wired by
name in ``SPECTACULAR_SETTINGS``).

Each log entry is a typed entry of ``dungeons.run_log`` (``ENTRY_TYPES``: the run's own and those a run kind
registers, e.g. darkness/log_entries.py) as stored: its ``kind``, where the party stood (``floor``, ``room``;
null before the first room) and its fields. Published as the components ``RunLogEntry`` (a run's ``log``) and
``RunEvent`` (a run's ``events``: an entry with its ``seq`` and its ``text`` in the request's language), each
a ``oneOf`` told apart by ``kind`` (and, where two entries share a kind, by their fields).
"""
from __future__ import annotations

from typing import Any

from backend.api.event_schemas import JSON, kinds_union, ref, set_field
from dungeons.run_log import ENTRY_TYPES, LogEntry

_WHOLE: JSON = {"type": "integer"}
#: where the party stood when it happened (null: before the first room)
PLACE: JSON = {"floor": {**_WHOLE, "nullable": True}, "room": {**_WHOLE, "nullable": True}}
#: fields whose annotation says too little, by entry class
OVERRIDES: dict[str, dict[str, JSON]] = {
    "Trap": {"hits": {
        "type": "object",
        "description": "By player id: the damage taken, the HP left and the trap's effect (null: none).",
        "additionalProperties": {
            "type": "object",
            "properties": {"damage": _WHOLE, "hp": _WHOLE, "effect": {"type": "string", "nullable": True}},
            "required": ["damage", "hp", "effect"], "additionalProperties": False,
        },
    }},
}


def entry_classes() -> list[type[LogEntry]]:
    return [cls for kind in sorted(ENTRY_TYPES) for cls in ENTRY_TYPES[kind]]


def run_schemas_hook(result: JSON, generator: Any, request: Any, public: bool) -> JSON:
    schemas: dict[str, JSON] = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["RunLogEntry"] = kinds_union(entry_classes(), fixed=PLACE, overrides=OVERRIDES,
                                         description="One entry of a run's log, told apart by `kind`.")
    schemas["RunEvent"] = kinds_union(
        entry_classes(), fixed={"seq": _WHOLE, **PLACE, "text": {"type": "string"}}, overrides=OVERRIDES,
        description="One entry of a run's log with its number (`seq`) and its sentence (`text`).")
    set_field(schemas, "RunOutput", "log", {"type": "array", "items": ref("RunLogEntry")})
    set_field(schemas, "RunOutput", "events", {"type": "array", "items": ref("RunEvent")})
    return result
