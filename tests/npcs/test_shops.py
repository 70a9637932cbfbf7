"""Shop NPCs (weaponsmith, armorer, bowyer, battle mage, potion seller, jeweler): offers and purchases,
and every refusal leaving money, inventory and ledger as they were."""
from __future__ import annotations

import pytest

from npcs.models import NpcTrade, OfferStockDay
from npcs.services import npc_rescue
from players.models import Player
from tests.factories import PlayerFactory, add_member
from tests.npcs.helpers import Hall, Snapshot, assert_error, carry, goods, hall, inventory, money, offer

pytestmark = pytest.mark.django_db


def test_buying_from_the_weaponsmith_pays_and_carries_the_item() -> None:
    # given: a member with 100 coins, and an axe at 60
    h = hall("weaponsmith", money=100)
    axe = goods("weapon", "axe", name="Test Axe", weight=6, price=50)
    sold = offer("weaponsmith", axe, price=60)

    # when
    response = h.post(f"weaponsmith/offers/{sold.pk}/buy/")

    # then
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["price"], body["money"]) == (60, 40)
    assert body["item"]["item_kind"]["id"] == axe.pk and body["item"]["equipped"] is False
    assert money(h.player) == 40
    assert inventory(h.player) == [(body["item"]["id"], axe.pk)]
    trade = NpcTrade.objects.get(player=h.player)
    assert (trade.action, trade.coins, trade.item_kind_id, trade.npc.slug, trade.guild_id) == (
        "buy", -60, axe.pk, "weaponsmith", h.guild.pk)


@pytest.mark.parametrize(("kind", "category", "sub_kind"), [
    ("armorer", "armor", "helmet"), ("bowyer", "weapon", "bow"), ("battle_mage", "weapon", "staff"),
    ("potion_seller", "potion", "healing"), ("jeweler", "amulet", "amulet"),
])
def test_every_shop_sells_its_goods(kind: str, category: str, sub_kind: str) -> None:
    h = hall(kind, money=50)
    item_kind = goods(category, sub_kind, price=20)
    sold = offer(kind, item_kind)
    listed = h.get(f"{kind}/offers/")
    assert listed.status_code == 200, listed.json()
    mine = next(o for o in listed.json() if o["id"] == sold.pk)
    assert (mine["item_kind"]["id"], mine["price"], mine["stock_left"]) == (item_kind.pk, 20, None)
    response = h.post(f"{kind}/offers/{sold.pk}/buy/")
    assert response.status_code == 201, response.json()
    assert money(h.player) == 30 and [k for _, k in inventory(h.player)] == [item_kind.pk]


def test_the_migrated_shops_stock_only_their_own_goods() -> None:
    h = hall("weaponsmith", "bowyer", "battle_mage", "armorer", "potion_seller", "jeweler")
    classes = {"weaponsmith": {"melee", "throwing"}, "bowyer": {"ranged"}, "battle_mage": {"magic"}}
    for kind, wanted in classes.items():
        offers = h.get(f"{kind}/offers/").json()
        assert offers, kind
        assert {o["item_kind"]["weapon_class"] for o in offers} <= wanted
        assert not any(o["item_kind"]["is_basic"] for o in offers)  # the junk dealer's weapons are not resold
    for kind, category in (("armorer", "armor"), ("potion_seller", "potion"), ("jeweler", "amulet")):
        assert {o["item_kind"]["category"] for o in h.get(f"{kind}/offers/").json()} == {category}


# --- refusals --------------------------------------------------------------------------------------------

def test_another_guilds_npc_is_refused_to_an_outsider() -> None:
    h = hall("weaponsmith", money=500)
    sold = offer("weaponsmith", goods("weapon", "sword"))
    before = Snapshot.of(h.outsider)
    assert_error(h.get("weaponsmith/offers/", player=h.outsider), 403, "not_member")
    assert_error(h.post(f"weaponsmith/offers/{sold.pk}/buy/", player=h.outsider), 403, "not_member")
    assert Snapshot.of(h.outsider) == before


def test_a_guildless_player_is_refused() -> None:
    h = hall("weaponsmith")
    sold = offer("weaponsmith", goods("weapon", "sword"))
    assert_error(h.post(f"weaponsmith/offers/{sold.pk}/buy/", player=PlayerFactory()), 403, "not_member")


def test_an_npc_the_guild_has_not_rescued_is_a_404() -> None:
    h = hall("weaponsmith")
    sold = offer("armorer", goods("armor", "boots"))
    assert_error(h.get("armorer/offers/"), 404, "npc_not_rescued")
    assert_error(h.post(f"armorer/offers/{sold.pk}/buy/"), 404, "npc_not_rescued")


def test_an_offer_of_another_npc_or_an_inactive_one_is_a_404() -> None:
    h = hall("weaponsmith", "armorer")
    boots = offer("armorer", goods("armor", "boots"))
    hidden = offer("weaponsmith", goods("weapon", "mace"), is_active=False)
    before = Snapshot.of(h.player)
    assert_error(h.post(f"weaponsmith/offers/{boots.pk}/buy/"), 404, "offer_not_found")
    assert_error(h.post(f"weaponsmith/offers/{hidden.pk}/buy/"), 404, "offer_not_found")
    assert hidden.pk not in [o["id"] for o in h.get("weaponsmith/offers/").json()]
    assert Snapshot.of(h.player) == before


def test_npcs_without_a_shop_have_no_offers_route() -> None:
    h = hall("trader", "shaman")
    for kind in ("trader", "shaman", "junk_dealer", "nobody"):
        assert_error(h.get(f"{kind}/offers/"), 404, "not_found")


def test_buying_without_enough_money_changes_nothing() -> None:
    h = hall("weaponsmith", money=59)
    sold = offer("weaponsmith", goods("weapon", "axe", price=60))
    before = Snapshot.of(h.player)
    error = assert_error(h.post(f"weaponsmith/offers/{sold.pk}/buy/"), 409, "not_enough_money")
    assert error["details"] == {"price": 60, "money": 59}
    assert Snapshot.of(h.player) == before


@pytest.mark.parametrize(("category", "sub_kind", "already", "limit"), [
    ("weapon", "sword", 2, "weapon_limit"), ("armor", "helmet", 1, "armor_slot_taken"),
    ("potion", "healing", 3, "potion_limit"),
])
def test_a_purchase_over_a_carry_limit_is_refused_and_nothing_is_paid(
        category: str, sub_kind: str, already: int, limit: str) -> None:
    kind = {"weapon": "weaponsmith", "armor": "armorer", "potion": "potion_seller"}[category]
    h = hall(kind, money=500)
    item_kind = goods(category, sub_kind)
    carry(h.player, item_kind, already)
    before = Snapshot.of(h.player)
    error = assert_error(h.post(f"{kind}/offers/{offer(kind, item_kind).pk}/buy/"), 409, limit)
    assert error["details"]["item_kind"] == item_kind.pk
    assert Snapshot.of(h.player) == before


def test_a_purchase_too_heavy_to_carry_is_refused_with_weight_limit() -> None:
    h = hall("armorer", money=500)
    plate = goods("armor", "cuirass", weight=41)
    before = Snapshot.of(h.player)
    error = assert_error(h.post(f"armorer/offers/{offer('armorer', plate).pk}/buy/"), 409, "weight_limit")
    assert error["details"]["limit"] == 40
    assert Snapshot.of(h.player) == before


def _stock_left(h: Hall, offer_id: int, player: Player | None = None) -> int | None:
    offers = h.get("weaponsmith/offers/", player=player).json()
    return next(o["stock_left"] for o in offers if o["id"] == offer_id)


def test_daily_stock_runs_out_per_guild_and_a_refusal_takes_no_stock() -> None:
    # given: a rare sword, one a day per guild, and two members of the same guild
    h = hall("weaponsmith", money=500)
    buddy = add_member(h.guild, PlayerFactory(money=500))
    sold = offer("weaponsmith", goods("weapon", "sword", price=100), daily_stock=1)
    assert _stock_left(h, sold.pk) == 1

    # when: the first member buys it, the second comes too late
    assert h.post(f"weaponsmith/offers/{sold.pk}/buy/").status_code == 201
    before = Snapshot.of(buddy)
    assert_error(h.post(f"weaponsmith/offers/{sold.pk}/buy/", player=buddy), 409, "out_of_stock")

    # then: the second member paid nothing; another guild still has its own unit
    assert Snapshot.of(buddy) == before
    assert _stock_left(h, sold.pk, buddy) == 0
    assert h.post(f"weaponsmith/offers/{sold.pk}/buy/", player=h.outsider).status_code == 403
    assert OfferStockDay.objects.get(guild=h.guild).sold == 1


def test_a_refused_purchase_does_not_use_up_stock() -> None:
    h = hall("weaponsmith", money=10)
    sold = offer("weaponsmith", goods("weapon", "sword", price=100), daily_stock=1)
    assert_error(h.post(f"weaponsmith/offers/{sold.pk}/buy/"), 409, "not_enough_money")
    assert _stock_left(h, sold.pk) == 1


def test_a_rival_guild_with_the_same_npc_keeps_its_own_stock() -> None:
    h = hall("weaponsmith", money=500)
    sold = offer("weaponsmith", goods("weapon", "sword", price=100), daily_stock=1)
    assert h.post(f"weaponsmith/offers/{sold.pk}/buy/").status_code == 201
    rival_guild = h.outsider.memberships.get().guild_id
    path = f"/api/v1/guilds/{rival_guild}/npcs/weaponsmith/offers/{sold.pk}/buy/"
    response = h.client(h.outsider).post(path)
    assert response.status_code == 201, response.json()


def test_a_rescued_npc_serves_only_after_its_rescue() -> None:
    h = hall(money=100)
    sold = offer("bowyer", goods("weapon", "bow", price=30))
    assert_error(h.post(f"bowyer/offers/{sold.pk}/buy/"), 404, "npc_not_rescued")
    npc_rescue(guild_id=h.guild.pk, kind="bowyer")
    assert h.post(f"bowyer/offers/{sold.pk}/buy/").status_code == 201
