"""The carpenter: guild structures built once per guild from the builder's materials and coins, each
with a guild-wide effect that every member (and the dungeon runs) feels."""
from __future__ import annotations

import pytest

from dungeons.runs import lobby as run_services
from npcs import rules
from npcs.models import GuildStructure, NpcTrade, Structure
from npcs.selectors import junk_dealer_offer_size, structure_bonus
from npcs.services import npc_rescue
from players.models import ItemKind
from tests.factories import PlayerFactory, add_member
from tests.npcs.helpers import Hall, Snapshot, assert_error, carry, goods, hall, inventory, money, offer

pytestmark = pytest.mark.django_db


def _tools() -> ItemKind:
    return ItemKind.objects.get(name="Carpenter's Tools")


def _kit() -> ItemKind:
    return ItemKind.objects.get(name="Master Carpenter's Kit")


def _structure(slug: str) -> Structure:
    return Structure.objects.get(slug=slug)


def _build(h: Hall, slug: str, player=None):
    return h.post(f"carpenter/structures/{_structure(slug).pk}/build/", player=player)


def test_building_the_junk_stall_consumes_the_materials_and_enlarges_the_junk_dealers_offer() -> None:
    # given: a member carrying the tools the stall needs, plus a spare set, and 50 coins
    h = hall("carpenter", money=70)
    carry(h.player, _tools(), 2)
    assert junk_dealer_offer_size(guild_id=h.guild.pk) == 3
    stall = next(s for s in h.get("carpenter/structures/").json() if s["slug"] == "junk-stall")
    assert (stall["effect"], stall["amount"], stall["coins"], stall["built_at"]) == (
        "junk_dealer_offer", 2, 50, None)
    assert [(m["item_kind"]["name"], m["quantity"]) for m in stall["materials"]] == [("Carpenter's Tools", 1)]

    # when
    response = _build(h, "junk-stall")

    # then: one set of tools and 50 coins gone; the junk dealer offers 5 weapons to this guild only
    assert response.status_code == 201, response.json()
    assert response.json()["slug"] == "junk-stall" and response.json()["built_by"]["id"] == h.player.pk
    assert money(h.player) == 20 and len(inventory(h.player)) == 1
    assert junk_dealer_offer_size(guild_id=h.guild.pk) == 5
    assert junk_dealer_offer_size(guild_id=None) == 3
    rival = h.outsider.memberships.get().guild_id
    assert junk_dealer_offer_size(guild_id=rival) == 3
    listed = h.get("").json()
    assert [s["slug"] for s in listed["structures"]] == ["junk-stall"]
    assert listed["junk_dealer_offer_size"] == 5
    assert NpcTrade.objects.get(player=h.player, action="build").coins == -50


def test_the_guild_market_discounts_every_members_purchases() -> None:
    # given: a guild with a carpenter and a weaponsmith; one member builds the market
    h = hall("carpenter", "weaponsmith", money=500)
    buddy = add_member(h.guild, PlayerFactory(money=100))
    carry(h.player, _kit())
    carry(h.player, _tools(), 2)
    assert _build(h, "guild-market").status_code == 201

    # when: another member buys a 100-coin sword
    sold = offer("weaponsmith", goods("weapon", "sword", price=100))
    bought = h.post(f"weaponsmith/offers/{sold.pk}/buy/", player=buddy)

    # then: 10% off
    assert bought.json()["price"] == 90 and money(buddy) == 10
    assert structure_bonus(guild_id=h.guild.pk, effect=rules.SHOP_DISCOUNT) == 10


def test_the_warehouse_raises_what_the_guilds_buyers_pay() -> None:
    h = hall("carpenter", "trader", money=500)
    carry(h.player, _tools(), 2)
    assert _build(h, "warehouse").status_code == 201
    (sword,) = carry(h.player, goods("weapon", "sword", price=100))
    assert h.post("trader/sell/", {"item": sword.pk}).json()["price"] == 55


def test_the_spirit_totem_makes_the_shaman_cheaper() -> None:
    h = hall("carpenter", "shaman", money=500, luck=3)
    carry(h.player, _tools())
    carry(h.player, ItemKind.objects.get(name="Glowing Pebble"), 2)
    assert {s["stat"]: s["cost"] for s in h.get("shaman/upgrades/").json()["stats"]}["luck"] == 4
    assert _build(h, "spirit-totem").status_code == 201
    assert {s["stat"]: s["cost"] for s in h.get("shaman/upgrades/").json()["stats"]}["luck"] == 3


# --- refusals --------------------------------------------------------------------------------------------

def test_building_without_the_materials_changes_nothing() -> None:
    h = hall("carpenter", money=500)
    carry(h.player, _tools())  # the market needs two sets of tools and a master's kit
    before = Snapshot.of(h.player)
    error = assert_error(_build(h, "guild-market"), 409, "missing_materials")
    missing = {m["name"]: (m["needed"], m["held"]) for m in error["details"]["missing"]}
    assert missing == {"Master Carpenter's Kit": (1, 0), "Carpenter's Tools": (2, 1)}
    assert Snapshot.of(h.player) == before and not GuildStructure.objects.exists()


def test_building_without_the_coins_keeps_the_materials() -> None:
    h = hall("carpenter", money=49)
    carry(h.player, _tools())
    before = Snapshot.of(h.player)
    assert_error(_build(h, "junk-stall"), 409, "not_enough_money")
    assert Snapshot.of(h.player) == before and not GuildStructure.objects.exists()


def test_a_structure_is_built_once_per_guild() -> None:
    h = hall("carpenter", money=500)
    buddy = add_member(h.guild, PlayerFactory(money=500))
    carry(h.player, _tools())
    carry(buddy, _tools())
    assert _build(h, "junk-stall").status_code == 201
    before = Snapshot.of(buddy)
    assert_error(_build(h, "junk-stall", player=buddy), 409, "structure_already_built")
    assert Snapshot.of(buddy) == before
    assert junk_dealer_offer_size(guild_id=h.guild.pk) == 5


def test_inactive_or_unknown_structures_and_outsiders_are_refused() -> None:
    h = hall("carpenter", money=500)
    carry(h.player, _tools())
    Structure.objects.filter(slug="junk-stall").update(is_active=False)
    assert_error(_build(h, "junk-stall"), 404, "structure_not_found")
    assert_error(h.post("carpenter/structures/999999/build/"), 404, "structure_not_found")
    assert_error(_build(h, "warehouse", player=h.outsider), 403, "not_member")
    assert "junk-stall" not in [s["slug"] for s in h.get("carpenter/structures/").json()]


def test_the_carpenter_serves_only_a_guild_that_rescued_it() -> None:
    h = hall(money=500)
    carry(h.player, _tools())
    assert_error(_build(h, "junk-stall"), 404, "npc_not_rescued")
    npc_rescue(guild_id=h.guild.pk, kind="carpenter")
    assert _build(h, "junk-stall").status_code == 201


def test_the_junk_stall_shows_in_the_run_lobby() -> None:
    h = hall("carpenter", money=500)
    carry(h.player, _tools())
    lobby = run_services.run_open(player=h.player, kind="ordinary")
    assert len(run_services.run_offer(player=h.player, run_id=lobby.pk)) == 3
    run_services.run_leave(player=h.player, run_id=lobby.pk)  # NPCs serve nobody in a lobby (issue 11)
    assert _build(h, "junk-stall").status_code == 201
    lobby = run_services.run_open(player=h.player, kind="ordinary")
    assert len(run_services.run_offer(player=h.player, run_id=lobby.pk)) == 5
