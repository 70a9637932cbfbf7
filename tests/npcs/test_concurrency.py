"""The NPC economy under real concurrent requests on PostgreSQL: a live threaded server, client threads
released together by a barrier, and the money, inventory, stock and structures checked afterwards."""
from __future__ import annotations

import http.client
import json
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from npcs.models import BuyRate, GuildStructure, NpcKind, NpcTrade, OfferStockDay, Structure
from players.models import InventoryItem
from tests.factories import PlayerFactory, add_member
from tests.guilds.test_concurrency import Reply, _all_at_once, _assert_error, _token
from tests.npcs.helpers import carry, goods, hall, inventory, money, offer

# A live server makes these tests transactional: the tables are flushed after each one, migrated
# rows included, so every test makes the economy's data it needs.
pytestmark = pytest.mark.postgres


def _armed_post(base_url: str, path: str, token: str,
                data: dict[str, Any] | None = None) -> Callable[[], Reply]:
    """A POST whose connection is opened now and whose request goes out when it is called.

    Thirty-two connections opened at one instant overflow the live server's listen backlog (10)
    and some get reset; connecting first keeps the race where it belongs, between the requests.
    """
    url = urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.connect()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
               "Accept": "application/json"}

    def send() -> Reply:
        try:
            connection.request("POST", path, body=json.dumps(data or {}), headers=headers)
            response = connection.getresponse()
            raw = response.read()
            return Reply(response.status, json.loads(raw) if raw else None)
        finally:
            connection.close()

    return send


def test_thirty_two_purchases_beyond_the_purse_leave_money_and_inventory_exact(live_server) -> None:
    # given: a member with 95 coins and an amulet at 10 (no count limit; 32 weigh 32, under the capacity)
    h = hall("jeweler", money=95)
    sold = offer("jeweler", goods("amulet", weight=1, price=10))
    path = f"/api/v1/guilds/{h.guild.pk}/npcs/jeweler/offers/{sold.pk}/buy/"
    token = _token(h.player)

    # when: 32 purchases (320 coins) arrive at the same moment
    replies = _all_at_once([_armed_post(live_server.url, path, token) for _ in range(32)])

    # then: exactly nine succeeded, the others were refused for money; 5 coins are left
    assert Counter(r.status for r in replies) == {201: 9, 409: 23}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"not_enough_money"})
    assert money(h.player) == 5
    bought = sorted(r.body["item"]["id"] for r in replies if r.status == 201)
    assert [item_id for item_id, _ in inventory(h.player)] == bought
    assert NpcTrade.objects.filter(player=h.player, action="buy").count() == 9
    assert sorted(r.body["money"] for r in replies if r.status == 201) == [5, 15, 25, 35, 45, 55, 65, 75, 85]


def test_members_racing_for_a_limited_offer_get_exactly_the_stock(live_server) -> None:
    # given: a guild of ten with a weaponsmith selling three swords a day
    h = hall("weaponsmith", money=500)
    members = [h.player] + [add_member(h.guild, PlayerFactory(money=500)) for _ in range(9)]
    sold = offer("weaponsmith", goods("weapon", "sword", price=100), daily_stock=3)
    path = f"/api/v1/guilds/{h.guild.pk}/npcs/weaponsmith/offers/{sold.pk}/buy/"

    # when: all ten buy at once
    replies = _all_at_once([_armed_post(live_server.url, path, _token(m)) for m in members])

    # then: three swords sold, seven refused as out of stock, and nobody paid for nothing
    assert Counter(r.status for r in replies) == {201: 3, 409: 7}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"out_of_stock"})
    assert OfferStockDay.objects.get(guild=h.guild, offer=sold).sold == 3
    owners = set(InventoryItem.objects.filter(item_kind=sold.item_kind).values_list("player_id", flat=True))
    assert len(owners) == 3
    assert {m.pk: money(m) for m in members} == {m.pk: 400 if m.pk in owners else 500 for m in members}


def test_selling_one_item_many_times_at_once_pays_once(live_server) -> None:
    h = hall("trader", money=0)
    BuyRate.objects.get_or_create(npc=NpcKind.of("trader"), category="weapon", sub_kind="",
                                  defaults={"rate_percent": 50})
    (sword,) = carry(h.player, goods("weapon", "sword", price=60))
    path = f"/api/v1/guilds/{h.guild.pk}/npcs/trader/sell/"
    token = _token(h.player)

    replies = _all_at_once([_armed_post(live_server.url, path, token, {"item": sword.pk}) for _ in range(16)])

    assert Counter(r.status for r in replies) == {200: 1, 404: 15}, replies
    assert money(h.player) == 30 and inventory(h.player) == []


def test_two_members_building_the_same_structure_at_once_build_it_once(live_server) -> None:
    # given: two members of one guild, each carrying the stall's tools
    h = hall("carpenter", money=500)
    buddy = add_member(h.guild, PlayerFactory(money=500))
    tools = goods("special", "carpenters_tools", weight=6)
    for member in (h.player, buddy):
        carry(member, tools)
    stall = Structure.objects.create(slug="test-stall", name="Test Stall", effect="junk_dealer_offer",
                                     amount=2, coins=50)
    stall.materials.create(item_kind=tools, quantity=1)
    path = f"/api/v1/guilds/{h.guild.pk}/npcs/carpenter/structures/{stall.pk}/build/"

    # when
    replies = _all_at_once([_armed_post(live_server.url, path, _token(m)) for m in (h.player, buddy) * 4])

    # then: built once; only the builder paid and lost the tools
    assert Counter(r.status for r in replies) == {201: 1, 409: 7}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"structure_already_built", "missing_materials"})
    built = GuildStructure.objects.get(guild=h.guild)
    builder, other = (h.player, buddy) if built.built_by_id == h.player.pk else (buddy, h.player)
    assert (money(builder), len(inventory(builder))) == (450, 0)
    assert (money(other), len(inventory(other))) == (500, 1)
