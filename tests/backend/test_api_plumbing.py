"""Shared API plumbing: the OpenAPI schema covers every route, docs render, errors are JSON."""
from __future__ import annotations

import re

import pytest
import yaml
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def api_routes(patterns=None, prefix: str = "") -> list[str]:
    """Every /api/v1/ route as an OpenAPI-style path ('{guild_id}' for '<int:guild_id>')."""
    routes = []
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes += api_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/v1/"):
            routes.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))
    return routes


def test_every_api_route_is_in_the_openapi_schema():
    response = APIClient().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    routes = api_routes()
    assert "/api/v1/guilds/{guild_id}/disband-vote/" in routes
    assert set(routes) <= set(schema["paths"])
    assert schema["openapi"].startswith("3.")


def test_the_schema_documents_the_error_body():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    approve = schema["paths"]["/api/v1/guilds/{guild_id}/applications/{application_id}/approve/"]["post"]
    assert {"403", "404", "409"} <= set(approve["responses"])


def test_swagger_ui_is_served():
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


def test_a_wrong_method_is_a_json_405():
    guild = make_guild()
    response = api_client(guild.leader).delete(f"/api/v1/guilds/{guild.pk}/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_a_user_without_a_player_gets_a_clear_404():
    from django.contrib.auth import get_user_model
    from rest_framework_simplejwt.tokens import RefreshToken

    user = get_user_model().objects.create_user("staffonly", password="x-very-long-secret")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    response = client.get("/api/v1/me/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "player_not_found"


def test_errors_have_code_message_and_details():
    response = api_client(PlayerFactory()).get("/api/v1/guilds/31337/")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def test_the_schema_generates_without_warnings():
    from django.core.management import call_command

    # --fail-on-warn turns any drf-spectacular warning (e.g. an operationId collision) into an error
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


@pytest.mark.parametrize("debug", [True, False], ids=["DEBUG on", "DEBUG off"])
@pytest.mark.parametrize("path",
                         ["/api/v1/nowhere/", "/api/nowhere", "/api/v1/guilds/1/nowhere/", "/api/v2/"])
def test_an_unknown_api_route_is_the_json_404_with_debug_on_and_off(settings, debug: bool, path: str) -> None:
    # issue 24: with DEBUG on, an unknown /api/ route was Django's HTML debug page
    settings.DEBUG = debug
    response = api_client(PlayerFactory()).get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": {"code": "not_found", "message": "No such route.", "details": {}}}


def test_a_route_without_its_slash_is_still_redirected_to_it(settings) -> None:
    settings.DEBUG = True
    response = api_client(PlayerFactory()).get("/api/v1/me")
    assert response.status_code == 301
    assert response["Location"] == "/api/v1/me/"


def test_a_views_own_404_keeps_its_body(settings) -> None:
    # the route exists: the view's refusal (its own code) is not replaced by "no such route"
    settings.DEBUG = True
    response = api_client(PlayerFactory()).get("/api/v1/guilds/31337/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "guild_not_found"
