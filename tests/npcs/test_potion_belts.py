"""The potion seller's two belts: 0 -> 1 -> 2 raise the potion limit to 4 and then 5; no third belt."""
from __future__ import annotations

import pytest

from backend.errors import RuleViolation
from npcs.models import NpcSettings
from players.services import inventory_add
from tests.npcs.helpers import Snapshot, assert_error, carry, goods, hall, money

pytestmark = pytest.mark.django_db


def test_two_belts_raise_the_potion_limit_to_four_then_five() -> None:
    # given: a member with three potions (the limit without a belt) and 550 coins
    h = hall("potion_seller", money=550)
    potion = goods("potion", "healing")
    carry(h.player, potion, 3)
    with pytest.raises(RuleViolation):
        inventory_add(player=h.player, item_kind=potion)
    assert h.get("potion_seller/belts/").json() == {"level": 0, "max_level": 2, "next_price": 150,
                                                    "money": 550}

    # when: the first belt
    first = h.post("potion_seller/belts/buy/")

    # then: a fourth potion fits, a fifth does not
    assert first.status_code == 200, first.json()
    assert first.json() == {"level": 1, "max_level": 2, "next_price": 400, "money": 400}
    h.player.refresh_from_db()
    carry(h.player, potion)
    with pytest.raises(RuleViolation):
        inventory_add(player=h.player, item_kind=potion)

    # when: the second belt; then a fifth fits
    second = h.post("potion_seller/belts/buy/")
    assert second.json() == {"level": 2, "max_level": 2, "next_price": None, "money": 0}
    h.player.refresh_from_db()
    carry(h.player, potion)
    me = h.client().get("/api/v1/me/").json()
    assert (me["potion_belt_level"], me["carry"]["potions"], me["carry"]["potion_limit"]) == (2, 5, 5)


def test_there_is_no_third_belt() -> None:
    h = hall("potion_seller", money=10_000)
    h.post("potion_seller/belts/buy/")
    h.post("potion_seller/belts/buy/")
    before = Snapshot.of(h.player)
    assert_error(h.post("potion_seller/belts/buy/"), 409, "belt_max_level")
    assert Snapshot.of(h.player) == before


def test_a_belt_without_the_money_changes_nothing() -> None:
    h = hall("potion_seller", money=149)
    before = Snapshot.of(h.player)
    error = assert_error(h.post("potion_seller/belts/buy/"), 409, "not_enough_money")
    assert error["details"] == {"price": 150, "money": 149}
    assert Snapshot.of(h.player) == before


def test_belt_prices_are_admin_data() -> None:
    NpcSettings.objects.filter(pk=1).update(first_belt_price=7)
    h = hall("potion_seller", money=10)
    assert h.post("potion_seller/belts/buy/").json()["money"] == 3
    assert money(h.player) == 3


def test_belts_are_sold_only_by_the_guilds_potion_seller() -> None:
    h = hall("trader")
    assert_error(h.post("potion_seller/belts/buy/"), 404, "npc_not_rescued")
    h2 = hall("potion_seller")
    assert_error(h2.post("potion_seller/belts/buy/", player=h2.outsider), 403, "not_member")
