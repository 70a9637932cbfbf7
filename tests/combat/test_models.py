"""Combat balancing tables: CombatSettings mirrors CombatRules, and the bestiary's validation."""
from __future__ import annotations

import dataclasses

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from combat.engine import EFFECTS, CombatRules
from combat.models import CombatSettings, EnemyKind, EnemyKindEffect


def _dataclass_default(field: dataclasses.Field) -> object:
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return field.default


@pytest.mark.parametrize("rule", dataclasses.fields(CombatRules), ids=lambda f: f.name)
def test_every_combat_rule_has_a_settings_field_with_the_engines_default(rule: dataclasses.Field) -> None:
    model_field = CombatSettings._meta.get_field(rule.name)
    default = _dataclass_default(rule)
    if rule.name == "effect_magnitudes":
        assert model_field.get_default() == dict(default)
    else:
        assert model_field.get_default() == default
        assert type(model_field.get_default()) is type(default)
    assert model_field.help_text


def test_a_fresh_settings_object_builds_the_engines_default_rules() -> None:
    assert CombatSettings().to_rules() == CombatRules()


@pytest.mark.django_db
def test_the_migrated_settings_row_holds_the_engines_defaults() -> None:
    assert CombatSettings.objects.get(pk=1).to_rules() == CombatRules()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [("base_miss_chance", 1.5), ("max_crit_chance", -0.1), ("ai_focus_weakest_chance", 2.0),
     ("crit_multiplier", 0.5), ("armor_constant", 0.0), ("min_defense_multiplier", 0.0), ("max_rounds", 0),
     ("base_hp", 0), ("encounter_party_divisor", 0)],
)
def test_settings_outside_their_sensible_range_are_rejected(field: str, value: float) -> None:
    settings = CombatSettings.load()
    setattr(settings, field, value)
    with pytest.raises(ValidationError) as error:
        settings.full_clean()
    assert field in error.value.message_dict


@pytest.mark.django_db
def test_settings_reject_a_miss_range_upside_down() -> None:
    settings = CombatSettings.load()
    settings.min_miss_chance, settings.max_miss_chance = 0.5, 0.2
    with pytest.raises(ValidationError) as error:
        settings.full_clean()
    assert "max_miss_chance" in error.value.message_dict


@pytest.mark.django_db
@pytest.mark.parametrize("magnitudes", [{"glitter": 1.0}, {"vigor": 0}, {"vigor": "strong"}, ["vigor"]])
def test_settings_reject_unknown_effects_or_non_positive_magnitudes(magnitudes: object) -> None:
    settings = CombatSettings.load()
    settings.effect_magnitudes = magnitudes
    with pytest.raises(ValidationError) as error:
        settings.full_clean()
    assert "effect_magnitudes" in error.value.message_dict


@pytest.mark.django_db
def test_the_settings_row_cannot_be_deleted_and_stays_single() -> None:
    CombatSettings(base_hp=30).save()
    assert CombatSettings.objects.count() == 1 and CombatSettings.load().base_hp == 30
    with pytest.raises(ValueError):
        CombatSettings.load().delete()


def _kind(**overrides: object) -> EnemyKind:
    values: dict[str, object] = {
        "name": "Test Bat", "slug": "test-bat", "hp": 5, "weapon_name": "Teeth", "weapon_damage": 1
    }
    values.update(overrides)
    return EnemyKind.objects.create(**values)


@pytest.mark.django_db
def test_an_unknown_effect_name_is_rejected_by_model_validation() -> None:
    effect = EnemyKindEffect(enemy_kind=_kind(), name="glitter", chance=0.5)
    with pytest.raises(ValidationError) as error:
        effect.full_clean()
    assert "name" in error.value.message_dict


@pytest.mark.django_db
def test_the_database_refuses_an_unknown_effect_name_too() -> None:
    kind = _kind()
    with pytest.raises(IntegrityError), transaction.atomic():
        EnemyKindEffect.objects.create(enemy_kind=kind, name="glitter")


@pytest.mark.django_db
@pytest.mark.parametrize("name", EFFECTS)
def test_every_engine_effect_is_a_valid_enemy_effect(name: str) -> None:
    EnemyKindEffect(enemy_kind=_kind(), name=name, turns=2, chance=0.5).full_clean()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "field"),
    [({"chance": 1.5}, "chance"), ({"magnitude": 0.0}, "magnitude"), ({"turns": 0}, "turns"),
     ({"trigger": "innate", "turns": 2}, "turns"), ({"trigger": "innate", "chance": 0.5}, "chance")],
)
def test_effect_numbers_out_of_range_are_rejected(overrides: dict[str, object], field: str) -> None:
    effect = EnemyKindEffect(enemy_kind=_kind(), name="bleeding", **overrides)
    with pytest.raises(ValidationError) as error:
        effect.full_clean()
    assert field in error.value.message_dict


@pytest.mark.django_db
def test_an_enemy_floor_range_upside_down_is_rejected() -> None:
    kind = EnemyKind(name="Bad", slug="bad", hp=5, weapon_name="x", weapon_damage=1, min_floor=3, max_floor=1)
    with pytest.raises(ValidationError) as error:
        kind.full_clean()
    assert "max_floor" in error.value.message_dict
    with pytest.raises(IntegrityError), transaction.atomic():
        kind.save()


@pytest.mark.django_db
def test_an_enemy_without_a_max_floor_appears_on_every_deeper_floor() -> None:
    kind = _kind(min_floor=2, max_floor=None)
    assert [kind.appears_on(f) for f in (1, 2, 9)] == [False, True, True]
    assert kind.floors_label == "2+"
