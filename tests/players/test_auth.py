"""Registration, JWT login and refresh, throttling, and /me/."""
from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from players.models import Player
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def register(client: APIClient, username: str = "ayla", password: str = "lantern-in-the-deep"):
    return client.post("/api/v1/auth/register/", {"username": username, "password": password}, format="json")


def test_register_creates_a_player_and_returns_tokens():
    response = register(APIClient())
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "username", "access", "refresh"}
    player = Player.objects.get(pk=body["id"])
    assert player.user.username == "ayla"
    assert player.money == 100  # PlayerSettings.starting_money default


def test_the_access_token_from_register_authenticates_me():
    body = register(APIClient()).json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['access']}")
    me = client.get("/api/v1/me/").json()
    assert me["id"] == body["id"]
    assert me["username"] == "ayla"
    assert me["guild"] is None
    assert me["stats"] == {"strength": 0, "stamina": 0, "metabolism": 0, "luck": 0, "attentiveness": 0}


def test_register_refuses_a_taken_username_in_any_case():
    register(APIClient(), "Ayla")
    response = register(APIClient(), "aYLA")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"
    assert Player.objects.count() == 1


@pytest.mark.parametrize("payload", [
    {}, {"username": "ayla"}, {"password": "lantern-in-the-deep"},
    {"username": "bad name!", "password": "lantern-in-the-deep"},
    {"username": ["a"], "password": "lantern-in-the-deep"},
])
def test_register_rejects_malformed_bodies(payload):
    response = APIClient().post("/api/v1/auth/register/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert Player.objects.count() == 0


def test_register_rejects_a_weak_password():
    response = register(APIClient(), password="123")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "weak_password"
    assert Player.objects.count() == 0


def test_token_login_and_refresh():
    register(APIClient())
    tokens = APIClient().post("/api/v1/auth/token/", {"username": "ayla", "password": "lantern-in-the-deep"},
                              format="json").json()
    assert set(tokens) == {"access", "refresh"}
    refreshed = APIClient().post("/api/v1/auth/token/refresh/", {"refresh": tokens["refresh"]}, format="json")
    assert refreshed.status_code == 200
    assert "access" in refreshed.json()


def test_token_with_a_wrong_password_is_401_in_the_error_format():
    register(APIClient())
    response = APIClient().post("/api/v1/auth/token/", {"username": "ayla", "password": "wrong"},
                                format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_me_without_a_token_is_401():
    response = APIClient().get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_me_with_a_garbage_token_is_401():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-jwt")
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_me_shows_the_current_guild():
    guild = make_guild(name="Lanternbearers")
    me = api_client(guild.leader).get("/api/v1/me/").json()
    assert me["guild"] == {"id": guild.pk, "name": "Lanternbearers"}


def test_auth_endpoints_are_throttled():
    client = APIClient()
    statuses = [
        client.post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json").status_code
        for _ in range(25)
    ]
    assert statuses[:20] == [401] * 20  # the default rate is 20/minute per client address
    assert statuses[20:] == [429] * 5
    response = client.post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json")
    assert response.json()["error"]["code"] == "throttled"
    assert response.json()["error"]["details"]["retry_after"] > 0


def test_a_player_record_is_created_only_through_register():
    PlayerFactory()
    assert Player.objects.count() == 1


@override_settings(ROOT_URLCONF="backend.urls")
def test_unknown_api_route_is_a_json_404():
    response = api_client(PlayerFactory()).get("/api/v1/no-such-thing/")
    assert response.status_code == 404


def test_login_still_works_when_the_throttle_cache_is_down(settings):
    # given a cache backend pointing at a Redis port where nothing listens
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}
    register(APIClient())
    # when / then: the throttle fails open instead of answering 500
    response = APIClient().post("/api/v1/auth/token/",
                                {"username": "ayla", "password": "lantern-in-the-deep"}, format="json")
    assert response.status_code == 200
