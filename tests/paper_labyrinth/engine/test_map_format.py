"""The designers' text format: a lossless round trip, look-alike letters, and every refusal naming
its line and problem."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine import (
    CellType,
    Outer,
    PaperMap,
    PaperMapFormatError,
    format_paper_map,
    generate_paper_map,
    parse_paper_map,
    step_pos,
)
from paper_labyrinth.engine.examples import CUT_CORNERS, EXAMPLES, SMALL_CLASSIC, SMALL_CLASSIC_TEXT

GOOD = "map 1 2\n _ _\n|С А|\n o x\n"


def refusal(text: str) -> PaperMapFormatError:
    with pytest.raises(PaperMapFormatError) as refused:
        parse_paper_map(text)
    assert str(refused.value) == f"line {refused.value.line}: {refused.value.problem}"
    return refused.value


def test_the_small_example_reads_as_drawn():
    m = SMALL_CLASSIC
    assert (m.rows, m.cols, len(m.cells)) == (4, 5, 20)
    assert m.cells[(0, 0)] is CellType.RIVER and m.cells[(0, 2)] is CellType.MOUTH
    assert m.cells[(0, 4)] is CellType.ENCEPHALITIS and m.cells[(1, 2)] is CellType.ARSENAL
    assert m.flow == {(0, 0): (0, 1), (0, 1): (0, 2)}
    assert m.walls == {
        frozenset(pair) for pair in (((1, 1), (2, 1)), ((2, 2), (2, 3)), ((2, 3), (3, 3)), ((3, 0), (3, 1)))
    }
    assert m.outer == {((2, 0), Direction.LEFT): Outer.OPEN_EXIT, ((3, 3), Direction.DOWN): Outer.CLOSED_EXIT}
    assert m.holes == (((1, 0), (2, 4), (3, 0)),)
    assert m.treasures == {(1, 3): (False,), (2, 2): (True,)}
    assert (m.bullets, m.grenades, m.mines) == ({(1, 1): 2}, {(3, 1): 1}, {(2, 3): 1})


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_round_trip(name):
    m = EXAMPLES[name]
    text = format_paper_map(m)
    assert parse_paper_map(text) == m
    assert format_paper_map(parse_paper_map(text)) == text


def test_cut_corners_are_outside_the_outline():
    assert len(CUT_CORNERS.cells) == 21
    assert all(corner not in CUT_CORNERS.cells for corner in ((0, 0), (0, 4), (4, 0), (4, 4)))


def test_latin_look_alikes_lower_case_comments_and_crlf_read_the_same():
    latin = (
        SMALL_CLASSIC_TEXT.replace("С", "C")
        .replace("А", "a")
        .replace("Р", "P")
        .replace("У", "y")
        .replace("М", "M")
    )
    assert parse_paper_map(latin) == SMALL_CLASSIC
    noisy = "\ufeff# a comment\n\n" + SMALL_CLASSIC_TEXT.replace("\n", "\r\n").replace(
        "holes", "# the holes\nholes"
    ).replace("treasure (2,2) true", "TREASURE (2, 2) True  # the true one")
    assert parse_paper_map(noisy) == SMALL_CLASSIC


def test_plus_corners_and_dash_walls():
    assert parse_paper_map("map 1 2\n+-+-+\n|С А|\n+o+x+\n") == parse_paper_map(GOOD)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "no 'map R C' line"),
        ("# only a comment\n", 1, "no 'map R C' line"),
        ("size 2 3\n", 1, "expected 'map R C'"),
        ("map 0 3\n", 1, "rows must be between 1 and 40, not 0"),
        ("map 2 41\n", 1, "columns must be between 1 and 40, not 41"),
        ("map 1 2\n _ _\n", 3, "the text ends where row 0 of the picture was expected"),
        ("map 1 2\n _ _\n|С А|\n", 4, "the side line below row 0 of the picture"),
        ("map 1 2\n _ _\n|С А| x\n o x\n", 3, "row 0 must have at most 2*2+1 = 5 characters"),
        ("map 1 2\n _ _\n|С Q|\n o x\n", 3, "character 4 (cell (0, 1)) must be a cell letter"),
        ("map 1 2\n _ _\n|  А|\n o x\n", 3, "character 2 (cell (0, 0))"),
        ("map 1 2\n . .\n|. .|\n . .\n", 3, "character 1 (the side between (0, -1) and (0, 0)) lies outside"),
        ("map 1 2\n . .\n . . \n . .\n", 3, "the outline has no cell"),
        ("map 1 2\n*_ _\n|С А|\n o x\n", 2, "character 1 is a corner"),
        ("map 1 2\n _ _\n|СoА|\n o x\n", 3, "is an inner side: ' ', '|' or a flow arrow > <, not 'o'"),
        (
            "map 1 2\n _ _\n|С А \n o x\n",
            3,
            "is an outer side of cell (0, 1): '|' (wall), 'o' (open exit) or 'x'",
        ),
        ("map 1 2\n _ _\n|С А|\n o v\n", 4, "an outer side of cell (0, 1): '_' or '-' (wall)"),
        ("map 2 1\n _\n|Р|\n v\n|У|\n ^\n", 6, "an outer side"),
        (
            "map 1 3\n _ _ _\n|Р<Р>У|\n o x _\n",
            3,
            "already flows to (0, 0); branches may merge but not split",
        ),
        ("map 2 2\n _ _\n|Р>Р|\n v v\n|У У|\n o x\n", 4, "already flows to (0, 1)"),
        (GOOD + "holes\n", 5, "a 'holes' line lists the cycle's cells"),
        (GOOD + "holes (0,0) (0,5)\n", 5, "a hole cycle: cell (0, 5) is not on the map's outline"),
        (GOOD + "holes (0,0) 0,1\n", 5, "expected 'holes ...'"),
        (GOOD + "treasure (0,0) maybe\n", 5, "a treasure is 'true' or 'false', not 'maybe'"),
        (GOOD + "treasure (0,0) true\ntreasure (0,0) false\n", 6, "cell (0, 0) has two 'treasure' lines"),
        (GOOD + "treasure (9,9) true\n", 5, "a treasure: cell (9, 9) is not on the map's outline"),
        (GOOD + "treasure 0,0 true\n", 5, "expected 'holes ...'"),
        (GOOD + "bullets (0,0) 2\nbullets (0,0) 1\n", 6, "cell (0, 0) has two 'bullets' lines"),
        (GOOD + "bullets (0,0) -1\n", 5, "expected 'holes ...'"),
        (GOOD + "grenades (0,x) 1\n", 5, "bad cell '(0,x)' for grenades"),
        (GOOD + "torches (0,0) 1\n", 5, "expected 'holes ...', 'treasure (r,c) true|false ...'"),
    ],
)
def test_refusals_name_the_line_and_the_problem(text, line, words):
    refused = refusal(text)
    assert refused.line == line
    assert words in refused.problem


def test_the_error_pickles():
    refused = refusal("map 0 1\n")
    assert pickle.loads(pickle.dumps(refused)).problem == refused.problem


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"walls": frozenset({frozenset(((0, 0), (2, 2)))})}, "is not between two neighbouring cells"),
        ({"flow": {(0, 0): (2, 2)}}, "is not between two neighbouring cells"),
        ({"walls": SMALL_CLASSIC.walls | {frozenset(((0, 0), (0, 1)))}}, "crosses a wall"),
        ({"flow": {(0, 0): (0, 1), (0, 1): (0, 0)}}, "goes both ways"),
        ({"outer": {((1, 1), Direction.UP): Outer.OPEN_EXIT}}, "is not an outer side"),
        ({"outer": {((0, 0), Direction.UP): Outer.WALL}}, "leave plain outer walls out"),
        ({"cells": {**SMALL_CLASSIC.cells, (4, 0): CellType.LAND}}, "outside the 4x5 bounding box"),
        ({"bullets": {(0, 0): -1}}, "a negative count"),
        ({"mines": {(9, 9): 1}}, "not on the outline"),
        ({"cells": {}}, "no cell"),
    ],
)
def test_maps_the_format_cannot_express_are_refused(change, words):
    with pytest.raises(ValueError, match=words):
        format_paper_map(replace(SMALL_CLASSIC, **change))


@st.composite
def any_maps(draw: st.DrawFn) -> PaperMap:
    """Structurally expressible maps, not necessarily valid ones (any types, walls, exits, flows, items)."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = {
        (r, c): rnd.choice(list(CellType)) for r in range(rows) for c in range(cols) if rnd.random() < 0.85
    }
    if not cells:
        cells = {(0, 0): CellType.LAND}
    pairs = [
        (p, step_pos(p, d))
        for p in cells
        for d in (Direction.RIGHT, Direction.DOWN)
        if step_pos(p, d) in cells
    ]
    flow: dict = {}
    walls = set()
    for a, b in pairs:
        roll = rnd.random()
        if roll < 0.3:
            walls.add(frozenset((a, b)))
        elif roll < 0.45 and a not in flow:
            flow[a] = b
        elif roll < 0.6 and b not in flow:
            flow[b] = a
    outer = {
        (p, d): rnd.choice([Outer.OPEN_EXIT, Outer.CLOSED_EXIT])
        for p in cells
        for d in DIRECTIONS
        if step_pos(p, d) not in cells and rnd.random() < 0.2
    }
    spots = sorted(cells)
    holes = tuple(
        tuple(rnd.sample(spots, min(len(spots), rnd.randint(1, 3)))) for _ in range(rnd.randint(0, 2))
    )
    treasures = {
        p: tuple(rnd.random() < 0.5 for _ in range(rnd.randint(0, 3)))
        for p in rnd.sample(spots, min(2, len(spots)))
    }
    counts = [{p: rnd.randint(0, 3) for p in rnd.sample(spots, min(2, len(spots)))} for _ in range(3)]
    return PaperMap(rows, cols, cells, frozenset(walls), outer, holes, flow, treasures, *counts)


@settings(max_examples=150)
@given(any_maps())
def test_round_trip_of_any_expressible_map(m):
    assert parse_paper_map(format_paper_map(m)) == m


@settings(max_examples=30)
@given(st.integers(0, 10**6), st.integers(3, 8), st.integers(3, 8), st.sampled_from(["classic", "quantum"]))
def test_round_trip_of_generated_maps(seed, rows, cols, variant):
    m = generate_paper_map(random.Random(seed), rows, cols, 3, variant)
    assert parse_paper_map(format_paper_map(m)) == m
