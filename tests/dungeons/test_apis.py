"""GET /api/v1/dungeons/preview/: staff only, reproducible layouts, 400 JSON on bad input."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dungeons.generation import GENERATOR_VERSION

URL = "/api/v1/dungeons/preview/"
ROOM_KINDS = {"enemy", "trap", "treasure", "story", "rest", "boss"}


@pytest.fixture
def player_client(db: None) -> Client:
    user = User.objects.create_user(username="player", password="pw-not-used-123")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_staff_sees_a_generated_layout(admin_client: Client) -> None:
    response = admin_client.get(URL,
                                {"kind": "ordinary", "players": 4, "rank": 3, "completed": 10, "seed": 7})
    assert response.status_code == 200
    body = response.json()
    assert (body["kind"], body["seed"], body["generator_version"]) == ("ordinary", 7, GENERATOR_VERSION)
    assert body["inputs"] == {"players": 4, "rank": 3.0, "completed": 10.0, "same_guild": True}
    assert body["floor_count"] == len(body["floors"]) == 6
    for floor in body["floors"]:
        assert floor["rooms"][-1]["kind"] == "boss"
        assert {room["kind"] for room in floor["rooms"]} <= ROOM_KINDS
    assert body["params"]["f_min"] == 2 and body["npc_chance"] == 0.0 and body["npc"] is None


@pytest.mark.django_db
def test_same_seed_gives_the_same_preview_and_no_seed_returns_a_fresh_one(admin_client: Client) -> None:
    query = {"players": 2, "completed": 50, "seed": 123}
    assert admin_client.get(URL, query).json() == admin_client.get(URL, query).json()
    fresh = admin_client.get(URL, {"players": 2}).json()
    replay = admin_client.get(URL, {"players": 2, "seed": fresh["seed"]}).json()
    assert replay == fresh


@pytest.mark.django_db
def test_same_guild_defaults_to_true_and_false_disables_the_npc(admin_client: Client) -> None:
    body = admin_client.get(URL, {"completed": 300, "seed": 1}).json()
    assert body["inputs"]["same_guild"] is True and body["npc_chance"] > 0.9
    body = admin_client.get(URL, {"completed": 300, "seed": 1, "same_guild": "false"}).json()
    assert body["npc_chance"] == 0.0 and body["npc"] is None


@pytest.mark.django_db
def test_npc_is_reported_with_its_room(admin_client: Client) -> None:
    for seed in range(20):
        body = admin_client.get(URL, {"completed": 300, "seed": seed}).json()
        if body["npc"]:
            room = body["floors"][body["npc"]["floor"]]["rooms"][body["npc"]["room"]]
            assert room["kind"] == "story" and room["npc_kind"] == body["npc"]["kind"]
            return
    pytest.fail("no NPC in 20 seeds at chance 0.99")


@pytest.mark.django_db
def test_frenzy_preview_has_no_rest_or_treasure(admin_client: Client) -> None:
    body = admin_client.get(URL, {"kind": "frenzy", "players": 5, "seed": 3}).json()
    kinds = {room["kind"] for floor in body["floors"] for room in floor["rooms"]}
    assert not kinds & {"rest", "treasure"}


@pytest.mark.django_db
def test_non_staff_player_is_forbidden(player_client: Client) -> None:
    response = player_client.get(URL)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"


@pytest.mark.django_db
def test_anonymous_caller_is_refused(client: Client) -> None:
    assert client.get(URL).status_code in (401, 403)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"players": 0}, "players"),
        ({"players": "many"}, "players"),
        ({"rank": -1}, "rank"),
        ({"completed": "nan"}, "completed"),
        ({"kind": "castle"}, "kind"),
        ({"kind": "darkness"}, "kind"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"same_guild": "perhaps"}, "same_guild"),
    ],
)
def test_bad_parameters_get_a_400_json_error_naming_the_field(admin_client: Client, query: dict,
                                                              field: str) -> None:
    response = admin_client.get(URL, query)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and field in error["details"]["fields"]


@pytest.mark.django_db
def test_preview_is_in_the_openapi_schema(admin_client: Client) -> None:
    response = admin_client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/dungeons/preview/" in response.content
