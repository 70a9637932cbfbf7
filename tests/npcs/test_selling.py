"""Buying NPCs (trader, potion seller, jeweler): quotes and sales, the potion seller paying more than the
trader, and refusals for items one does not hold or the NPC does not buy."""
from __future__ import annotations

import pytest

from npcs.models import BuyRate, NpcKind, NpcTrade
from players.models import InventoryItem
from tests.npcs.helpers import Snapshot, assert_error, carry, goods, hall, inventory, money

pytestmark = pytest.mark.django_db


def test_the_trader_buys_loot_at_its_rate() -> None:
    # given: a member carrying a sword of catalog price 60 (the trader pays 50% for weapons)
    h = hall("trader", money=0)
    (sword,) = carry(h.player, goods("weapon", "sword", price=60))

    # when
    response = h.post("trader/sell/", {"item": sword.pk})

    # then
    assert response.status_code == 200, response.json()
    assert response.json() == {"item": sword.pk, "item_kind": {
        "id": sword.item_kind_id, "name": sword.item_kind.name, "category": "weapon", "sub_kind": "sword",
        "weight": 1}, "price": 30, "money": 30}
    assert money(h.player) == 30 and inventory(h.player) == []
    assert NpcTrade.objects.get(player=h.player).coins == 30


def test_the_potion_seller_pays_more_for_potions_than_the_trader() -> None:
    # given: two equal potions of catalog price 35
    h = hall("trader", "potion_seller", money=0)
    potion = goods("potion", "healing", price=35)
    first, second = carry(h.player, potion, 2)

    # when: one goes to the trader, one to the potion seller
    to_trader = h.post("trader/sell/", {"item": first.pk}).json()["price"]
    to_seller = h.post("potion_seller/sell/", {"item": second.pk}).json()["price"]

    # then: 40% and 60% of 35, rounded down
    assert (to_trader, to_seller) == (14, 21)
    assert to_seller > to_trader
    assert money(h.player) == 35


def test_the_jeweler_buys_gems() -> None:
    h = hall("jeweler", money=0)
    (gem,) = carry(h.player, goods("special", "gem", price=80))
    assert h.post("jeweler/sell/", {"item": gem.pk}).json()["price"] == 56


def test_quotes_show_what_each_carried_item_fetches() -> None:
    h = hall("potion_seller")
    potion = carry(h.player, goods("potion", "healing", price=50))[0]
    sword = carry(h.player, goods("weapon", "sword", price=50))[0]
    response = h.get("potion_seller/quotes/")
    assert response.status_code == 200, response.json()
    assert [(q["item"]["id"], q["price"]) for q in response.json()] == [(potion.pk, 30), (sword.pk, None)]


def test_a_sub_kind_rate_beats_its_categorys_rate() -> None:
    h = hall("trader", money=0)
    BuyRate.objects.create(npc=NpcKind.objects.get(slug="trader"), category="special", sub_kind="gem",
                           rate_percent=90)
    gem = carry(h.player, goods("special", "gem", price=100))[0]
    tools = carry(h.player, goods("special", "carpenters_tools", price=100))[0]
    quotes = {q["item"]["id"]: q["price"] for q in h.get("trader/quotes/").json()}
    assert quotes == {gem.pk: 90, tools.pk: 50}


# --- refusals --------------------------------------------------------------------------------------------

def test_selling_an_item_one_does_not_hold_changes_nothing() -> None:
    # given: the outsider's item, and an id nobody holds
    h = hall("trader", money=0)
    (theirs,) = carry(h.outsider, goods("weapon", "sword", price=60))
    before, their_before = Snapshot.of(h.player), Snapshot.of(h.outsider)

    # when / then
    assert_error(h.post("trader/sell/", {"item": theirs.pk}), 404, "inventory_item_not_found")
    assert_error(h.post("trader/sell/", {"item": theirs.pk + 1000}), 404, "inventory_item_not_found")
    assert Snapshot.of(h.player) == before and Snapshot.of(h.outsider) == their_before


def test_selling_twice_the_same_item_pays_once() -> None:
    h = hall("trader", money=0)
    (sword,) = carry(h.player, goods("weapon", "sword", price=60))
    assert h.post("trader/sell/", {"item": sword.pk}).status_code == 200
    assert_error(h.post("trader/sell/", {"item": sword.pk}), 404, "inventory_item_not_found")
    assert money(h.player) == 30


def test_an_item_the_npc_does_not_buy_is_refused_and_kept() -> None:
    h = hall("potion_seller", money=0)
    (sword,) = carry(h.player, goods("weapon", "sword", price=60))
    before = Snapshot.of(h.player)
    error = assert_error(h.post("potion_seller/sell/", {"item": sword.pk}), 409, "not_bought_here")
    assert error["details"] == {"item": sword.pk, "category": "weapon"}
    assert Snapshot.of(h.player) == before


def test_selling_to_another_guilds_trader_is_refused() -> None:
    h = hall("trader", money=0)
    (sword,) = carry(h.outsider, goods("weapon", "sword", price=60))
    assert_error(h.post("trader/sell/", {"item": sword.pk}, player=h.outsider), 403, "not_member")
    assert InventoryItem.objects.filter(pk=sword.pk).exists()


@pytest.mark.parametrize("body", [{}, {"item": "sword"}, {"item": 0}, {"item": None}, {"item": [1]}])
def test_a_malformed_sale_is_a_400(body: dict) -> None:
    h = hall("trader")
    assert_error(h.post("trader/sell/", body), 400, "invalid")


def test_npcs_that_buy_nothing_have_no_sell_route() -> None:
    h = hall("weaponsmith")
    assert_error(h.post("weaponsmith/sell/", {"item": 1}), 404, "not_found")
