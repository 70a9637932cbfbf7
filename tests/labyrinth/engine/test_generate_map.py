"""generate_map: seeded, real mazes, every special kind at the designer's rates, always passes check."""
from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from labyrinth.engine import (
    DIRECTIONS,
    Armory,
    Exit,
    GeneratorSettings,
    Key,
    LabyrinthMap,
    RubberRoom,
    Sleep,
    Stun,
    Teleport,
    format_map,
    generate_map,
    has_wall,
    neighbour,
    neighbours,
    unreachable_cells,
)

RICH = GeneratorSettings(stun_rate=0.15, rubber_room_rate=0.15, teleport_rate=0.15, armory_rate=0.1,
                         sleep_rate=0.1, exits=2, keys=1, dream_fields=2, dream_rows=8, dream_cols=8)


def inner_passages(m: LabyrinthMap, f: int = 0) -> int:
    return sum(1 for cell in m.cells(f) for d in DIRECTIONS
               if neighbour(m, cell, d) is not None and not has_wall(m, cell, d)) // 2


def kinds(m: LabyrinthMap) -> Counter[type]:
    return Counter(type(special) for _, special in m.specials())


settings_ = st.builds(
    GeneratorSettings,
    stun_rate=st.sampled_from([0.0, 0.1, 0.2]), rubber_room_rate=st.sampled_from([0.0, 0.2, 0.3]),
    teleport_rate=st.sampled_from([0.0, 0.2, 0.3]), armory_rate=st.sampled_from([0.0, 0.05]),
    sleep_rate=st.sampled_from([0.0, 0.1]), loop_rate=st.sampled_from([0.0, 0.05, 0.5]),
    exits=st.integers(1, 3), keys=st.integers(0, 2), dream_fields=st.integers(0, 2))


@settings(max_examples=150)
@given(st.integers(2, 25), st.integers(2, 25), st.integers(0, 2**32), settings_)
def test_generated_maps_always_pass_check(rows: int, cols: int, seed: int, knobs: GeneratorSettings):
    assume(knobs.exits + knobs.keys <= rows * cols)
    m = generate_map(rows, cols, Random(seed), knobs)
    assert (m.fields[0].rows, m.fields[0].cols) == (rows, cols)
    assert unreachable_cells(m) == []


@pytest.mark.parametrize("size", [(3, 3), (2, 50), (50, 50), (80, 120)])
def test_large_and_thin_rich_maps_pass_check(size: tuple[int, int]):
    for seed in range(3):
        m = generate_map(*size, Random(seed), RICH)
        assert unreachable_cells(m) == []


@given(st.integers(2, 20), st.integers(2, 20), st.integers(0, 2**32))
def test_same_seed_same_map(rows: int, cols: int, seed: int):
    assert generate_map(rows, cols, Random(seed), RICH) == generate_map(rows, cols, Random(seed), RICH)


def test_different_seeds_give_different_maps():
    maps = {generate_map(10, 10, Random(seed)) for seed in range(10)}
    assert len(maps) == 10


@given(st.integers(2, 20), st.integers(2, 20), st.integers(0, 2**32))
def test_without_loops_the_maze_is_perfect(rows: int, cols: int, seed: int):
    m = generate_map(rows, cols, Random(seed), GeneratorSettings(loop_rate=0.0))
    # connected (a search over open passages reaches every cell) with exactly cells - 1 passages: a tree
    seen = {(0, 0, 0)}
    todo = [(0, 0, 0)]
    while todo:
        for _, n in neighbours(m, todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == rows * cols
    assert inner_passages(m) == rows * cols - 1


def test_default_maps_are_mazes_not_open_rooms():
    m = generate_map(30, 30, Random(3))
    all_inner = 2 * 30 * 29
    assert 899 <= inner_passages(m) < 899 + 0.15 * (all_inner - 899)


def test_every_kind_of_special_appears_at_rich_rates():
    m = generate_map(30, 30, Random(5), RICH)
    found = kinds(m)
    for kind in (Stun, RubberRoom, Teleport, Armory, Sleep, Key, Exit):
        assert found[kind] > 0, kind
    assert found[Key] == 1
    assert sum(1 for cell, s in m.specials() if isinstance(s, Exit) and cell[0] == 0) == 2
    assert len(m.fields) == 3
    # sleep cells lead from each field to the next one only
    links = {(cell[0], s.destination[0]) for cell, s in m.specials() if isinstance(s, Sleep)}
    assert links == {(0, 1), (1, 2)}


def test_a_zero_rate_places_none_of_that_kind():
    quiet = GeneratorSettings(stun_rate=0.0, rubber_room_rate=0.0, teleport_rate=0.0, armory_rate=0.0,
                              sleep_rate=0.0, keys=0)
    m = generate_map(20, 20, Random(1), quiet)
    assert set(kinds(m)) == {Exit} and len(m.fields) == 1


def test_rates_are_followed_roughly_for_kinds_without_constraints():
    m = generate_map(100, 100, Random(2), GeneratorSettings(stun_rate=0.1, armory_rate=0.05, sleep_rate=0.0))
    found = kinds(m)
    assert 800 < found[Stun] < 1200 and 350 < found[Armory] < 650
    assert all(1 <= s.turns <= 3 for _, s in m.specials() if isinstance(s, Stun))


def test_exits_open_outer_sides_and_teleports_stay_on_their_field():
    m = generate_map(12, 7, Random(4), RICH)
    for (f, r, c), s in m.specials():
        if isinstance(s, Exit):
            assert neighbour(m, (f, r, c), s.direction) is None
        if isinstance(s, Teleport):
            assert m.fields[f].contains(*s.destination)


@pytest.mark.parametrize(("rows", "cols", "knobs", "words"), [
    (1, 5, GeneratorSettings(), "at least 2 rows and 2 columns"),
    (5, 5, GeneratorSettings(stun_rate=0.6, armory_rate=0.6), "add up to 1.260"),
    (5, 5, GeneratorSettings(teleport_rate=-0.1), "teleport_rate must be between 0 and 1"),
    (5, 5, GeneratorSettings(exits=0), "at least one exit"),
    (2, 2, GeneratorSettings(exits=5), "do not fit"),
    (5, 5, GeneratorSettings(stun_min=3, stun_max=2), "stun turns need"),
])
def test_bad_settings_are_refused(rows: int, cols: int, knobs: GeneratorSettings, words: str):
    with pytest.raises(ValueError, match=words):
        generate_map(rows, cols, Random(1), knobs)


PINNED_5X5_SEED_7 = """5 5
E S A A|.
. _ . . .
A . T|.|A
. _ _ . .
.|. . .|B
_ . _ _ .
R|.|. . K
. . _ . .
A . . A|.
E Exit(LEFT)
S Stun(1)
A Armory()
T Teleport((0, 2))
B Stun(2)
R RubberRoom(DOWN)
K Key()
"""


def test_a_pinned_seed_keeps_its_map():
    """Generator version 1: a change here breaks every stored seed (bump GENERATOR_VERSION)."""
    knobs = GeneratorSettings(stun_rate=0.15, rubber_room_rate=0.15, teleport_rate=0.15, armory_rate=0.1,
                              dream_fields=0)
    assert format_map(generate_map(5, 5, Random(7), knobs)) == PINNED_5X5_SEED_7
