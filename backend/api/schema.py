"""OpenAPI helpers: the shared error body and the error responses an operation may give."""
from __future__ import annotations

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
