"""Regression tests for what the API fuzzer found in players/, guilds/ and backend/ (fixed there)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from backend.api.converters import MAX_DB_ID
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db

TOO_BIG = str(2**64)  # SQLite refused to bind it: OverflowError, a 500


@pytest.mark.parametrize("path", [
    f"/api/v1/guilds/{TOO_BIG}/",
    f"/api/v1/guilds/{TOO_BIG}/leave/",
    f"/api/v1/guilds/1/applications/{TOO_BIG}/withdraw/",
    f"/api/v1/invitations/{TOO_BIG}/accept/",
    f"/api/v1/me/inventory/{TOO_BIG}/equip/",
    f"/api/v1/items/{TOO_BIG}/",
    "/api/v1/guilds/0/",
])
def test_an_object_id_beyond_64_bits_or_zero_is_a_json_404(path: str) -> None:
    client = api_client(PlayerFactory())
    is_action = path.endswith(("/leave/", "/withdraw/", "/accept/", "/equip/"))
    response = client.post(path) if is_action else client.get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_largest_object_id_reaches_the_view() -> None:
    response = api_client(PlayerFactory()).get(f"/api/v1/guilds/{MAX_DB_ID}/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "guild_not_found"


def test_a_player_id_beyond_64_bits_in_a_body_is_a_400() -> None:
    guild = make_guild()
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/", {"player": 2**64},
                                             format="json")
    assert response.status_code == 400
    assert "player" in response.json()["error"]["details"]["fields"]


def test_the_schema_bounds_object_ids_in_paths() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    (param,) = schema["paths"]["/api/v1/guilds/{guild_id}/"]["get"]["parameters"]
    assert param["schema"] == {"type": "integer", "format": "int64", "minimum": 1, "maximum": MAX_DB_ID}


@pytest.mark.parametrize("path", ["/api/v1/auth/token/", "/api/v1/auth/token/refresh/"])
def test_the_token_routes_document_their_errors(path: str) -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert {"200", "400", "401", "429"} <= set(schema["paths"][path]["post"]["responses"])


def test_a_wrong_password_is_a_documented_401() -> None:
    player = PlayerFactory()
    response = APIClient().post("/api/v1/auth/token/", {"username": player.user.username, "password": "nope"},
                                format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
