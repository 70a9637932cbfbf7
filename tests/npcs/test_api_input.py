"""Bad input to the NPC routes is a 4xx JSON error, never a 500: ids past 64 bits, unknown kinds,
no login, malformed bodies."""
from __future__ import annotations

import pytest

from backend.api.converters import MAX_DB_ID
from tests.factories import api_client
from tests.npcs.helpers import assert_error, hall

pytestmark = pytest.mark.django_db

TOO_BIG = str(2**64)

POSTS = ["weaponsmith/offers/{id}/buy/", "warlock/buffs/{id}/buy/", "inquisitor/bounties/{id}/accept/",
         "inquisitor/bounties/{id}/abandon/", "carpenter/structures/{id}/build/",
         "jeweler/recipes/{id}/craft/"]


@pytest.mark.parametrize("path", POSTS)
def test_an_object_id_beyond_64_bits_or_zero_does_not_match_a_route(path: str) -> None:
    h = hall("weaponsmith", "warlock", "inquisitor", "carpenter", "jeweler")
    for bad in (TOO_BIG, "0"):
        assert_error(h.post(path.format(id=bad)), 404, "not_found")
    assert_error(h.client().get(f"/api/v1/guilds/{TOO_BIG}/npcs/"), 404, "not_found")


@pytest.mark.parametrize("path", POSTS)
def test_the_largest_id_reaches_the_service(path: str) -> None:
    h = hall("weaponsmith", "warlock", "inquisitor", "carpenter", "jeweler")
    response = h.post(path.format(id=MAX_DB_ID))
    assert response.status_code == 404 and response.json()["error"]["code"].endswith("_not_found")


def test_an_item_id_beyond_64_bits_in_a_sale_is_a_400() -> None:
    h = hall("trader")
    error = assert_error(h.post("trader/sell/", {"item": 2**64}), 400, "invalid")
    assert "item" in error["details"]["fields"]


@pytest.mark.parametrize("path", ["", "weaponsmith/offers/", "trader/quotes/", "potion_seller/belts/",
                                  "warlock/buffs/", "shaman/upgrades/", "inquisitor/bounties/",
                                  "carpenter/structures/", "jeweler/recipes/"])
def test_every_npc_route_needs_a_login(path: str) -> None:
    h = hall()
    assert_error(api_client().get(h.url(path)), 401, "not_authenticated")
