"""LabyrinthMapDesign: validation on save, derived fields, active maps always pass the check."""
from __future__ import annotations

from random import Random

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from labyrinth.engine import GeneratorSettings, generate_map, parse_map, unreachable_cells
from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE
from labyrinth.models import LabyrinthGeneratorSettings, LabyrinthMapDesign

TRAPPED = "1 3\n. R E\nR RubberRoom(LEFT)\nE Exit(RIGHT)\n"

pytestmark = pytest.mark.django_db


def test_the_migration_loads_the_defaults_and_the_seed_examples():
    assert LabyrinthGeneratorSettings.load().to_settings() == GeneratorSettings()
    names = list(LabyrinthMapDesign.objects.active().values_list("name", flat=True))
    assert names == ["Seed 003: first example", "Seed 003: sleep example (corrected)"]
    first = LabyrinthMapDesign.objects.get(name="Seed 003: first example")
    assert first.to_map() == parse_map(FIRST_EXAMPLE)
    assert (first.rows, first.cols, first.field_count, first.special_count) == (3, 3, 1, 6)
    assert LabyrinthMapDesign.objects.get(field_count=2).to_map() == parse_map(SLEEP_EXAMPLE)


def test_saving_derives_size_specials_and_check():
    design = LabyrinthMapDesign.objects.create(name="trap", text=TRAPPED, is_active=False)
    design.refresh_from_db()
    assert (design.rows, design.cols, design.special_count) == (1, 3, 2)
    assert design.unreachable == [[0, 0, 0], [0, 0, 1]] and design.unreachable_count == 2
    assert not design.passes_check


def test_bad_text_is_refused_on_save_with_the_line_quoted():
    with pytest.raises(ValidationError) as refused:
        LabyrinthMapDesign.objects.create(name="bad", text="2 2\n. E\nZ .\n. .\nE Exit(UP)\n")
    assert refused.value.message_dict["text"] == [
        ("line 3: character 1 under cell (0, 0, 0) must be '_' (wall), '.' or ' ', not 'Z' "
         "(line 3 reads: 'Z .')")]
    assert not LabyrinthMapDesign.objects.filter(name="bad").exists()


def test_a_map_failing_the_check_cannot_be_active():
    with pytest.raises(ValidationError) as refused:
        LabyrinthMapDesign.objects.create(name="trap", text=TRAPPED, is_active=True)
    assert "fails the check (2 cells" in refused.value.message_dict["is_active"][0]


def test_the_database_refuses_an_active_map_failing_the_check_too():
    design = LabyrinthMapDesign.objects.create(name="trap", text=TRAPPED, is_active=False)
    with pytest.raises(IntegrityError):
        LabyrinthMapDesign.objects.filter(pk=design.pk).update(is_active=True)


def test_generated_designs_record_seed_version_and_settings():
    settings = GeneratorSettings(teleport_rate=0.1)
    design = LabyrinthMapDesign.generated(name="gen", rows=12, cols=9, seed=42, settings=settings)
    design.save()
    assert design.to_map() == generate_map(12, 9, Random(42), settings)
    assert unreachable_cells(design.to_map()) == [] and design.is_active
    assert design.seed == 42 and design.generator_version == 1
    assert design.generator_settings["teleport_rate"] == 0.1


def test_generation_refuses_sizes_outside_the_admin_limits():
    with pytest.raises(ValueError, match="between 2 and 50"):
        LabyrinthMapDesign.generated(name="big", rows=51, cols=5, seed=1, settings=GeneratorSettings())


def test_generator_settings_refuse_rates_over_one():
    settings = LabyrinthGeneratorSettings.load()
    settings.stun_rate = 0.9
    settings.armory_rate = 0.5
    with pytest.raises(ValidationError, match="add up to"):
        settings.full_clean()
