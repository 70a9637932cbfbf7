"""One implementation of C§2.2 and C§4.4-4.6: the rules engine moves players with ``movement.step``
on the live board (grenades change walls and exits), the validator and the generator with the same
function on the static map. This guards that contract: for every cell and direction of generated
maps a move ends where ``step`` says, on the map as drawn and on a board whose inner walls are all
blown, so the validator's reachability is the reachability players actually have."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import DIRECTIONS
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.movement import StepKind, step
from paper_labyrinth.engine.requests import Move, Options, Turn
from paper_labyrinth.engine.rules import apply, new_game
from tests.paper_labyrinth.engine.rules_boards import answered


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rows=st.integers(3, 6), cols=st.integers(3, 6),
       variant=st.sampled_from(["classic", "quantum"]), river_mode=st.sampled_from(["deep", "shallow"]))
def test_a_move_ends_where_the_validators_step_says(seed, rows, cols, variant, river_mode):
    m = generate_paper_map(random.Random(seed), rows, cols, 2, variant, river_mode=river_mode)
    options = Options.for_variant(variant, river_mode=river_mode)
    cells = sorted(m.cells)
    checked = 0
    for blown in (False, True):
        for pos in cells:
            other = cells[0] if pos != cells[0] else cells[-1]
            for direction in DIRECTIONS:
                state = new_game(m, options, players=2, starts=[pos, other], rng=random.Random(0))
                if blown:
                    state.walls.clear()
                after, _ = answered(apply(state, 0, Turn(steps=(Move(direction),)), random.Random(0)))
                mover = after.players[0]
                expected = step(m, pos, direction, river_mode, state.walls, state.outer)
                if expected.kind is StepKind.EXIT:
                    assert mover.outside is direction, (pos, direction)
                else:
                    assert mover.outside is None and mover.pos == expected.end, (pos, direction, expected)
                checked += 1
    assert checked == 2 * 4 * len(cells)
