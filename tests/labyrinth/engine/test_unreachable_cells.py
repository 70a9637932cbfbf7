"""unreachable_cells: seed 003's `check`, known answers and an independent forward search."""
from __future__ import annotations

from collections import deque

from hypothesis import given

from labyrinth.engine import (
    DIRECTIONS,
    Cell,
    Key,
    LabyrinthMap,
    StepOutcome,
    format_map,
    parse_map,
    step,
    unreachable_cells,
)
from tests.labyrinth.engine.strategies import maps


def can_leave(m: LabyrinthMap, start: Cell) -> bool:
    """Forward search over (cell, holds key) from one start, by `step` alone."""
    need_key = any(isinstance(s, Key) for _, s in m.specials())
    first = (start, isinstance(m.special(start), Key))
    seen = {first}
    queue = deque([first])
    while queue:
        cell, key = queue.popleft()
        for d in DIRECTIONS:
            result = step(m, cell, d)
            if result.outcome is StepOutcome.EXITED:
                if key or not need_key:
                    return True
                continue
            state = (result.cell, key or isinstance(m.special(result.cell), Key))
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return False


def test_an_open_map_with_an_exit_passes():
    assert unreachable_cells(parse_map("2 2\n. E\n. .\n. .\nE Exit(UP)\n")) == []


def test_a_map_without_an_exit_fails_everywhere():
    assert unreachable_cells(parse_map("1 2\n. .\n")) == [(0, 0, 0), (0, 0, 1)]


def test_walls_cut_off_a_corner():
    m = parse_map("2 2\n.|E\n_ .\n.|.\nE Exit(RIGHT)\n")
    assert unreachable_cells(m) == [(0, 0, 0), (0, 1, 0)]


def test_a_rubber_room_facing_back_traps_everything_behind_it():
    m = parse_map("1 3\n. R E\nR RubberRoom(LEFT)\nE Exit(RIGHT)\n")
    assert unreachable_cells(m) == [(0, 0, 0), (0, 0, 1)]


def test_a_rubber_room_facing_the_way_out_lets_everyone_through():
    assert unreachable_cells(parse_map("1 3\n. R E\nR RubberRoom(RIGHT)\nE Exit(RIGHT)\n")) == []


def test_a_rubber_room_into_an_outer_side_is_a_trap_for_whoever_enters():
    m = parse_map("2 2\nR E\n. .\n. .\nR RubberRoom(UP)\nE Exit(RIGHT)\n")
    assert unreachable_cells(m) == [(0, 0, 0)]


def test_a_teleport_back_to_the_start_traps_the_start():
    m = parse_map("1 3\n. T E\nT Teleport((0, 0))\nE Exit(RIGHT)\n")
    # from (0, 0, 0) every way out enters T; standing on T itself it does not fire
    assert unreachable_cells(m) == [(0, 0, 0)]


def test_teleports_do_not_chain():
    m = parse_map("1 5\n. X . Y E\nX Teleport((0, 3))\nY Teleport((0, 0))\nE Exit(RIGHT)\n")
    # X lands on Y without firing it; with chains, (0, 0, 0) would be sent back to itself
    assert unreachable_cells(m) == []


def test_a_teleport_can_be_the_only_way_across_a_wall():
    m = parse_map("1 3\nT|. E\nT Teleport((0, 1))\nE Exit(RIGHT)\n")
    assert unreachable_cells(m) == [(0, 0, 0)]
    # standing on T, one steps off and back on to fire it
    m = parse_map("1 4\n. T|. E\nT Teleport((0, 2))\nE Exit(RIGHT)\n")
    assert unreachable_cells(m) == []


def test_the_key_must_be_reached_before_the_exit():
    assert unreachable_cells(parse_map("1 3\nK . E\nK Key()\nE Exit(RIGHT)\n")) == []
    walled = parse_map("1 3\nK|. E\nK Key()\nE Exit(RIGHT)\n")
    assert unreachable_cells(walled) == [(0, 0, 0), (0, 0, 1), (0, 0, 2)]


def test_a_key_reached_only_by_teleport_counts():
    # K is walled off but for the rubber room below it, which lets nobody back up
    m = parse_map("2 3\nK|. T\n. _ .\nR . E\nK Key()\nT Teleport((0, 0))\nR RubberRoom(RIGHT)\n"
                  "E Exit(RIGHT)\n")
    assert unreachable_cells(m) == []
    assert unreachable_cells(parse_map(format_map(m).replace("Teleport((0, 0))", "Teleport((0, 1))"))) == [
        (0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 1), (0, 1, 2)]


def test_a_key_only_in_a_dream_cannot_open_the_exit():
    m = parse_map("2\n1 2\nZ E\n1 1\nK\nE Exit(RIGHT)\nZ Sleep(1, (1, 0, 0))\nK Key()\n")
    assert unreachable_cells(m) == [(0, 0, 0), (0, 0, 1)]


def test_sleep_stun_and_armory_cells_are_passable():
    m = parse_map("2\n1 4\nZ S A E\n1 1\n.\nE Exit(RIGHT)\nZ Sleep(3, (1, 0, 0))\nS Stun(2)\nA Armory()\n")
    assert unreachable_cells(m) == []


def test_the_answer_is_sorted_and_covers_field_0_only():
    m = parse_map("2\n2 2\n.|Z\n_ _\n.|E\n2 2\n. .\n. .\n. .\nE Exit(DOWN)\nZ Sleep(1, (1, 0, 0))\n")
    assert unreachable_cells(m) == [(0, 0, 0), (0, 0, 1), (0, 1, 0)]


@given(maps(max_side=5, max_fields=2))
def test_agrees_with_a_forward_search_from_every_cell(m: LabyrinthMap):
    expected = [cell for cell in m.cells(0) if not can_leave(m, cell)]
    assert unreachable_cells(m) == expected
