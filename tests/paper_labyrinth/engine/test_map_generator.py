"""The seeded paper map generator: always valid, deterministic, the recommendations followed where
the map has room."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import DIRECTIONS
from paper_labyrinth.engine import (
    PAPER_GENERATOR_VERSION,
    CellType,
    Outer,
    cells_of,
    exits,
    generate_paper_map,
    neighbour,
    sources,
    true_treasures,
    validate_paper_map,
)
from paper_labyrinth.engine.generator import plain_paper_map

USUAL = [(4, 4), (3, 6), (4, 5), (4, 6), (5, 5)]


def test_the_version_is_a_positive_integer():
    assert isinstance(PAPER_GENERATOR_VERSION, int) and PAPER_GENERATOR_VERSION >= 1


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(3, 8),
    cols=st.integers(3, 8),
    players=st.integers(2, 5),
    variant=st.sampled_from(["classic", "quantum"]),
    cut=st.booleans(),
)
def test_every_generated_map_is_valid(seed, rows, cols, players, variant, cut):
    m = generate_paper_map(random.Random(seed), rows, cols, players, variant, cut_corners=cut)
    result = validate_paper_map(m, variant, players=players)
    assert result.ok, [str(f) for f in result.errors]
    assert (m.rows, m.cols) == (rows, cols)
    assert len(true_treasures(m)) == 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["classic", "quantum"]))
def test_quantum_maps_with_deep_rivers_are_valid_for_that_option(seed, variant):
    m = generate_paper_map(random.Random(seed), 5, 5, 3, variant, river_mode="deep")
    assert validate_paper_map(m, variant, river_mode="deep").ok


@pytest.mark.parametrize(("rows", "cols"), USUAL)
@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_usual_sizes_follow_the_recommendations(rows, cols, variant):
    for seed in range(8):
        players = 2 + seed % 4
        m = generate_paper_map(random.Random(seed), rows, cols, players, variant)
        result = validate_paper_map(m, variant, players=players)
        assert result.ok
        letters = {f.rule[-1] for f in result.warnings}
        assert not letters & {"а", "б"}, result.warnings  # 2 arsenals + 2 hospitals, apart (classic)
        assert len(cells_of(m, CellType.ARSENAL)) >= 2 and len(cells_of(m, CellType.HOSPITAL)) >= 2
        false = sum(1 for stack in m.treasures.values() for t in stack if not t)
        assert 1 <= false <= players
        assert cells_of(m, CellType.RIVER) and cells_of(m, CellType.MOUTH) and m.holes
        assert any(kind is Outer.OPEN_EXIT for kind in exits(m).values())
        assert all(pos not in sources(m) for pos, _ in exits(m))
        exit_cells = {pos for pos, _ in exits(m)}
        assert true_treasures(m)[0] not in exit_cells


def test_holes_and_rivers_lie_along_the_outer_wall_on_usual_sizes():
    for rows, cols in USUAL:
        m = generate_paper_map(random.Random(rows * 10 + cols), rows, cols, 3)
        for pos in [p for cycle in m.holes for p in cycle]:
            assert any(neighbour(m, pos, d) is None for d in DIRECTIONS)


def test_the_same_seed_gives_the_same_map_and_another_seed_another():
    a = generate_paper_map(random.Random(42), 5, 5, 3)
    assert a == generate_paper_map(random.Random(42), 5, 5, 3)
    assert any(generate_paper_map(random.Random(seed), 5, 5, 3) != a for seed in range(43, 46))


def test_cut_corners_remove_the_four_corners():
    m = generate_paper_map(random.Random(3), 5, 6, 3, cut_corners=True)
    assert len(m.cells) == 26 and (0, 0) not in m.cells and (4, 5) not in m.cells
    small = generate_paper_map(random.Random(3), 3, 5, 3, cut_corners=True)  # too small to cut
    assert len(small.cells) == 15


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((2, 5, 3), "between 3 and 12"),
        ((5, 13, 3), "between 3 and 12"),
        ((5, 5, 1), "2 to 5 players"),
        ((5, 5, 6), "2 to 5 players"),
    ],
)
def test_bad_arguments(args, words):
    with pytest.raises(ValueError, match=words):
        generate_paper_map(random.Random(1), *args)


def test_unknown_variant():
    with pytest.raises(ValueError, match="classic or quantum"):
        generate_paper_map(random.Random(1), 4, 4, 3, "paper")


@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_the_fallback_map_is_valid(variant):
    """When no attempt succeeds the generator returns the plain map; it is valid too."""
    for rows, cols in [(3, 3), (4, 5), (8, 8), (12, 12)]:
        for cut in (False, True):
            m = plain_paper_map(random.Random(rows), rows, cols, cut_corners=cut)
            assert validate_paper_map(m, variant).ok
        assert not m.flow and not m.holes and not m.walls
