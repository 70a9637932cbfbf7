"""Seed 003's `check`: the field-0 cells from which no sequence of steps leaves the labyrinth."""
from __future__ import annotations

from collections import deque

from labyrinth.engine.grid import DIRECTIONS, Cell, Direction, Exit, Key, LabyrinthMap, RubberRoom, Teleport


def unreachable_cells(m: LabyrinthMap) -> list[Cell]:
    """Sorted field-0 cells from which the player cannot leave through an exit.

    A state is (cell, holds the key). Moves follow `step` exactly (walls, rubber rooms, teleports
    without chains, exits in their direction); standing on a Key cell, arriving by teleport
    included, means holding the key. With a Key anywhere on the map, an exit lets only a player
    holding a key out, and only keys of field 0 count: whatever is picked up in a dream is given
    back on waking. Stun, armory and sleep cells only cost time (a sleeper wakes where they fell
    asleep), so they never change what can be reached."""
    fld = m.fields[0]
    rows, cols = fld.rows, fld.cols
    count = rows * cols
    need_key = m.key_required()
    specials = [special for line in fld.cells for special in line]
    is_key = [isinstance(special, Key) for special in specials]
    # One predecessor list per cell serves both key states: a step from i to j keeps the key
    # state, or sets it when j is a key cell. The loop is `step` unrolled over the flat grid.
    before: list[list[int]] = [[] for _ in range(count)]
    leaves = [False] * count
    for i in range(count):
        r, c = divmod(i, cols)
        here = specials[i]
        rubber = here.direction if isinstance(here, RubberRoom) else None
        way_out = here.direction if isinstance(here, Exit) else None
        for d in DIRECTIONS:
            if rubber is not None and rubber is not d:
                continue
            if way_out is d:
                leaves[i] = True
                continue
            if d is Direction.RIGHT:
                if c == cols - 1 or fld.right[r][c]:
                    continue
                j = i + 1
            elif d is Direction.LEFT:
                if c == 0 or fld.right[r][c - 1]:
                    continue
                j = i - 1
            elif d is Direction.DOWN:
                if r == rows - 1 or fld.down[r][c]:
                    continue
                j = i + cols
            else:
                if r == 0 or fld.down[r - 1][c]:
                    continue
                j = i - cols
            there = specials[j]
            if isinstance(there, Teleport):
                j = there.destination[0] * cols + there.destination[1]
            before[j].append(i)
    # good[k][i]: from cell i holding the key (k = 1) or not (k = 0) there is a way out
    good = [[leaf and not need_key for leaf in leaves], leaves[:]]
    queue = deque((k, i) for k in (0, 1) for i in range(count) if good[k][i])
    while queue:
        k, j = queue.popleft()
        # predecessors (i, k0) of (j, k): k0 == k; on a key cell every step arrives holding the
        # key, so only (j, 1) has predecessors, from either state
        if is_key[j] and k == 0:
            continue
        for k0 in ((0, 1) if is_key[j] else (k,)):
            row = good[k0]
            for i in before[j]:
                if not row[i]:
                    row[i] = True
                    queue.append((k0, i))
    return [(0, i // cols, i % cols) for i in range(count)
            if not good[1 if is_key[i] or not need_key else 0][i]]
