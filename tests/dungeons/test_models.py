"""GenerationSettings: SPEC defaults from the data migration, conversion and validation; the rooms' field
order."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from dungeons.generation import GenerationParams
from dungeons.models import DungeonRoom, GenerationSettings
from dungeons.selectors import generation_params_get


@pytest.mark.django_db
def test_data_migration_loads_spec_defaults() -> None:
    row = GenerationSettings.objects.get(pk=1)
    assert row.to_params() == GenerationParams()
    assert generation_params_get() == GenerationParams()


@pytest.mark.django_db
def test_edited_settings_are_what_the_server_generates_with() -> None:
    row = GenerationSettings.load()
    row.f_max = 9
    row.k = 0.75
    row.save()
    assert generation_params_get() == GenerationParams(f_max=9, k=0.75)


@pytest.mark.django_db
def test_settings_stay_a_singleton() -> None:
    GenerationSettings(f_min=3).save()
    assert GenerationSettings.objects.count() == 1
    assert GenerationSettings.load().f_min == 3


@pytest.mark.django_db
def test_clean_reports_unplayable_combinations_by_name() -> None:
    row = GenerationSettings.load()
    row.r_min, row.r_max = 9, 8
    with pytest.raises(ValidationError, match="r_max"):
        row.full_clean()


@pytest.mark.django_db
def test_database_refuses_unplayable_settings() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GenerationSettings.objects.filter(pk=1).update(story_item_chance=2.0)


def test_dungeon_rooms_are_built_from_values_in_the_field_order_the_store_names() -> None:
    # dungeons.services._dungeon_store builds rooms positionally (issue 13): a new field must be placed there
    assert [f.attname for f in DungeonRoom._meta.concrete_fields] == [
        "id", "dungeon_id", "floor", "index", "kind", "npc_kind", "story_item", "seal"]
