"""The inventory over HTTP: /me/ with inventory and carry totals, equip, unequip, drop, errors."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from players.models import InventoryItem
from players.services import inventory_add
from tests.factories import PlayerFactory, api_client, make_run
from tests.players.test_inventory_services import make_kind

pytestmark = pytest.mark.django_db

ME_FIELDS = {"id", "username", "display_name", "guild", "money", "stats", "completed_dungeons",
             "potion_belt_level", "inventory", "carry"}


def test_me_of_a_new_player_has_an_empty_inventory_and_the_default_limits():
    me = api_client(PlayerFactory()).get("/api/v1/me/").json()
    assert set(me) == ME_FIELDS
    assert me["inventory"] == []
    assert me["carry"] == {"weight": 0, "capacity": 40, "weapons": 0, "weapon_limit": 2, "potions": 0,
                           "potion_limit": 3}


def test_me_lists_carried_items_and_totals():
    # given: strength 2, one belt, a sword in hand, a torch and a potion
    player = PlayerFactory(strength=2, potion_belt_level=1)
    blade = make_kind("weapon", "sword", weight=6, name="Blade")
    sword = inventory_add(player=player, item_kind=blade, equip=True)
    run = make_run(host=player)
    inventory_add(player=player, item_kind=make_kind("torch", weight=2), acquired_in_run_id=run.pk)
    inventory_add(player=player, item_kind=make_kind("potion", weight=1))

    # when
    me = api_client(player).get("/api/v1/me/").json()

    # then
    assert me["carry"] == {"weight": 9, "capacity": 50, "weapons": 2, "weapon_limit": 2, "potions": 1,
                           "potion_limit": 4}
    assert me["potion_belt_level"] == 1
    first = me["inventory"][0]
    assert first == {
        "id": sword.pk, "equipped": True, "acquired_in_run": None, "acquired_at": first["acquired_at"],
        "item_kind": {"id": sword.item_kind_id, "name": "Blade", "category": "weapon", "sub_kind": "sword",
                      "weight": 6},
    }
    assert [item["acquired_in_run"] for item in me["inventory"]] == [None, run.pk, None]


def test_me_keeps_its_query_count_whatever_the_inventory_size(django_assert_max_num_queries):
    player = PlayerFactory()
    for _ in range(10):
        inventory_add(player=player, item_kind=make_kind("special"))
    client = api_client(player)
    client.get("/api/v1/me/")
    with django_assert_max_num_queries(5):  # user, player, guild, inventory, carry settings
        client.get("/api/v1/me/")


def test_the_inventory_route_matches_me():
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("armor"))
    client = api_client(player)
    me = client.get("/api/v1/me/").json()
    assert client.get("/api/v1/me/inventory/").json() == {"inventory": me["inventory"], "carry": me["carry"]}


def test_equip_and_unequip_over_http():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("armor", "cuirass"))
    client = api_client(player)

    response = client.post(f"/api/v1/me/inventory/{item.pk}/equip/")
    assert response.status_code == 200
    assert response.json()["equipped"] is True
    assert response.json()["item_kind"]["sub_kind"] == "cuirass"

    response = client.post(f"/api/v1/me/inventory/{item.pk}/unequip/")
    assert response.status_code == 200
    assert response.json()["equipped"] is False
    item.refresh_from_db()
    assert item.equipped is False


def test_equipping_a_potion_is_a_409():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("potion"))
    response = api_client(player).post(f"/api/v1/me/inventory/{item.pk}/equip/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_equippable"


def test_equip_refused_by_the_slot_rule_is_a_409_naming_it():
    player = PlayerFactory()
    helmet = make_kind("armor", "helmet")
    InventoryItem.objects.create(player=player, item_kind=helmet, equipped=True)
    spare = InventoryItem.objects.create(player=player, item_kind=helmet)
    response = api_client(player).post(f"/api/v1/me/inventory/{spare.pk}/equip/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "armor_slot_taken"
    assert error["details"] == {"limit": 1, "current": 1, "slot": "helmet", "item_kind": helmet.pk}


def test_dropping_an_item_removes_it():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("weapon"))
    client = api_client(player)
    response = client.delete(f"/api/v1/me/inventory/{item.pk}/")
    assert response.status_code == 204
    assert not InventoryItem.objects.filter(pk=item.pk).exists()
    assert client.get("/api/v1/me/").json()["carry"]["weapons"] == 0
    assert client.delete(f"/api/v1/me/inventory/{item.pk}/").status_code == 404


@pytest.mark.parametrize(("method", "suffix"), [("post", "equip/"), ("post", "unequip/"), ("delete", "")])
def test_another_players_item_is_a_404_and_stays_as_it_was(method, suffix):
    owner, other = PlayerFactory(), PlayerFactory()
    item = inventory_add(player=owner, item_kind=make_kind("weapon"), equip=True)
    response = getattr(api_client(other), method)(f"/api/v1/me/inventory/{item.pk}/{suffix}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "inventory_item_not_found"
    item.refresh_from_db()
    assert item.player_id == owner.pk and item.equipped is True


@pytest.mark.parametrize("path", ["/api/v1/me/inventory/abc/equip/", "/api/v1/me/inventory/-1/equip/",
                                  "/api/v1/me/inventory/99999999999999999999999/equip/",
                                  "/api/v1/items/99999999999999999999999/"])
def test_malformed_or_absurd_ids_are_a_json_4xx(path):
    client = api_client(PlayerFactory())
    response = client.get(path) if "/items/" in path else client.post(path)
    assert 400 <= response.status_code < 500
    assert "error" in response.json()


def test_unknown_item_id_is_a_404():
    response = api_client(PlayerFactory()).post("/api/v1/me/inventory/424242/equip/")
    assert response.status_code == 404


def test_equip_with_a_body_is_accepted_and_ignored():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("weapon"))
    response = api_client(player).post(f"/api/v1/me/inventory/{item.pk}/equip/", {"junk": [1]}, format="json")
    assert response.status_code == 200


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/me/inventory/"), ("post", "/api/v1/me/inventory/1/equip/"),
    ("post", "/api/v1/me/inventory/1/unequip/"), ("delete", "/api/v1/me/inventory/1/"),
])
def test_inventory_routes_need_authentication(method, path):
    response = getattr(APIClient(), method)(path)
    assert response.status_code == 401


def test_wrong_methods_are_405():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("weapon"))
    client = api_client(player)
    assert client.get(f"/api/v1/me/inventory/{item.pk}/equip/").status_code == 405
    assert client.post("/api/v1/items/").status_code == 405


def test_every_inventory_route_is_in_the_openapi_schema():
    schema = api_client(PlayerFactory()).get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/v1/items/" in paths and "/api/v1/items/{item_kind_id}/" in paths
    assert set(paths["/api/v1/me/inventory/{item_id}/"]) >= {"delete"}
    for action in ("equip", "unequip"):
        responses = paths[f"/api/v1/me/inventory/{{item_id}}/{action}/"]["post"]["responses"]
        assert {"200", "401", "404"} <= set(responses)
    me = schema["components"]["schemas"]["MeOutput"]["properties"]
    assert {"inventory", "carry"} <= set(me)
