"""A run's log entries and events in the OpenAPI schema: one drf-spectacular postprocessing hook (wired by
name in ``SPECTACULAR_SETTINGS``).

Each log entry is a typed entry of ``dungeons.run_log`` (``ENTRY_TYPES``: the run's own and those a run kind
registers, e.g. darkness/log_entries.py) as stored: its ``kind``, where the party stood (``floor``, ``room``;
null before the first room) and its fields. Published as the components ``RunLogEntry`` (a run's ``log``) and
``RunEvent`` (a run's ``events``: the run's one sequence, docs/runs.md: its log entries (``origin`` "run")
and its battles' events (``origin`` "battle", with the battle and the event's number in it), each with its
``seq`` and its ``text`` in the request's language), each a ``oneOf`` told apart by ``origin`` and ``kind``
(and, where two entries share a kind, by their fields).
"""
from __future__ import annotations

from typing import Any

from backend.api.event_schemas import JSON, dataclass_shape, kinds_union, ref, set_field
from combat.engine.events import EVENT_TYPES
from dungeons.generation.params import GenerationParams
from dungeons.run_log import ENTRY_TYPES, LogEntry

_WHOLE: JSON = {"type": "integer"}
#: where the party stood when it happened (null: before the first room)
PLACE: JSON = {"floor": {**_WHOLE, "nullable": True}, "room": {**_WHOLE, "nullable": True}}
_ORIGIN_RUN: JSON = {"type": "string", "enum": ["run"]}
_ORIGIN_BATTLE: JSON = {"type": "string", "enum": ["battle"]}
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
    schemas["RunLogEntry"] = kinds_union(entry_classes(), fixed={"seq": _WHOLE, **PLACE}, overrides=OVERRIDES,
                                         description="One entry of a run's log, told apart by `kind`.")
    text = {"text": {"type": "string"}}
    entries = kinds_union(entry_classes(), fixed={"seq": _WHOLE, "origin": _ORIGIN_RUN, **PLACE, **text},
                          overrides=OVERRIDES)
    battles = kinds_union(EVENT_TYPES.values(), fixed={"seq": _WHOLE, "origin": _ORIGIN_BATTLE,
                                                       "battle": _WHOLE, "battle_seq": _WHOLE, **text})
    schemas["RunEvent"] = {
        "oneOf": [*entries["oneOf"], *battles["oneOf"]],
        "description": "One event of the run's one sequence (`seq`) with its sentence (`text`): a log entry "
                       "(`origin` run) or one of its battles' events (`origin` battle).",
    }
    set_field(schemas, "RunOutput", "log", {"type": "array", "items": ref("RunLogEntry")})
    for component in ("RunOutput", "RunReplayOutput"):
        set_field(schemas, component, "events", {"type": "array", "items": ref("RunEvent")})
    schemas["GenerationParams"] = dataclass_shape(GenerationParams, fixed={})
    set_field(schemas, "RunReplayDungeonOutput", "params", ref("GenerationParams"))
    return result
