"""Hypothesis strategies for valid labyrinth maps (every kind of special, several fields)."""
from __future__ import annotations

from random import Random

from hypothesis import strategies as st

from labyrinth.engine import (
    DIRECTIONS,
    Armory,
    Exit,
    Field,
    Key,
    LabyrinthMap,
    RubberRoom,
    Sleep,
    Special,
    Stun,
    Teleport,
)


def random_field(rnd: Random, index: int, sizes: list[tuple[int, int]], special_rate: float) -> Field:
    rows, cols = sizes[index]
    right = tuple(tuple(rnd.random() < 0.4 for _ in range(cols - 1)) for _ in range(rows))
    down = tuple(tuple(rnd.random() < 0.4 for _ in range(cols)) for _ in range(rows - 1))
    cells: list[tuple[Special | None, ...]] = []
    for r in range(rows):
        line: list[Special | None] = []
        for c in range(cols):
            if rnd.random() >= special_rate:
                line.append(None)
                continue
            outward = [d for d in DIRECTIONS
                       if not (0 <= r + d.delta[0] < rows and 0 <= c + d.delta[1] < cols)]
            options: list[Special] = [Stun(rnd.randint(1, 4)), RubberRoom(rnd.choice(DIRECTIONS)),
                                      Teleport((rnd.randrange(rows), rnd.randrange(cols))), Armory(), Key()]
            if outward:
                options += [Exit(rnd.choice(outward))] * 2
            if index + 1 < len(sizes):
                f = rnd.randrange(index + 1, len(sizes))
                target = (f, rnd.randrange(sizes[f][0]), rnd.randrange(sizes[f][1]))
                options.append(Sleep(rnd.randint(1, 5), target))
            line.append(rnd.choice(options))
        cells.append(tuple(line))
    return Field(rows, cols, right, down, tuple(cells))


@st.composite
def maps(draw: st.DrawFn, max_side: int = 6, max_fields: int = 3) -> LabyrinthMap:
    """Valid maps: sleep cells lead only to later fields, so sleep links never cycle nor reach field 0."""
    count = draw(st.integers(1, max_fields))
    sizes = [(draw(st.integers(1, max_side)), draw(st.integers(1, max_side))) for _ in range(count)]
    rate = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    rnd = draw(st.randoms(use_true_random=False))
    return LabyrinthMap(tuple(random_field(rnd, i, sizes, rate) for i in range(count)))
