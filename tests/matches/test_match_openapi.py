"""Every match route is in the OpenAPI schema with its operations."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

OPERATIONS = {
    "/api/v1/matches/": {"get", "post"},
    "/api/v1/matches/join/": {"post"},
    "/api/v1/matches/queue/": {"post", "delete"},
    "/api/v1/matches/stream/": {"get"},
    "/api/v1/matches/{match_id}/": {"get"},
    "/api/v1/matches/{match_id}/join/": {"post"},
    "/api/v1/matches/{match_id}/leave/": {"post"},
    "/api/v1/matches/{match_id}/bots/": {"post"},
    "/api/v1/matches/{match_id}/start/": {"post"},
    "/api/v1/matches/{match_id}/actions/": {"post"},
    "/api/v1/matches/{match_id}/resign/": {"post"},
    "/api/v1/matches/{match_id}/rematch/": {"post"},
    "/api/v1/matches/{match_id}/replay/": {"get"},
    "/api/v1/matches/{match_id}/stream/": {"get"},
}


def test_every_match_route_is_in_the_schema(admin_client: Client) -> None:
    schema = admin_client.get("/api/schema/", {"format": "json"}).json()
    paths = {
        path: set(ops) & {"get", "post", "put", "patch", "delete"}
        for path, ops in schema["paths"].items()
        if path.startswith("/api/v1/matches/")
    }
    assert paths == OPERATIONS
    act = schema["paths"]["/api/v1/matches/{match_id}/actions/"]["post"]
    assert {"200", "400", "404", "409"} <= set(act["responses"])
    bots = schema["paths"]["/api/v1/matches/{match_id}/bots/"]["post"]
    assert {"200", "400", "403", "404", "409"} <= set(bots["responses"])
    assert bots["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MatchBotInputRequest"}
