"""One step (SPEC 9.1): walls, rubber rooms, teleports without chains, exits; wall edits."""
from __future__ import annotations

import pytest
from hypothesis import given

from labyrinth.engine import (
    DIRECTIONS,
    Direction,
    Field,
    LabyrinthMap,
    StepOutcome,
    StepResult,
    has_wall,
    neighbour,
    neighbours,
    open_directions,
    parse_map,
    step,
    with_special,
    with_wall,
)
from tests.labyrinth.engine.strategies import maps

UP, LEFT, DOWN, RIGHT = Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT

MAP = parse_map("""2 4
.|R T E
. _ . .
. . U .
R RubberRoom(DOWN)
T Teleport((1, 3))
U Teleport((0, 0))
E Exit(RIGHT)
""")


def test_a_step_crosses_to_the_neighbour_when_no_wall_is_there():
    assert step(MAP, (0, 0, 0), DOWN) == StepResult(StepOutcome.MOVED, (0, 1, 0), (0, 1, 0))


def test_a_wall_or_an_outer_side_stops_the_step():
    assert step(MAP, (0, 0, 0), RIGHT) == StepResult(StepOutcome.WALL, (0, 0, 0))
    assert step(MAP, (0, 0, 0), UP) == StepResult(StepOutcome.WALL, (0, 0, 0))
    assert step(MAP, (0, 1, 1), UP) == StepResult(StepOutcome.WALL, (0, 1, 1))


def test_a_rubber_room_keeps_the_player_unless_they_go_its_way():
    for d in (UP, LEFT, RIGHT):
        assert step(MAP, (0, 0, 1), d) == StepResult(StepOutcome.RUBBER, (0, 0, 1))
    # its own direction is a wall here: the wall stops the player
    assert step(MAP, (0, 0, 1), DOWN).outcome is StepOutcome.WALL


def test_entering_a_rubber_room_is_an_ordinary_move():
    assert step(MAP, (0, 0, 2), LEFT) == StepResult(StepOutcome.MOVED, (0, 0, 1), (0, 0, 1))


def test_entering_a_teleport_lands_on_its_destination_which_does_not_fire():
    # (0, 0, 3) -> T at (0, 0, 2) -> (0, 1, 3); U at (0, 1, 2) lands on (0, 0, 0)
    assert step(MAP, (0, 0, 3), LEFT) == StepResult(StepOutcome.TELEPORTED, (0, 1, 3), (0, 0, 2))
    assert step(MAP, (0, 1, 1), RIGHT) == StepResult(StepOutcome.TELEPORTED, (0, 0, 0), (0, 1, 2))


def test_no_chains_a_teleport_landed_on_by_teleport_does_not_fire():
    chain = parse_map("1 3\nT . U\nT Teleport((0, 2))\nU Teleport((0, 0))\n")
    assert step(chain, (0, 0, 1), LEFT) == StepResult(StepOutcome.TELEPORTED, (0, 0, 2), (0, 0, 0))


def test_standing_on_a_teleport_and_stepping_off_it_is_a_move():
    # (0, 1, 2) is the teleport U: entering it fires
    assert step(MAP, (0, 0, 2), DOWN) == StepResult(StepOutcome.TELEPORTED, (0, 0, 0), (0, 1, 2))
    assert step(MAP, (0, 0, 2), RIGHT) == StepResult(StepOutcome.MOVED, (0, 0, 3), (0, 0, 3))


def test_leaving_an_exit_in_its_direction_leaves_and_other_ways_do_not():
    assert step(MAP, (0, 0, 3), RIGHT) == StepResult(StepOutcome.EXITED, (0, 0, 3))
    assert step(MAP, (0, 0, 3), UP) == StepResult(StepOutcome.WALL, (0, 0, 3))
    assert open_directions(MAP, (0, 0, 3)) == (LEFT, DOWN, RIGHT)


def test_neighbours_and_open_directions_follow_the_walls():
    assert neighbours(MAP, (0, 1, 1)) == ((LEFT, (0, 1, 0)), (RIGHT, (0, 1, 2)))
    assert open_directions(MAP, (0, 0, 0)) == (DOWN,)
    assert neighbour(MAP, (0, 0, 0), UP) is None


@given(maps(max_fields=2))
def test_walls_belong_to_both_cells(m: LabyrinthMap):
    for f in range(len(m.fields)):
        for cell in m.cells(f):
            for d in DIRECTIONS:
                n = neighbour(m, cell, d)
                if n is None:
                    assert has_wall(m, cell, d)
                else:
                    assert has_wall(m, cell, d) == has_wall(m, n, d.opposite)


def test_with_wall_builds_and_destroys_inner_walls_on_both_sides():
    built = with_wall(MAP, (0, 1, 1), UP, True)
    assert built == MAP  # already there
    destroyed = with_wall(MAP, (0, 1, 1), UP, False)
    assert not has_wall(destroyed, (0, 0, 1), DOWN) and not has_wall(destroyed, (0, 1, 1), UP)
    assert with_wall(destroyed, (0, 0, 1), DOWN, True) == MAP
    assert has_wall(with_wall(MAP, (0, 1, 0), RIGHT, True), (0, 1, 1), LEFT)
    with pytest.raises(ValueError, match="outer side"):
        with_wall(MAP, (0, 0, 0), UP, False)


def test_with_special_replaces_one_cell():
    emptied = with_special(MAP, (0, 0, 2), None)
    assert emptied.special((0, 0, 2)) is None
    assert step(emptied, (0, 0, 3), LEFT).outcome is StepOutcome.MOVED
    assert len(emptied.specials()) == len(MAP.specials()) - 1


def test_wasd_keys_in_any_case():
    assert [Direction.from_wasd(k) for k in "wAsD"] == [UP, LEFT, DOWN, RIGHT]
    with pytest.raises(ValueError):
        Direction.from_wasd("x")


def test_fields_refuse_wrong_shapes():
    with pytest.raises(ValueError):
        Field(2, 2, ((False,),), ((False, False),), ((None, None), (None, None)))
    with pytest.raises(ValueError):
        LabyrinthMap(())
