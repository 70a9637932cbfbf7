"""The OpenAPI shapes of typed events: a battle's events and a run's log entries are frozen dataclasses with a
``kind`` (``combat/engine/events.py``, ``dungeons/runs/engine/log.py``), stored and shown as their JSON, so
their published shape is read from the classes themselves (each field's JSON Schema from its annotation). The
apps' drf-spectacular hooks (``combat/openapi.py``, ``dungeons/openapi.py``) publish them as components; an
answer's events keep being rendered as stored (no second declaration to keep equal).

A field whose annotation says too little (``Any``, a ``dict[str, Any]``) must be given its schema by the
caller (``overrides``): a loose part is refused here rather than published as a bare object.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Protocol

JSON = dict[str, Any]

_SCALARS: dict[Any, JSON] = {
    int: {"type": "integer"}, float: {"type": "number"}, str: {"type": "string"}, bool: {"type": "boolean"},
}


class Kinded(Protocol):
    """An event class: a dataclass whose ``kind`` names it in JSON."""

    kind: ClassVar[str]


class LooseField(TypeError):
    """A field whose annotation does not say its JSON shape (``Any`` somewhere): give it an override."""


def field_schema(annotation: Any, where: str) -> JSON:
    """The JSON Schema (OpenAPI 3.0: ``nullable``) of a value annotated ``annotation``: a scalar, ``X |
    None``, ``list[X]``, ``tuple[X, ...]`` or ``dict[K, X]`` (JSON keys are strings, whatever ``K``)."""
    if annotation in _SCALARS:
        return dict(_SCALARS[annotation])
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) == 1:
            return {**field_schema(rest[0], where), "nullable": True}
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return {"type": "array", "items": field_schema(args[0], where)}
    if origin is dict:
        return {"type": "object", "additionalProperties": field_schema(args[1], where)}
    raise LooseField(f"{where}: {annotation!r} says no JSON shape; declare it (overrides)")


def dataclass_shape(cls: type, *, fixed: Mapping[str, JSON], overrides: Mapping[str, JSON] | None = None,
                    optional: Iterable[str] = ()) -> JSON:
    """One event class as a closed object: the ``fixed`` keys every event has (``kind``, ...; required unless
    named in ``optional``), then the class's fields (required unless they have a default: older stored
    events may lack them), ``overrides`` replacing the schema of the fields named there."""
    hints = typing.get_type_hints(cls)
    given = dict(overrides or {})
    properties: JSON = dict(fixed)
    required = [name for name in fixed if name not in set(optional)]
    for f in dataclasses.fields(cls):
        properties[f.name] = given.pop(f.name) if f.name in given else field_schema(
            hints[f.name], f"{cls.__name__}.{f.name}")
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
    if given:
        raise LooseField(f"{cls.__name__} has no field {sorted(given)}")
    shape: JSON = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:  # OpenAPI 3.0: a `required` list may not be empty
        shape["required"] = required
    return shape


def kinds_union(classes: Iterable[type[Kinded]], *, fixed: Mapping[str, JSON],
                overrides: Mapping[str, Mapping[str, JSON]] | None = None, optional: Iterable[str] = (),
                description: str = "") -> JSON:
    """Every class's shape (``dataclass_shape``) with its ``kind`` as a one-value enum, as a ``oneOf`` told
    apart by ``kind`` (two classes may share a kind: their fields tell them apart). ``overrides``: by class
    name."""
    given = overrides or {}
    branches = [
        dataclass_shape(cls, fixed={"kind": {"type": "string", "enum": [cls.kind]}, **fixed},
                        overrides=given.get(cls.__name__), optional=optional)
        for cls in classes
    ]
    return {"oneOf": branches, "description": description} if description else {"oneOf": branches}


def set_field(schemas: dict[str, JSON], component: str, field: str, value: JSON) -> None:
    """Replace ``field`` of ``component`` (kept as is when drf-spectacular did not make that component),
    keeping the field's description."""
    properties = schemas.get(component, {}).get("properties", {})
    if field in properties:
        description = properties[field].get("description")
        properties[field] = {**value, "description": description} if description else value


def ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}
