"""parse_map(format_map(m)) == m for every valid map, and texts with the seed's own spellings."""
from __future__ import annotations

from dataclasses import replace
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from labyrinth.engine import Field, LabyrinthMap, Stun, Teleport, format_map, generate_map, parse_map
from tests.labyrinth.engine.strategies import maps


@given(maps())
def test_any_valid_map_round_trips(m: LabyrinthMap):
    assert parse_map(format_map(m)) == m


@given(maps(max_fields=1))
def test_formatting_is_stable(m: LabyrinthMap):
    text = format_map(m)
    assert format_map(parse_map(text)) == text


@given(st.integers(2, 30), st.integers(2, 30), st.integers(0, 2**32))
def test_generated_maps_round_trip(rows: int, cols: int, seed: int):
    m = generate_map(rows, cols, Random(seed))
    assert parse_map(format_map(m)) == m


@given(maps(max_fields=1), st.data())
def test_spaces_or_dots_under_cells_and_trailing_spaces_read_the_same(m: LabyrinthMap, data: st.DataObject):
    lines = format_map(m).split("\n")
    rows = m.fields[0].rows
    respelt = []
    for number, line in enumerate(lines):
        if 2 <= number < 2 * rows and number % 2 == 0:  # a wall line of the only field
            line = "".join(" " if ch == "." and data.draw(st.booleans()) else ch for ch in line)
        respelt.append(line + " " * data.draw(st.integers(0, 2)))
    assert parse_map("\n".join(respelt)) == m


def test_more_distinct_specials_than_ascii_letters_still_round_trip():
    cells = tuple(tuple(Teleport((r, c)) if (r + c) % 2 else Stun(1 + c) for c in range(30))
                  for r in range(30))
    m = LabyrinthMap((replace(Field.open(30, 30), cells=cells),))
    text = format_map(m)
    assert len(text.split("\n")[-2]) > 0 and any(ord(ch) > 127 for ch in text)
    assert parse_map(text) == m


@given(maps(max_fields=2), st.data())
def test_any_characters_may_name_the_specials(m: LabyrinthMap, data: st.DataObject):
    lines = format_map(m).rstrip("\n").split("\n")
    at = 1 if len(m.fields) > 1 else 0
    rows = []  # indexes of the row lines
    for fld in m.fields:
        at += 1  # the field's size line
        rows += [at + 2 * r for r in range(fld.rows)]
        at += 2 * fld.rows - 1
    letters = [line[0] for line in lines[at:]]
    chars = st.characters(exclude_categories=["Zs", "Zl", "Zp", "Cc", "Cs", "Co", "Cn"],
                          exclude_characters=".")
    renamed = dict(zip(letters, data.draw(st.lists(chars, min_size=len(letters), max_size=len(letters),
                                                     unique=True))))
    for index in rows:
        lines[index] = "".join(renamed.get(ch, ch) if i % 2 == 0 else ch for i, ch in enumerate(lines[index]))
    for index in range(at, len(lines)):
        lines[index] = renamed[lines[index][0]] + lines[index][1:]
    assert parse_map("\n".join(lines)) == m
