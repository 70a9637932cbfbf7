"""OpenAPI helpers: the shared error body, the error responses an operation may give, the last schema hook."""
from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ErrorBody = inline_serializer(
    name="Error",
    fields={
        "error": inline_serializer(
            name="ErrorDetail",
            fields={
                "code": serializers.CharField(help_text="Machine-readable code, e.g. guild_full."),
                "message": serializers.CharField(),
                "details": serializers.DictField(),
            },
        )
    },
)

_DESCRIPTIONS = {
    400: "Bad input (malformed body, wrong types, unknown values).",
    401: "Missing or invalid credentials.",
    403: "Not allowed, e.g. not_leader.",
    404: "No such object, or not visible to the caller.",
    409: "A game rule refuses the action; nothing changed.",
    429: "Throttled.",
}


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    return {status: OpenApiResponse(ErrorBody, description=_DESCRIPTIONS[status]) for status in statuses}


def no_empty_required_hook(result: dict[str, Any], generator: Any, request: Any,
                           public: bool) -> dict[str, Any]:
    """The last postprocessing hook: drop every empty ``required`` list (OpenAPI 3.0 wants at least one name;
    a shape whose fields are all optional, e.g. a lobby's settings or a message with no data, says so by
    having none)."""
    _drop_empty_required(result)
    return result


def _drop_empty_required(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("required") == [] and isinstance(node.get("properties", {}), dict):
            del node["required"]
        for value in node.values():
            _drop_empty_required(value)
    elif isinstance(node, list):
        for value in node:
            _drop_empty_required(value)
