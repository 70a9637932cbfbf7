"""Malformed requests get the JSON error shape with a 400, never a 500 and never an HTML page.

Issue 11, items 5 and 7: 2,000 levels of nested JSON were a 500 on every JSON route (without
logging in); a 3 MB body, 2,000 form fields and a disallowed Host were Django's HTML 400 page.
"""
from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import RequestFactory, override_settings
from django.urls import get_resolver
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from backend.api.parsers import json_depth
from tests.backend.test_api_plumbing import api_routes
from tests.dungeons.run_helpers import assert_error
from tests.factories import PlayerFactory, api_client

pytestmark = pytest.mark.django_db

DEEP = "[" * 2000 + "]" * 2000


def _nested(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def _every_route() -> list[str]:
    return [re.sub(r"\{[^}]+\}", "1", route) for route in api_routes()]


@pytest.mark.parametrize("path",
                         ["/api/v1/auth/token/", "/api/v1/auth/register/", "/api/v1/auth/token/refresh/"])
def test_deep_json_without_logging_in_is_a_400(path) -> None:
    error = assert_error(APIClient().post(path, DEEP, content_type="application/json"), 400, "json_too_deep")
    assert error["details"] == {"max_depth": settings.API_JSON_MAX_DEPTH}


@override_settings(DEBUG=False)
def test_deep_json_on_every_route_and_method_is_never_a_500() -> None:
    client = api_client(PlayerFactory())
    for path in _every_route():
        for method in ("post", "put", "patch"):
            response = getattr(client, method)(path, DEEP, content_type="application/json")
            assert response.status_code < 500, (method, path)
            assert response["Content-Type"] == "application/json", (method, path)
            if response.status_code == 400:
                assert response.json()["error"]["code"] == "json_too_deep", (method, path, response.json())


def test_nesting_up_to_the_limit_parses_and_one_more_level_is_refused() -> None:
    client = APIClient()
    limit = settings.API_JSON_MAX_DEPTH
    at_limit = client.post("/api/v1/auth/token/", _nested(limit), content_type="application/json")
    assert_error(at_limit, 400, "invalid")  # parsed; then the fields are wrong
    beyond = client.post("/api/v1/auth/token/", _nested(limit + 1), content_type="application/json")
    assert_error(beyond, 400, "json_too_deep")


@pytest.mark.parametrize("body", ['{"username": NaN}', '{"username": Infinity}', "{", '{"a": 1}}', "\udcff"])
def test_any_parse_error_is_a_json_400(body) -> None:
    response = APIClient().generic("POST", "/api/v1/auth/token/", body.encode("utf-8", "surrogateescape"),
                                   content_type="application/json")
    assert_error(response, 400, "malformed_request")


@given(st.recursive(st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                  max_size=3),
                    max_leaves=30))
def test_the_flat_depth_count_equals_the_nesting_of_any_json_value(value) -> None:
    def depth(v) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    assert json_depth(json.dumps(value), stop_above=1000) == depth(value)


@override_settings(DEBUG=False)
def test_a_body_over_the_size_limit_is_a_json_400() -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"username": "x" * limit, "password": "y"})
    response = APIClient().post("/api/v1/auth/token/", body, content_type="application/json")
    assert assert_error(response, 400, "request_too_large")["details"] == {"limit": limit}
    form = "username=" + "x" * limit
    response = APIClient().post("/api/v1/auth/token/", form, content_type="application/x-www-form-urlencoded")
    assert_error(response, 400, "request_too_large")


@override_settings(DEBUG=False)
def test_too_many_form_fields_is_a_json_400() -> None:
    form = "&".join(f"f{i}=1" for i in range(2000))
    response = APIClient().post("/api/v1/auth/token/", form, content_type="application/x-www-form-urlencoded")
    assert_error(response, 400, "too_many_fields")


@override_settings(DEBUG=False, ALLOWED_HOSTS=["play.example"])
def test_a_disallowed_host_is_a_json_400() -> None:
    for path in ("/api/v1/guilds/", "/api/v1/auth/token/", "/admin/", "/nowhere/"):
        response = APIClient().get(path, HTTP_HOST="evil.example")
        assert_error(response, 400, "disallowed_host")


def test_the_400_and_403_handlers_answer_json() -> None:
    resolver = get_resolver()
    request = RequestFactory().get("/")
    for status in (400, 403, 404, 500):
        response = resolver.resolve_error_handler(status)(request, *([] if status == 500 else [Exception()]))
        assert response.status_code == status
        assert response["Content-Type"] == "application/json"
        assert set(json.loads(response.content)["error"]) == {"code", "message", "details"}
