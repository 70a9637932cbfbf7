"""The inventory services: every carry limit refused with its code and nothing changed, equip, drop."""
from __future__ import annotations

from typing import Any

import pytest

from backend.errors import NotFound, RuleViolation
from players.models import CarrySettings, InventoryItem, ItemKind, Player
from players.services import inventory_add, inventory_equip, inventory_remove, inventory_unequip
from tests.factories import PlayerFactory, make_run

pytestmark = pytest.mark.django_db

_DEFAULT_STATS: dict[str, dict[str, Any]] = {
    "weapon": {"damage": 4}, "armor": {"armor": 1}, "torch": {"torch_moves": 30},
    "amulet": {"effect": "vigor"},
}
_DEFAULT_SUB_KINDS = {"weapon": "sword", "armor": "helmet", "potion": "healing", "special": "gem",
                      "amulet": "amulet", "torch": "torch"}
_POTION_STATS = {"healing": {"heal": 8}, "effect": {"effect": "vigor", "effect_turns": 3},
                 "stat": {"stat": "luck", "stat_amount": 1}}


def make_kind(category: str, sub_kind: str | None = None, *, weight: int = 1, **fields: Any) -> ItemKind:
    """A catalog entry made for one test, valid for its category unless fields say otherwise."""
    sub_kind = sub_kind or _DEFAULT_SUB_KINDS[category]
    stats = _POTION_STATS[sub_kind] if category == "potion" else _DEFAULT_STATS.get(category, {})
    name = fields.pop("name", f"test {category} {sub_kind} {ItemKind.objects.count()}")
    return ItemKind.objects.create(name=name, category=category, sub_kind=sub_kind, weight=weight, price=10,
                                   **{**stats, **fields})


def carried(player: Player) -> list[tuple[str, bool]]:
    return list(InventoryItem.objects.filter(player=player).order_by("pk")
                .values_list("item_kind__name", "equipped"))


def refused(code: str, call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    assert info.value.status_code == 409
    return info.value


# --- carry limits ---------------------------------------------------------------------------------------

def test_a_pickup_within_every_limit_adds_one_unequipped_item():
    player = PlayerFactory()
    sword = make_kind("weapon", name="Blade")
    run = make_run(host=player)
    item = inventory_add(player=player, item_kind=sword, acquired_in_run_id=run.pk)
    assert item.player_id == player.pk and item.item_kind_id == sword.pk
    assert (item.equipped, item.acquired_in_run_id) == (False, run.pk)
    assert carried(player) == [("Blade", False)]


def test_a_third_weapon_is_refused_and_nothing_is_added():
    # given: a player carrying two weapons
    player = PlayerFactory()
    sword, bow = make_kind("weapon", "sword"), make_kind("weapon", "bow")
    inventory_add(player=player, item_kind=sword)
    inventory_add(player=player, item_kind=bow)
    before = carried(player)

    # when / then
    axe = make_kind("weapon", "axe")
    error = refused("weapon_limit", inventory_add, player=player, item_kind=axe)
    assert error.details == {"limit": 2, "current": 2, "item_kind": axe.pk}
    assert carried(player) == before


def test_a_torch_is_refused_when_both_weapon_slots_are_full():
    player = PlayerFactory()
    for _ in range(2):
        inventory_add(player=player, item_kind=make_kind("weapon"))
    refused("weapon_limit", inventory_add, player=player, item_kind=make_kind("torch"))
    assert len(carried(player)) == 2


def test_a_weapon_is_refused_when_a_torch_and_a_weapon_fill_the_slots():
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("torch"))
    inventory_add(player=player, item_kind=make_kind("weapon"))
    refused("weapon_limit", inventory_add, player=player, item_kind=make_kind("weapon"))


def test_a_second_helmet_is_refused_but_boots_fit():
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("armor", "helmet"))
    error = refused("armor_slot_taken", inventory_add, player=player, item_kind=make_kind("armor", "helmet"))
    assert error.details["slot"] == "helmet"
    assert (error.details["limit"], error.details["current"]) == (1, 1)
    inventory_add(player=player, item_kind=make_kind("armor", "boots"))
    assert len(carried(player)) == 2


def test_a_fourth_potion_is_refused_without_a_belt():
    player = PlayerFactory()
    for sub_kind in ("healing", "effect", "stat"):
        inventory_add(player=player, item_kind=make_kind("potion", sub_kind))
    error = refused("potion_limit", inventory_add, player=player, item_kind=make_kind("potion"))
    assert (error.details["limit"], error.details["current"]) == (3, 3)
    assert len(carried(player)) == 3


@pytest.mark.parametrize(("belt_level", "limit"), [(1, 4), (2, 5)])
def test_potion_belts_raise_the_potion_limit_to_four_and_five(belt_level, limit):
    player = PlayerFactory(potion_belt_level=belt_level)
    potion = make_kind("potion")
    for _ in range(limit):
        inventory_add(player=player, item_kind=potion)
    error = refused("potion_limit", inventory_add, player=player, item_kind=potion)
    assert error.details["limit"] == limit


def test_an_item_that_would_exceed_the_capacity_is_refused():
    # given: capacity 40 at strength 0, 38 carried
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("special", weight=38))

    # when / then: 2 more fits exactly, 3 more does not
    error = refused("weight_limit", inventory_add, player=player, item_kind=make_kind("special", weight=3))
    assert (error.details["limit"], error.details["current"]) == (40, 38)
    inventory_add(player=player, item_kind=make_kind("special", weight=2))
    assert len(carried(player)) == 2


def test_strength_raises_the_capacity():
    player = PlayerFactory(strength=2)  # 40 + 2 x 5
    inventory_add(player=player, item_kind=make_kind("special", weight=50))
    refused("weight_limit", inventory_add, player=player, item_kind=make_kind("special", weight=1))


def test_the_carry_settings_are_read_at_each_pickup():
    # given: a designer allows only one weapon
    settings = CarrySettings.load()
    settings.max_weapons = 1
    settings.save()
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("weapon"))

    # then
    error = refused("weapon_limit", inventory_add, player=player, item_kind=make_kind("weapon"))
    assert error.details["limit"] == 1


def test_a_refused_pickup_inside_a_larger_transaction_rolls_it_back():
    # given: a purchase-like operation that takes money, then adds a fourth potion
    from django.db import transaction
    player = PlayerFactory(money=100)
    potion = make_kind("potion")
    for _ in range(3):
        inventory_add(player=player, item_kind=potion)

    def buy() -> None:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(money=60)
            inventory_add(player=player, item_kind=potion)

    # when / then: the money is back, the potion was not added
    refused("potion_limit", buy)
    player.refresh_from_db()
    assert player.money == 100
    assert len(carried(player)) == 3


# --- equip and unequip ------------------------------------------------------------------------------------

def test_equip_and_unequip_armor():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("armor", name="Cap"))
    assert inventory_equip(player=player, item_id=item.pk).equipped is True
    assert carried(player) == [("Cap", True)]
    assert inventory_unequip(player=player, item_id=item.pk).equipped is False
    assert carried(player) == [("Cap", False)]


def test_equip_and_unequip_are_idempotent():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("weapon"))
    inventory_equip(player=player, item_id=item.pk)
    assert inventory_equip(player=player, item_id=item.pk).equipped is True
    inventory_unequip(player=player, item_id=item.pk)
    assert inventory_unequip(player=player, item_id=item.pk).equipped is False


def test_pickup_with_equip_equips_at_once():
    player = PlayerFactory()
    item = inventory_add(player=player, item_kind=make_kind("torch"), equip=True)
    assert item.equipped is True


def test_potions_specials_and_amulets_are_not_equippable():
    player = PlayerFactory()
    for category in ("potion", "special", "amulet"):
        item = inventory_add(player=player, item_kind=make_kind(category))
        error = refused("not_equippable", inventory_equip, player=player, item_id=item.pk)
        assert error.details["category"] == category
    refused("not_equippable", inventory_add, player=player, item_kind=make_kind("potion"), equip=True)
    assert not InventoryItem.objects.filter(player=player, equipped=True).exists()
    assert len(carried(player)) == 3


def test_equip_refuses_a_second_worn_piece_for_the_same_slot():
    # given: two helmets carried (a state left from before a rule change, made directly)
    player = PlayerFactory()
    helmet = make_kind("armor", "helmet")
    InventoryItem.objects.create(player=player, item_kind=helmet, equipped=True)
    spare = InventoryItem.objects.create(player=player, item_kind=helmet)

    # when / then
    error = refused("armor_slot_taken", inventory_equip, player=player, item_id=spare.pk)
    assert error.details["slot"] == "helmet"
    spare.refresh_from_db()
    assert spare.equipped is False


def test_equip_refuses_a_weapon_beyond_the_weapon_slots():
    # given: two weapons in hand, then a designer lowers the limit to one
    player = PlayerFactory()
    first = inventory_add(player=player, item_kind=make_kind("weapon"), equip=True)
    second = inventory_add(player=player, item_kind=make_kind("weapon"))
    settings = CarrySettings.load()
    settings.max_weapons = 1
    settings.save()

    # when / then
    refused("weapon_limit", inventory_equip, player=player, item_id=second.pk)
    inventory_unequip(player=player, item_id=first.pk)
    assert inventory_equip(player=player, item_id=second.pk).equipped is True


# --- dropping and other players' items --------------------------------------------------------------------

def test_dropping_an_item_frees_its_slot():
    player = PlayerFactory()
    potion = make_kind("potion")
    items = [inventory_add(player=player, item_kind=potion) for _ in range(3)]
    inventory_remove(player=player, item_id=items[0].pk)
    assert len(carried(player)) == 2
    inventory_add(player=player, item_kind=potion)
    assert len(carried(player)) == 3


@pytest.mark.parametrize("service", [inventory_remove, inventory_equip, inventory_unequip])
def test_another_players_item_is_not_found_and_untouched(service):
    owner, thief = PlayerFactory(), PlayerFactory()
    item = inventory_add(player=owner, item_kind=make_kind("weapon"), equip=True)
    with pytest.raises(NotFound) as info:
        service(player=thief, item_id=item.pk)
    assert info.value.code == "inventory_item_not_found"
    item.refresh_from_db()
    assert item.player_id == owner.pk and item.equipped is True


def test_a_missing_item_is_not_found():
    with pytest.raises(NotFound):
        inventory_remove(player=PlayerFactory(), item_id=999_999)


def test_a_pickup_takes_a_bounded_number_of_queries(django_assert_max_num_queries):
    player = PlayerFactory()
    kinds = [make_kind("special") for _ in range(5)]
    for kind in kinds:
        inventory_add(player=player, item_kind=kind)
    CarrySettings.load()
    with django_assert_max_num_queries(6):  # lock, inventory, settings, insert (+ savepoints)
        inventory_add(player=player, item_kind=kinds[0])
