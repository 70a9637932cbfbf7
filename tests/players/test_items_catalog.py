"""The item catalog: the starting data migration, the category/sub-kind rules, engine values, the API."""
from __future__ import annotations

import importlib
from collections import Counter

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from combat.engine import EffectSpec, Potion, Weapon
from players.models import SUB_KINDS, WEAPON_CLASSES, ItemCategory, ItemKind, ItemSubKind
from tests.factories import PlayerFactory, api_client

pytestmark = pytest.mark.django_db

starting_catalog = importlib.import_module("players.migrations.0004_starting_catalog")


@pytest.fixture
def catalog() -> list[ItemKind]:
    """The starting catalog; loaded again (idempotently) in case a transactional test flushed it."""
    starting_catalog.load_catalog(django_apps, None)
    return list(ItemKind.objects.all())


def test_the_migrated_database_holds_the_starting_catalog():
    names = set(ItemKind.objects.values_list("name", flat=True))
    assert {row[0] for row in starting_catalog.CATALOG} <= names


def test_the_starting_catalog_has_several_items_of_every_category_and_sub_kind(catalog):
    per_sub_kind = Counter((kind.category, kind.sub_kind) for kind in catalog)
    for category, sub_kinds in SUB_KINDS.items():
        for sub_kind in sub_kinds:
            assert per_sub_kind[(category, sub_kind)] >= 2, (category, sub_kind)
    assert {kind.category for kind in catalog} == set(ItemCategory.values)
    assert {kind.sub_kind for kind in catalog} == set(ItemSubKind.values)


def test_every_starting_item_passes_validation_and_has_a_weight_and_price(catalog):
    for kind in catalog:
        kind.full_clean()
        assert kind.weight > 0 and kind.price > 0, kind.name


def test_the_junk_dealer_has_basic_weapons_of_several_classes(catalog):
    basic_weapons = [kind for kind in catalog if kind.is_basic and kind.category == ItemCategory.WEAPON]
    assert len({kind.weapon_class for kind in basic_weapons}) >= 3
    assert all(kind.rarity == "common" for kind in basic_weapons)


def test_starting_weapons_and_potions_become_combat_engine_values(catalog):
    for kind in catalog:
        if kind.category == ItemCategory.WEAPON:
            weapon = kind.as_weapon()
            assert isinstance(weapon, Weapon)
            assert weapon.damage == kind.damage > 0
            assert weapon.kind == WEAPON_CLASSES[kind.sub_kind]
        elif kind.category == ItemCategory.POTION:
            potion = kind.as_potion(item_id=42)
            assert isinstance(potion, Potion) and potion.id == "42"
            assert potion.kind.value == kind.sub_kind
        elif kind.category == ItemCategory.AMULET:
            spec = kind.effect_spec()
            assert isinstance(spec, EffectSpec) and spec.turns is None  # permanent for the battle


def test_an_on_hit_weapon_effect_keeps_its_chance_and_turns(catalog):
    longsword = next(kind for kind in catalog if kind.name == "Knight's Longsword")
    assert longsword.as_weapon().on_hit == (EffectSpec("bleeding", turns=2, magnitude=None, chance=0.2),)


def test_a_non_weapon_is_not_a_weapon(catalog):
    helmet = next(kind for kind in catalog if kind.sub_kind == "helmet")
    with pytest.raises(ValueError):
        helmet.as_weapon()
    with pytest.raises(ValueError):
        helmet.as_potion(item_id=1)


# --- the rules on catalog rows --------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "constraint"), [
    ({"category": "armor", "sub_kind": "sword", "armor": 1}, "itemkind_sub_kind_fits_category"),
    ({"category": "weapon", "sub_kind": "helmet", "damage": 1}, "itemkind_sub_kind_fits_category"),
    ({"category": "weapon", "sub_kind": "sword"}, "itemkind_weapon_has_damage"),
    ({"category": "armor", "sub_kind": "boots"}, "itemkind_armor_has_armor"),
    ({"category": "potion", "sub_kind": "healing"}, "itemkind_healing_heals"),
    ({"category": "potion", "sub_kind": "effect"}, "itemkind_effect_item_has_effect"),
    ({"category": "amulet", "sub_kind": "amulet"}, "itemkind_effect_item_has_effect"),
    ({"category": "potion", "sub_kind": "stat", "stat": "luck"}, "itemkind_stat_potion_has_stat"),
    ({"category": "torch", "sub_kind": "torch"}, "itemkind_torch_burns"),
    ({"category": "special", "sub_kind": "gem", "effect_chance": 1.5}, "itemkind_effect_chance_0_1"),
    ({"category": "special", "sub_kind": "gem", "effect_magnitude": 0}, "itemkind_effect_magnitude_positive"),
])
def test_the_database_refuses_an_item_that_breaks_its_category_rules(fields, constraint):
    kind = ItemKind(name="Broken", weight=1, price=1, **fields)
    with pytest.raises(ValidationError):
        kind.full_clean()
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        kind.save()


def test_clean_names_the_field_at_fault():
    kind = ItemKind(name="Odd", category="armor", sub_kind="bow", weight=1, price=1, armor=1)
    with pytest.raises(ValidationError) as info:
        kind.full_clean()
    assert set(info.value.message_dict) == {"sub_kind"}


# --- GET /api/v1/items/ -------------------------------------------------------------------------------------

def test_the_catalog_lists_every_item_with_its_stats(catalog):
    response = api_client(PlayerFactory()).get("/api/v1/items/")
    assert response.status_code == 200
    body = response.json()
    assert len(body) == len(catalog)
    sword = next(item for item in body if item["name"] == "Rusty Sword")
    assert sword == {
        "id": sword["id"], "name": "Rusty Sword", "description": "", "category": "weapon",
        "sub_kind": "sword",
        "weapon_class": "melee", "weight": 5, "price": 15, "rarity": "common", "is_basic": True,
        "damage": 4, "armor": 0, "heal": 0, "effect": "", "effect_turns": None, "effect_magnitude": None,
        "effect_chance": 1.0, "stat": "", "stat_amount": 0, "torch_moves": 0,
    }


def test_the_catalog_filters_by_category_and_sub_kind(catalog):
    client = api_client(PlayerFactory())
    armor = client.get("/api/v1/items/", {"category": "armor"}).json()
    assert armor and {item["category"] for item in armor} == {"armor"}
    helmets = client.get("/api/v1/items/", {"category": "armor", "sub_kind": "helmet"}).json()
    assert helmets and {item["sub_kind"] for item in helmets} == {"helmet"}
    assert client.get("/api/v1/items/", {"category": "potion", "sub_kind": "helmet"}).json() == []


@pytest.mark.parametrize("query", [{"category": "shield"}, {"sub_kind": "lance"}, {"category": "WEAPON"}])
def test_an_unknown_category_or_sub_kind_is_bad_input(query):
    response = api_client(PlayerFactory()).get("/api/v1/items/", query)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_the_catalog_needs_authentication():
    assert APIClient().get("/api/v1/items/").status_code == 401


def test_one_catalog_item_and_a_missing_one(catalog):
    client = api_client(PlayerFactory())
    kind = catalog[0]
    assert client.get(f"/api/v1/items/{kind.pk}/").json()["name"] == kind.name
    response = client.get("/api/v1/items/999999/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "item_kind_not_found"


def test_the_catalog_list_takes_a_fixed_number_of_queries(catalog, django_assert_max_num_queries):
    client = api_client(PlayerFactory())
    with django_assert_max_num_queries(3):  # user, player, catalog
        client.get("/api/v1/items/")
