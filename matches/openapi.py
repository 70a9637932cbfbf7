"""The modes' shapes in the OpenAPI schema (SPEC 14 "Schemas"): one drf-spectacular postprocessing hook.

Each registered mode declares the JSON Schema of its settings, view, action and event (``matches.modes``);
this hook publishes them as components named after the mode in CamelCase (``CellCaptureSettings``,
``CellCaptureView``, ``CellCaptureAction``, ``CellCaptureEvent``, ...) and makes the match schemas
reference them instead of a bare object: a match's ``settings`` and ``view`` are one of the modes'
(``oneOf``), an action (``allowed_actions``, the action posted, a replay's step) one of the modes' actions,
an event any of the modes' events (``anyOf``: the machinery's kinds, e.g. ``match_started``, are every
mode's). The match's ``mode`` says which one applies. Wired by name in ``SPECTACULAR_SETTINGS``.
"""
from __future__ import annotations

from typing import Any

from backend.api.event_schemas import ref, set_field
from matches.modes import MACHINE_CAUSES, ModeAdapter, registered_modes, shape

JSON = dict[str, Any]
PARTS = ("Settings", "View", "Action", "Event")
LOBBY = "LobbySettings"
#: what a spectator's ``view`` is (``ModeAdapter.public_view``)
PUBLIC_VIEW = "PublicView"


def component_name(mode: str, part: str) -> str:
    """``labyrinth_console`` and ``View``: ``LabyrinthConsoleView``."""
    return "".join(word.capitalize() for word in mode.split("_")) + part


def mode_components(adapter: ModeAdapter[Any]) -> dict[str, JSON]:
    """A mode's components by name, in the schema's OpenAPI 3.0 terms: its four parts, and the settings a
    lobby may send (``<Mode>LobbySettings``: the lobby's settings, each optional, no other key)."""
    schemas = (adapter.settings_component(), adapter.view_schema, adapter.action_schema, adapter.event_schema)
    components = {component_name(adapter.name, part): openapi_30(dict(schema))
                  for part, schema in zip(PARTS, schemas, strict=True)}
    lobby = adapter.settings_schema if adapter.lobby_settings is None else adapter.lobby_settings
    components[component_name(adapter.name, PUBLIC_VIEW)] = openapi_30(adapter.public_view_component())
    components[component_name(adapter.name, LOBBY)] = openapi_30(
        shape({}, {name: adapter.settings_schema[name] for name in sorted(lobby)}))
    return components


_SCALAR: JSON = {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}], "nullable": True}
#: one setting's JSON Schema as GET /api/v1/modes/ shows it (``ModeAdapter.settings_json_schema``: the helpers
#: ``integer``, ``boolean``, ``choice``, ``either`` of matches.modes, with the admin's ``default``)
SETTING_SCHEMA: JSON = {
    "type": "object",
    "properties": {
        "type": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                 "description": 'A JSON Schema type, or a list of them (e.g. ["integer", "null"]).'},
        "minimum": {"type": "number"}, "maximum": {"type": "number"},
        "enum": {"type": "array", "items": _SCALAR},
        "anyOf": {"type": "array", "items": {"$ref": "#/components/schemas/ModeSettingSchema"}},
        "default": _SCALAR, "description": {"type": "string"},
    },
    "additionalProperties": False,
}


_NULL = {"type": "null"}


def openapi_30(schema: Any) -> Any:
    """A mode's JSON Schema in the terms of the OpenAPI 3.0 document drf-spectacular writes, which has no
    null type: a ``"type": [t, "null"]`` is ``"type": t`` with ``"nullable": true``, and so is an ``anyOf`` or
    ``oneOf`` with a ``{"type": "null"}`` branch (a single ``$ref`` left is wrapped in ``allOf``, as a
    ``$ref`` takes no sibling keywords). The modes declare plain JSON Schema (GET /api/v1/modes/ shows their
    settings so); only the published components are translated."""
    if isinstance(schema, list):
        return [openapi_30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: openapi_30(value) for key, value in schema.items()}
    kind = out.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [t for t in kind if t != "null"]
        out["type"] = rest[0] if len(rest) == 1 else rest
        out["nullable"] = True
    for keyword in ("anyOf", "oneOf"):
        branches = out.get(keyword)
        if isinstance(branches, list) and _NULL in branches:
            rest = [branch for branch in branches if branch != _NULL]
            del out[keyword]
            if len(rest) == 1 and "$ref" in rest[0]:
                out["allOf"] = rest
            elif len(rest) == 1:
                out = {**rest[0], **out}
            else:
                out[keyword] = rest
            out["nullable"] = True
    if None in out.get("enum", ()):
        out["nullable"] = True
    return out


def _union(modes: list[str], part: str, *, nullable: bool = False, description: str = "",
           keyword: str = "oneOf") -> JSON:
    schema: JSON = {keyword: [ref(component_name(mode, part)) for mode in modes]}
    if nullable:
        schema["nullable"] = True  # OpenAPI 3.0's null (openapi_30)
    return {**schema, "description": description} if description else schema


def mode_schemas_hook(result: JSON, generator: Any, request: Any, public: bool) -> JSON:
    """The drf-spectacular postprocessing hook: the modes' components and the match schemas' references."""
    modes = sorted(registered_modes())
    schemas: dict[str, JSON] = result.setdefault("components", {}).setdefault("schemas", {})
    for mode in modes:
        schemas.update(mode_components(registered_modes()[mode]))
    schemas["ModeSettingSchema"] = SETTING_SCHEMA
    settings = _union(modes, "Settings")
    action = _union(modes, "Action")
    event = _union(modes, "Event", keyword="anyOf")
    for component in ("MatchOutput", "MatchListItem", "MatchReplayOutput"):
        set_field(schemas, component, "settings", settings)
    # a seat's view, or a spectator's public view (``spectator`` says which)
    views = [ref(component_name(mode, part)) for mode in modes for part in ("View", PUBLIC_VIEW)]
    set_field(schemas, "MatchOutput", "view", {"oneOf": views, "nullable": True})
    set_field(schemas, "MatchOutput", "allowed_actions", {"type": "array", "items": action})
    set_field(schemas, "MatchOutput", "events", {"type": "array", "items": event})
    set_field(schemas, "MatchActOutput", "events", {"type": "array", "items": event})
    for component in ("MatchActInput", "MatchActInputRequest"):
        set_field(schemas, component, "action", action)
    set_field(schemas, "ReplayStepOutput", "action", _union(modes, "Action", nullable=True))
    set_field(schemas, "SeatReplayStepOutput", "action", _union(modes, "Action", nullable=True))
    set_field(schemas, "SeatReplayStepOutput", "events", {"type": "array", "items": event})
    set_field(schemas, "SeatReplayStepOutput", "view", _union(modes, "View"))
    # what a lobby may set: one of the modes' (``anyOf``: an empty object fits every mode; ``mode`` says
    # which)
    set_field(schemas, "MatchOpenInputRequest", "settings", _union(modes, LOBBY, keyword="anyOf"))
    set_field(schemas, "ModeSettingsSchema", "properties",
              {"type": "object", "additionalProperties": ref("ModeSettingSchema")})
    details = {key: value for mode in modes
               for key, value in registered_modes()[mode].outcome_details.items()}
    set_field(schemas, "MatchResult", "details",
              openapi_30(shape({}, {**details, "cause": {"enum": list(MACHINE_CAUSES)}})))
    return result
