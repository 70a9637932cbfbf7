"""The designer's admin for items: catalog filters, search, validation, carry settings, inventory inline."""
from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import CarrySettings, ItemKind
from players.services import inventory_add
from tests.factories import PlayerFactory
from tests.players.test_inventory_services import make_kind

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_the_carried_items_inline(admin_client):
    player = PlayerFactory()
    inventory_add(player=player, item_kind=make_kind("armor", "boots", name="Seven-league Boots"), equip=True)
    response = admin_client.get(reverse("admin:players_player_change", args=[player.pk]))
    assert response.status_code == 200
    assert b"Seven-league Boots" in response.content
    assert b"armor / boots" in response.content


def test_the_catalog_filters_by_category_and_sub_kind_and_searches_names(admin_client):
    make_kind("weapon", "crossbow", name="Arbalest of Tests")
    make_kind("armor", "gloves", name="Mittens of Tests")
    url = reverse("admin:players_itemkind_changelist")
    by_sub_kind = admin_client.get(url, {"category": "weapon", "sub_kind": "crossbow"}).content
    assert b"Arbalest of Tests" in by_sub_kind and b"Mittens of Tests" not in by_sub_kind
    searched = admin_client.get(url, {"q": "mittens"}).content
    assert b"Mittens of Tests" in searched and b"Arbalest of Tests" not in searched


def test_the_catalog_form_refuses_a_sub_kind_from_another_category(admin_client):
    response = admin_client.post(reverse("admin:players_itemkind_add"), {
        "name": "Sword-helmet", "description": "", "category": "armor", "sub_kind": "sword", "weight": 3,
        "price": 10, "rarity": "common", "damage": 0, "armor": 2, "heal": 0, "effect": "",
        "effect_chance": 1.0, "stat": "", "stat_amount": 0, "torch_moves": 0,
    })
    assert response.status_code == 200  # the form again, with the error
    assert b"Sub-kinds of armor: cuirass, greaves, helmet, gloves, boots." in response.content
    assert not ItemKind.objects.filter(name="Sword-helmet").exists()


def test_the_carry_settings_open_as_one_editable_row(admin_client):
    response = admin_client.get(reverse("admin:players_carrysettings_changelist"), follow=True)
    assert response.status_code == 200
    assert b"capacity_per_strength" in response.content
    url = reverse("admin:players_carrysettings_change", args=[1])
    admin_client.post(url, {"max_weapons": 2, "max_potions": 4, "potions_per_belt_level": 1,
                            "capacity_base": 45, "capacity_per_strength": 6})
    settings = CarrySettings.load()
    assert (settings.max_potions, settings.capacity_base, settings.capacity_per_strength) == (4, 45, 6)
