"""paper_labyrinth.maps: the map a paper match is played on (a designer's, or generated)."""

from __future__ import annotations

import random

import pytest

from paper_labyrinth.engine import generate_paper_map, validate_paper_map
from paper_labyrinth.engine.examples import SMALL_CLASSIC, SMALL_CLASSIC_TEXT
from paper_labyrinth.maps import PaperMapUnavailable, default_size, paper_map_for_match
from paper_labyrinth.models import PaperMapDesign

pytestmark = pytest.mark.django_db
NO_OPEN_EXIT = SMALL_CLASSIC_TEXT.replace("oС М С|С Я|", "xС М С|С Я|")


def test_a_designer_map():
    design = PaperMapDesign.objects.get(name="Seed 002: small classic example")
    assert paper_map_for_match(design.pk, random.Random(1), 3, "classic") == SMALL_CLASSIC
    assert paper_map_for_match(design.pk, random.Random(1), 3, "quantum") == SMALL_CLASSIC


def test_unknown_and_inactive_designs_are_unavailable():
    with pytest.raises(PaperMapUnavailable) as missing:
        paper_map_for_match(10**6, random.Random(1), 3, "classic")
    assert missing.value.code == "unknown_map" and missing.value.design_id == 10**6
    draft = PaperMapDesign.objects.create(name="draft", text=SMALL_CLASSIC_TEXT, is_active=False)
    with pytest.raises(PaperMapUnavailable) as inactive:
        paper_map_for_match(draft.pk, random.Random(1), 3, "classic")
    assert inactive.value.code == "unknown_map"


def test_a_classic_map_with_no_open_exit_cannot_host_a_quantum_match():
    design = PaperMapDesign.objects.create(name="closed", text=NO_OPEN_EXIT, variant="classic")
    assert design.is_active and design.is_valid
    assert paper_map_for_match(design.pk, random.Random(1), 3, "classic").outer
    with pytest.raises(PaperMapUnavailable) as refused:
        paper_map_for_match(design.pk, random.Random(1), 3, "quantum")
    assert refused.value.code == "map_invalid_for_variant" and refused.value.rules == ("Q1.4",)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_a_generated_map_in_the_usual_size(players, variant):
    m = paper_map_for_match(None, random.Random(7), players, variant)
    assert (m.rows, m.cols) == default_size(players)
    assert m == generate_paper_map(random.Random(7), *default_size(players), players, variant)
    assert validate_paper_map(m, variant, players=players).ok


def test_a_generated_map_of_a_given_size_and_deep_quantum_rivers():
    m = paper_map_for_match(
        None, random.Random(2), 3, "quantum", size=(6, 6), river_mode="deep", cut_corners=True
    )
    assert (m.rows, m.cols, len(m.cells)) == (6, 6, 32)
    assert validate_paper_map(m, "quantum", river_mode="deep").ok


def test_default_size_needs_two_to_five_players():
    with pytest.raises(ValueError, match="2 to 5 players"):
        default_size(6)
