"""The map model's small helpers (paper_labyrinth.engine.model) on the named examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine import (
    CellType,
    Outer,
    PaperMap,
    Side,
    cells_of,
    direction_between,
    downstream,
    exits,
    flow_linked,
    hole_cycle,
    hole_next,
    is_source,
    mouth_of,
    neighbour,
    outer_kind,
    outer_sides,
    side,
    sources,
    true_treasures,
    upstream,
    wall_between,
)
from paper_labyrinth.engine.examples import (
    CUT_CORNERS,
    SMALL_CLASSIC,
    SMALL_HOLES,
    SMALL_MOUTH,
    SMALL_R1,
    SMALL_R2,
    SMALL_TRUE_TREASURE,
)


def test_neighbour_is_none_off_the_outline_and_on_cut_corners():
    assert neighbour(SMALL_CLASSIC, (0, 0), Direction.RIGHT) == (0, 1)
    assert neighbour(SMALL_CLASSIC, (0, 0), Direction.UP) is None
    assert neighbour(SMALL_CLASSIC, (3, 4), Direction.RIGHT) is None
    assert neighbour(CUT_CORNERS, (0, 1), Direction.LEFT) is None  # (0, 0) is cut off
    assert neighbour(CUT_CORNERS, (1, 0), Direction.UP) is None


def test_side_kinds():
    assert side(SMALL_CLASSIC, (0, 0), Direction.RIGHT) is Side.OPEN
    assert side(SMALL_CLASSIC, (1, 1), Direction.DOWN) is Side.INNER_WALL
    assert side(SMALL_CLASSIC, (2, 1), Direction.UP) is Side.INNER_WALL  # a wall belongs to both cells
    assert side(SMALL_CLASSIC, (0, 0), Direction.UP) is Side.OUTER_WALL
    assert side(SMALL_CLASSIC, (2, 0), Direction.LEFT) is Side.OPEN_EXIT
    assert side(SMALL_CLASSIC, (3, 3), Direction.DOWN) is Side.CLOSED_EXIT
    assert outer_kind(SMALL_CLASSIC, (0, 0), Direction.UP) is Outer.WALL
    assert wall_between((1, 1), (2, 1)) in SMALL_CLASSIC.walls


def test_outer_sides_and_exits():
    sides = list(outer_sides(SMALL_CLASSIC))
    assert len(sides) == 2 * (4 + 5)
    assert ((0, 0), Direction.UP) in sides and ((0, 0), Direction.LEFT) in sides
    assert exits(SMALL_CLASSIC) == {
        ((2, 0), Direction.LEFT): Outer.OPEN_EXIT,
        ((3, 3), Direction.DOWN): Outer.CLOSED_EXIT,
    }
    assert len(list(outer_sides(CUT_CORNERS))) == 2 * (5 + 5)  # a cut corner: its 2 sides gone, 2 new ones


def test_holes_cycle_in_order():
    h1, h2, h3 = SMALL_HOLES
    assert hole_next(SMALL_CLASSIC, h1) == h2
    assert hole_next(SMALL_CLASSIC, h2) == h3
    assert hole_next(SMALL_CLASSIC, h3) == h1
    assert hole_next(SMALL_CLASSIC, (0, 1)) is None
    assert hole_cycle(SMALL_CLASSIC, h2) == SMALL_HOLES


def test_rivers():
    assert downstream(SMALL_CLASSIC, SMALL_R1) == SMALL_R2
    assert downstream(SMALL_CLASSIC, SMALL_R2) == SMALL_MOUTH
    assert downstream(SMALL_CLASSIC, SMALL_MOUTH) is None
    assert upstream(SMALL_CLASSIC, SMALL_MOUTH) == (SMALL_R2,)
    assert is_source(SMALL_CLASSIC, SMALL_R1) and not is_source(SMALL_CLASSIC, SMALL_R2)
    assert sources(SMALL_CLASSIC) == (SMALL_R1,)
    assert sources(CUT_CORNERS) == ((0, 1), (0, 3), (1, 4))
    assert upstream(CUT_CORNERS, (0, 2)) == ((0, 1), (0, 3))  # two branches merge
    assert mouth_of(SMALL_CLASSIC, SMALL_R1) == SMALL_MOUTH
    assert mouth_of(SMALL_CLASSIC, SMALL_MOUTH) == SMALL_MOUTH
    assert mouth_of(SMALL_CLASSIC, (1, 1)) is None
    looped = replace(SMALL_CLASSIC, flow={SMALL_R1: SMALL_R2, SMALL_R2: SMALL_R1})
    assert mouth_of(looped, SMALL_R1) is None
    assert flow_linked(SMALL_CLASSIC, SMALL_R2, SMALL_R1) and not flow_linked(
        SMALL_CLASSIC, SMALL_R1, SMALL_MOUTH
    )


def test_cells_and_treasures():
    assert cells_of(SMALL_CLASSIC, CellType.ENCEPHALITIS) == ((0, 4),)
    assert true_treasures(SMALL_CLASSIC) == (SMALL_TRUE_TREASURE,)
    assert true_treasures(CUT_CORNERS) == ((2, 2),)
    assert direction_between((1, 1), (1, 2)) is Direction.RIGHT
    assert direction_between((1, 1), (2, 2)) is None


def test_maps_compare_by_value_and_are_frozen():
    copy = PaperMap(**{name: getattr(SMALL_CLASSIC, name) for name in SMALL_CLASSIC.__dataclass_fields__})
    assert copy == SMALL_CLASSIC
    assert replace(SMALL_CLASSIC, bullets={}) != SMALL_CLASSIC
    with pytest.raises(AttributeError):
        SMALL_CLASSIC.rows = 3  # type: ignore[misc]
