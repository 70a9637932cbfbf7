"""GenerationSettings: SPEC defaults from the data migration, conversion and validation."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from dungeons.generation import GenerationParams
from dungeons.models import GenerationSettings
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
