"""Seed 003's own examples, corrected as SPEC 9.1 says."""
from __future__ import annotations

import pytest

from labyrinth.engine import (
    Armory,
    Direction,
    Exit,
    Field,
    LabyrinthMap,
    MapFormatError,
    RubberRoom,
    Sleep,
    Stun,
    format_map,
    has_wall,
    parse_map,
    unreachable_cells,
)
from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE, SLEEP_EXAMPLE_AS_WRITTEN


def test_first_example_cells_are_where_the_text_puts_them():
    m = parse_map(FIRST_EXAMPLE)
    assert len(m.fields) == 1 and (m.fields[0].rows, m.fields[0].cols) == (3, 3)
    assert m.special((0, 0, 2)) == Exit(Direction.UP)
    assert m.special((0, 0, 1)) == Stun(2) and m.special((0, 1, 0)) == Stun(2)
    assert m.special((0, 1, 2)) == RubberRoom(Direction.LEFT)
    assert m.special((0, 2, 1)) == RubberRoom(Direction.RIGHT)
    # the seed's text says (3, 0); its map puts the Armory on the third row, (2, 0) (SPEC 9.1)
    assert m.special((0, 2, 0)) == Armory()
    assert [cell for cell, _ in m.specials()] == [(0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 2), (0, 2, 0),
                                                  (0, 2, 1)]


def test_first_example_walls_are_the_two_the_seed_names():
    m = parse_map(FIRST_EXAMPLE)
    walls = {(cell, d) for cell in m.cells() for d in Direction
             if has_wall(m, cell, d) and 0 <= cell[1] + d.delta[0] < 3 and 0 <= cell[2] + d.delta[1] < 3}
    assert walls == {((0, 0, 0), Direction.RIGHT), ((0, 0, 1), Direction.LEFT),
                     ((0, 0, 2), Direction.DOWN), ((0, 1, 2), Direction.UP)}


def test_first_example_passes_check_and_round_trips():
    m = parse_map(FIRST_EXAMPLE)
    assert unreachable_cells(m) == []
    assert parse_map(format_map(m)) == m


def test_corrected_sleep_example_reads_two_fields():
    m = parse_map(SLEEP_EXAMPLE)
    assert [(f.rows, f.cols) for f in m.fields] == [(2, 2), (1, 1)]
    assert m.special((0, 0, 1)) == Exit(Direction.UP)
    assert m.special((0, 1, 0)) == Sleep(2, (1, 0, 0))
    assert m.fields[1] == Field.open(1, 1)
    assert parse_map(format_map(m)) == m
    assert unreachable_cells(m) == []


def test_the_seeds_sleep_example_as_written_is_refused_at_its_missing_wall_line():
    with pytest.raises(MapFormatError) as refused:
        parse_map(SLEEP_EXAMPLE_AS_WRITTEN)
    assert refused.value.line == 4
    assert "'Z'" in refused.value.problem


def test_the_seeds_exit_1_is_refused_as_a_bad_direction():
    with pytest.raises(MapFormatError) as refused:
        parse_map(SLEEP_EXAMPLE.replace("Exit(UP)", "Exit(1)"))
    assert refused.value.line == 8
    assert "bad direction '1'" in refused.value.problem


def test_one_field_map_written_with_a_field_count_is_the_same_map():
    m = parse_map(FIRST_EXAMPLE)
    assert parse_map("1\n" + FIRST_EXAMPLE) == m
    assert isinstance(m, LabyrinthMap)
