"""The rules engine moves players on the live board (grenades change walls), the map part's
``movement.step`` on the static map (for the validator and the generator). Both implement C§2.2 and
C§4.4-4.6; this pins them to the same answer for every cell and direction of generated maps, so the
validator's reachability is the reachability players actually have."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import DIRECTIONS
from labyrinth.engine.paper.generator import generate_paper_map
from labyrinth.engine.paper.movement import StepKind, step
from labyrinth.engine.paper.requests import Move, Options, Turn
from labyrinth.engine.paper.rules import apply, new_game


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rows=st.integers(3, 6), cols=st.integers(3, 6),
       variant=st.sampled_from(["classic", "quantum"]), river_mode=st.sampled_from(["deep", "shallow"]))
def test_a_move_ends_where_the_validators_step_says(seed, rows, cols, variant, river_mode):
    m = generate_paper_map(random.Random(seed), rows, cols, 2, variant, river_mode=river_mode)
    options = Options.for_variant(variant, river_mode=river_mode)
    cells = sorted(m.cells)
    checked = 0
    for pos in cells:
        other = cells[0] if pos != cells[0] else cells[-1]
        for direction in DIRECTIONS:
            state = new_game(m, options, players=2, starts=[pos, other], rng=random.Random(0))
            after, _ = apply(state, 0, Turn(steps=(Move(direction),)), random.Random(0))
            mover = after.players[0]
            expected = step(m, pos, direction, river_mode)
            if expected.kind is StepKind.EXIT:
                assert mover.outside is direction, (pos, direction)
            else:
                assert mover.outside is None and mover.pos == expected.end, (pos, direction, expected)
            checked += 1
    assert checked == 4 * len(cells)
