"""Movement without grenades (paper_labyrinth.engine.movement): the summary's test cases 1-7 where
they are about where a player ends up, and the reachability the validator builds on."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine import (
    CellType,
    Side,
    StepKind,
    cycle_move,
    downstream_move,
    generate_paper_map,
    moves_from,
    parse_paper_map,
    reachable_from,
    sources,
    step,
    unreachable,
)
from paper_labyrinth.engine.examples import SMALL_CLASSIC, SMALL_HOLES

UP, LEFT, DOWN, RIGHT = Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT

# The summary's rivers: R1 -> R2 -> U, with land around.
RIVER = parse_paper_map("""\
map 2 4
 _ _ _ _
|С Р>Р>У|

oС С С Сo
 _ _ _ _
""")
LAND, R1, R2, U = (0, 0), (0, 1), (0, 2), (0, 3)


def test_case_1_entering_a_hole_moves_to_the_next_one():
    h1, _h2, h3 = SMALL_HOLES
    result = step(SMALL_CLASSIC, (2, 0), DOWN, "deep")  # (2, 0) is land above Я3 = (3, 0)
    assert (result.kind, result.entered, result.end, result.hole) == (StepKind.MOVED, h3, h1, True)
    result = step(SMALL_CLASSIC, (3, 3), RIGHT, "deep")  # (3, 4) is land: no hole effect
    assert result.end == (3, 4) and not result.hole


def test_case_2_a_bump_in_a_hole_stays_and_the_cycle_move():
    h1, h2, h3 = SMALL_HOLES
    result = step(SMALL_CLASSIC, h2, RIGHT, "deep")
    assert (result.kind, result.end, result.side) == (StepKind.WALL, h2, Side.OUTER_WALL)
    assert cycle_move(SMALL_CLASSIC, h3) == h1
    assert cycle_move(SMALL_CLASSIC, (1, 1)) is None  # from land: no cycle move


def test_case_3_deep_drift_and_moving_upstream():
    into = step(RIVER, LAND, RIGHT, "deep")
    assert (into.entered, into.end, into.drifted) == (R1, R2, True)
    upstream = step(RIVER, R2, LEFT, "deep")
    assert (upstream.entered, upstream.end, upstream.drifted) == (R1, R2, True)


def test_case_4_with_the_flow_two_cells_downstream_move_one():
    assert step(RIVER, R1, RIGHT, "deep").end == U
    assert downstream_move(RIVER, R1) == R2
    assert downstream_move(RIVER, U) is None
    assert downstream_move(RIVER, LAND) is None


def test_case_5_a_bump_in_a_deep_river_drifts():
    result = step(RIVER, R1, UP, "deep")
    assert (result.kind, result.end, result.drifted) == (StepKind.WALL, R2, True)
    shallow = step(RIVER, R1, UP, "shallow")
    assert (shallow.kind, shallow.end, shallow.drifted) == (StepKind.WALL, R1, False)


def test_case_6_from_the_mouth_toward_the_inflow():
    classic = step(RIVER, U, LEFT, "deep")
    assert (classic.kind, classic.end) == (StepKind.MOVED, U)
    quantum = step(RIVER, U, LEFT, "shallow")
    assert (quantum.kind, quantum.end) == (StepKind.REFUSED, U)


def test_case_7_shallow_rivers_along_the_flow_both_ways():
    there = step(RIVER, R1, RIGHT, "shallow")
    back = step(RIVER, R2, LEFT, "shallow")
    assert (there.end, there.along_flow, there.drifted) == (R2, True, False)
    assert (back.end, back.along_flow, back.drifted) == (R1, True, False)
    assert step(RIVER, R2, RIGHT, "shallow").end == U
    into = step(RIVER, LAND, RIGHT, "shallow")
    assert (into.end, into.drifted) == (R2, True)
    below = step(RIVER, (1, 1), UP, "shallow")  # land below R1: not linked by the flow
    assert (below.end, below.drifted) == (R2, True)


def test_stepping_straight_into_the_mouth_does_not_drift():
    result = step(RIVER, (1, 3), UP, "deep")
    assert (result.end, result.drifted) == (U, False)


def test_an_open_exit_leaves_and_a_closed_one_is_a_wall():
    assert step(RIVER, (1, 0), LEFT, "deep").kind is StepKind.EXIT
    assert step(SMALL_CLASSIC, (3, 3), DOWN, "deep").kind is StepKind.WALL
    assert step(SMALL_CLASSIC, (3, 3), DOWN, "deep").side is Side.CLOSED_EXIT


def test_moves_from_lists_every_move_and_its_end():
    assert dict(moves_from(RIVER, R1, "classic")) == {
        "UP": R2,
        "LEFT": LAND,
        "DOWN": (1, 1),
        "RIGHT": U,
        "downstream": R2,
    }
    assert dict(moves_from(RIVER, U, "quantum")) == {"UP": U, "DOWN": (1, 3), "RIGHT": U}
    h1, h2, _ = SMALL_HOLES
    assert ("cycle", h2) in moves_from(SMALL_CLASSIC, h1)


def test_reachability_sources_and_shallow_rivers():
    assert R1 not in reachable_from(RIVER, LAND, "classic")  # a deep source: nobody stands on it
    assert R1 in reachable_from(RIVER, LAND, "quantum")  # shallow: from R2 up the flow
    assert unreachable(RIVER, "classic", exempt=frozenset({R1})) == {}
    assert set(unreachable(RIVER, "classic")) == {R1}
    lone = parse_paper_map("map 2 3\n _ _ _\n|С Р>Уo\n\n|С С Сo\n _ _ _\n")  # a source next to its mouth
    assert set(unreachable(lone, "quantum")) == {(0, 1)}  # entering drifts; from the mouth: refused
    assert set(unreachable(lone, "classic")) == {(0, 1)}  # deep: a source, exempt in the validator


def test_a_fully_walled_cell_reaches_nothing():
    walled = replace(
        RIVER,
        walls=frozenset(
            {frozenset(((1, 1), (1, 0))), frozenset(((1, 1), (1, 2))), frozenset(((1, 1), (0, 1)))}
        ),
    )
    assert reachable_from(walled, (1, 1), "classic") == {(1, 1)}
    assert unreachable(walled, "classic", exempt=frozenset({R1}))[(1, 1)] == (
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 0),
        (1, 2),
        (1, 3),
    )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(3, 7),
    cols=st.integers(3, 7),
    variant=st.sampled_from(["classic", "quantum"]),
)
def test_moves_end_on_the_outline_and_never_on_a_deep_source(seed, rows, cols, variant):
    m = generate_paper_map(random.Random(seed), rows, cols, 3, variant)
    mode = "deep" if variant == "classic" else "shallow"
    for pos in m.cells:
        for name, end in moves_from(m, pos, variant):
            assert end in m.cells
            if mode == "deep":
                assert end not in sources(m), (pos, name)
        for d in Direction:
            result = step(m, pos, d, mode)
            assert result.hole == (result.entered is not None and m.cells[result.entered] is CellType.HOLE)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    walls=st.floats(0, 0.9),
    variant=st.sampled_from(["classic", "quantum"]),
)
def test_unreachable_agrees_with_a_search_from_every_cell(seed, walls, variant):
    """The validator's shortcut (one search forward and one backward) finds exactly what searching
    from every cell finds, on generated maps with random extra walls."""
    rnd = random.Random(seed)
    m = generate_paper_map(rnd, rnd.randint(3, 6), rnd.randint(3, 6), 3, variant)
    extra = {
        frozenset((p, q))
        for p in m.cells
        for q in ((p[0] + 1, p[1]), (p[0], p[1] + 1))
        if q in m.cells and rnd.random() < walls
    }
    m = replace(m, walls=m.walls | extra)
    exempt = frozenset(sources(m)) if variant == "classic" else frozenset()
    reach = {p: reachable_from(m, p, variant) for p in m.cells}
    expected = {
        t: tuple(sorted(p for p in m.cells if t not in reach[p]))
        for t in m.cells
        if t not in exempt and any(t not in reach[p] for p in m.cells)
    }
    assert unreachable(m, variant, exempt=exempt) == expected
