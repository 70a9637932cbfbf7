"""Admin pages of the combat balancing data open for staff and validate what designers type."""
from __future__ import annotations

import pytest
from django.test import Client

from combat.models import CombatSettings, EnemyKind

SETTINGS_URL = "/admin/combat/combatsettings/"
KINDS_URL = "/admin/combat/enemykind/"


@pytest.mark.django_db
def test_the_settings_changelist_opens_the_single_row(admin_client: Client) -> None:
    response = admin_client.get(SETTINGS_URL)
    assert response.status_code == 302 and response.url == f"{SETTINGS_URL}1/change/"


@pytest.mark.django_db
def test_the_settings_change_page_shows_every_group(admin_client: Client) -> None:
    response = admin_client.get(f"{SETTINGS_URL}1/change/")
    html = response.content.decode()
    assert response.status_code == 200
    for text in ("Criticals", "Encounters", "Boss rooms", "effect_magnitudes", "turn_deadline_seconds"):
        assert text in html


def _settings_form(**overrides: object) -> dict[str, object]:
    settings = CombatSettings.load()
    data: dict[str, object] = {
        f.name: getattr(settings, f.name)
        for f in CombatSettings._meta.concrete_fields
        if f.editable and f.name not in {"id", "updated_at", "effect_magnitudes"}
    }
    data["effect_magnitudes"] = '{"burning": 4.0}'
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_a_designer_saves_settings_and_the_rules_follow(admin_client: Client) -> None:
    response = admin_client.post(f"{SETTINGS_URL}1/change/", _settings_form(crit_multiplier=2.5))
    assert response.status_code == 302
    settings = CombatSettings.load()
    assert settings.crit_multiplier == 2.5 and settings.to_rules().effect_magnitudes["burning"] == 4.0


@pytest.mark.django_db
def test_the_settings_form_refuses_a_probability_above_one(admin_client: Client) -> None:
    response = admin_client.post(f"{SETTINGS_URL}1/change/", _settings_form(base_miss_chance=1.5))
    assert response.status_code == 200 and b"errornote" in response.content
    assert CombatSettings.load().base_miss_chance == 0.10


@pytest.mark.django_db
def test_settings_cannot_be_added_or_deleted(admin_client: Client) -> None:
    assert admin_client.get(f"{SETTINGS_URL}add/").status_code == 403
    assert admin_client.get(f"{SETTINGS_URL}1/delete/").status_code == 403


@pytest.mark.django_db
def test_the_bestiary_changelist_lists_filters_and_searches(admin_client: Client) -> None:
    response = admin_client.get(KINDS_URL)
    assert response.status_code == 200
    assert b"Giant Rat" in response.content and b"Ember Wyrm" in response.content
    bosses = admin_client.get(KINDS_URL, {"is_boss__exact": "1"}).content
    assert b"Ember Wyrm" in bosses and b"Giant Rat" not in bosses
    found = admin_client.get(KINDS_URL, {"q": "wyrm"}).content
    assert b"Ember Wyrm" in found and b"Giant Rat" not in found


@pytest.mark.django_db
def test_the_bestiary_changelist_query_count_does_not_grow_per_row(
    admin_client: Client, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(12):
        assert admin_client.get(KINDS_URL).status_code == 200


@pytest.mark.django_db
def test_an_enemy_kind_change_page_shows_its_effects_inline(admin_client: Client) -> None:
    kind = EnemyKind.objects.get(slug="ember-wyrm")
    response = admin_client.get(f"{KINDS_URL}{kind.pk}/change/")
    assert response.status_code == 200
    assert b"effects-0-name" in response.content and b"burning" in response.content


def _kind_form(effect_name: str) -> dict[str, object]:
    return {
        "name": "Test Mimic", "slug": "test-mimic", "description": "", "hp": 20, "armor": 2,
        "weapon_name": "Lid", "weapon_kind": "natural", "weapon_damage": 4, "strength": 0, "stamina": 0,
        "metabolism": 0, "luck": 0, "attentiveness": 0, "min_floor": 1, "max_floor": "", "weight": 5,
        "effects-TOTAL_FORMS": 1, "effects-INITIAL_FORMS": 0,
        "effects-MIN_NUM_FORMS": 0, "effects-MAX_NUM_FORMS": 1000,
        "effects-0-trigger": "on_hit", "effects-0-name": effect_name, "effects-0-turns": 2,
        "effects-0-magnitude": "", "effects-0-chance": 0.5,
    }


@pytest.mark.django_db
def test_a_designer_adds_an_enemy_with_an_on_hit_effect(admin_client: Client) -> None:
    response = admin_client.post(f"{KINDS_URL}add/", _kind_form("bleeding"))
    assert response.status_code == 302
    kind = EnemyKind.objects.get(slug="test-mimic")
    assert [(e.name, e.turns, e.chance) for e in kind.effects.all()] == [("bleeding", 2, 0.5)]


@pytest.mark.django_db
def test_the_admin_refuses_an_unknown_effect_name(admin_client: Client) -> None:
    response = admin_client.post(f"{KINDS_URL}add/", _kind_form("glitter"))
    assert response.status_code == 200 and b"errorlist" in response.content
    assert not EnemyKind.objects.filter(slug="test-mimic").exists()
