"""The shaman: one stat up a level for enchanted stones worth a cost that rises with the level."""
from __future__ import annotations

import pytest

from npcs.models import NpcSettings, NpcTrade, StoneValue
from players.models import ItemKind, Player
from tests.npcs.helpers import Snapshot, assert_error, carry, goods, hall, inventory

pytestmark = pytest.mark.django_db


def _pebble() -> ItemKind:
    return ItemKind.objects.get(name="Glowing Pebble")  # 1 point (migrated stone value)


def _rune() -> ItemKind:
    return ItemKind.objects.get(name="Runestone")  # 3 points


def test_each_level_costs_one_more_stone_point() -> None:
    # given: three pebbles
    h = hall("shaman")
    carry(h.player, _pebble(), 3)
    board = h.get("shaman/upgrades/").json()
    assert board["stone_points"] == 3 and board["max_level"] == 20
    assert {s["stat"]: (s["level"], s["cost"]) for s in board["stats"]}["luck"] == (0, 1)

    # when: luck 0 -> 1 costs one pebble, 1 -> 2 costs two
    first = h.post("shaman/upgrades/", {"stat": "luck"})
    second = h.post("shaman/upgrades/", {"stat": "luck"})

    # then
    assert first.json() == {"stat": "luck", "level": 1, "stone_points": 1, "stones_used": 1}
    assert second.json() == {"stat": "luck", "level": 2, "stone_points": 2, "stones_used": 2}
    assert Player.objects.get(pk=h.player.pk).luck == 2 and inventory(h.player) == []
    assert NpcTrade.objects.filter(player=h.player, action="upgrade").count() == 2


def test_the_cheapest_stones_that_pay_are_used() -> None:
    # given: a rune (3 points) and two pebbles, strength already at level 1 (cost 2)
    h = hall("shaman", strength=1)
    (rune,) = carry(h.player, _rune())
    pebbles = carry(h.player, _pebble(), 2)

    # when
    response = h.post("shaman/upgrades/", {"stat": "strength"})

    # then: the two pebbles pay exactly 2; the rune stays
    assert response.json()["stones_used"] == 2
    assert [item_id for item_id, _ in inventory(h.player)] == [rune.pk]
    assert {p.pk for p in pebbles}.isdisjoint(i for i, _ in inventory(h.player))


def test_a_stone_without_a_value_row_is_worth_one_point() -> None:
    h = hall("shaman")
    carry(h.player, goods("special", "enchanted_stone", name="Odd Stone"))
    assert not StoneValue.objects.filter(item_kind__name="Odd Stone").exists()
    assert h.post("shaman/upgrades/", {"stat": "stamina"}).json()["stone_points"] == 1


def test_not_enough_stones_changes_nothing() -> None:
    h = hall("shaman", attentiveness=4)  # level 4 -> 5 costs 5 points
    carry(h.player, _rune())
    carry(h.player, _pebble())
    carry(h.player, goods("special", "gem"))  # a gem is not an enchanted stone
    before = Snapshot.of(h.player)
    error = assert_error(h.post("shaman/upgrades/", {"stat": "attentiveness"}), 409, "not_enough_stones")
    assert error["details"] == {"stat": "attentiveness", "cost": 5, "points": 4}
    assert Snapshot.of(h.player) == before


def test_no_stat_goes_past_the_maximum_level() -> None:
    NpcSettings.objects.filter(pk=1).update(shaman_max_level=3)
    h = hall("shaman", metabolism=3)
    carry(h.player, _rune(), 3)
    before = Snapshot.of(h.player)
    assert_error(h.post("shaman/upgrades/", {"stat": "metabolism"}), 409, "stat_max_level")
    assert Snapshot.of(h.player) == before
    assert {s["stat"]: s["cost"] for s in h.get("shaman/upgrades/").json()["stats"]}["metabolism"] is None


def test_the_cost_formula_is_admin_data() -> None:
    NpcSettings.objects.filter(pk=1).update(shaman_stones_base=2, shaman_stones_per_level=3)
    h = hall("shaman", luck=2)
    assert {s["stat"]: s["cost"] for s in h.get("shaman/upgrades/").json()["stats"]}["luck"] == 2 + 3 * 2


@pytest.mark.parametrize("body", [{}, {"stat": "charisma"}, {"stat": 3}, {"stat": None}])
def test_a_bad_stat_is_a_400(body: dict) -> None:
    h = hall("shaman")
    assert_error(h.post("shaman/upgrades/", body), 400, "invalid")


def test_only_members_of_a_guild_with_a_shaman_get_upgrades() -> None:
    h = hall("shaman")
    carry(h.outsider, _pebble())
    assert_error(h.post("shaman/upgrades/", {"stat": "luck"}, player=h.outsider), 403, "not_member")
    h2 = hall("trader")
    assert_error(h2.get("shaman/upgrades/"), 404, "npc_not_rescued")
