"""A battle's events in the OpenAPI schema: one drf-spectacular postprocessing hook (wired by name in
``SPECTACULAR_SETTINGS``).

Each event is the engine's typed event (``combat.engine.events``) as stored, with its number (``seq``: in
GET battles/{id}/; an action's answer numbers its events from ``first_event``) and its sentence in the
request's language (``text``, combat/texts.py). Published as the component ``BattleEvent``, a ``oneOf`` told
apart by ``kind``, and referenced by the battle's answers (``BattleOutput``, ``ActOutput``).
"""
from __future__ import annotations

from typing import Any

from backend.api.event_schemas import JSON, kinds_union, ref, set_field
from combat.engine.events import EVENT_TYPES

#: the keys the API adds to every stored event
EVENT_KEYS: JSON = {"seq": {"type": "integer"}, "text": {"type": "string"}}


def battle_event_schema() -> JSON:
    return kinds_union(EVENT_TYPES.values(), fixed=EVENT_KEYS, optional=("seq",),
                       description="One event of a battle, told apart by `kind` (docs/combat.md).")


def battle_schemas_hook(result: JSON, generator: Any, request: Any, public: bool) -> JSON:
    schemas: dict[str, JSON] = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["BattleEvent"] = battle_event_schema()
    for component in ("BattleOutput", "ActOutput"):
        set_field(schemas, component, "events", {"type": "array", "items": ref("BattleEvent")})
    return result
