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
    # state index: cell * 2 + holds_key; the loop below is `step` unrolled over the flat grid
    reverse: list[list[int]] = [[] for _ in range(2 * count)]
    leaves = [False] * (2 * count)
    for i in range(count):
        r, c = divmod(i, cols)
        here = specials[i]
        for d in DIRECTIONS:
            if isinstance(here, RubberRoom) and here.direction is not d:
                continue
            if isinstance(here, Exit) and here.direction is d:
                leaves[2 * i + 1] = True
                leaves[2 * i] = leaves[2 * i] or not need_key
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
            reverse[2 * j + 1].append(2 * i + 1)
            reverse[2 * j + (1 if is_key[j] else 0)].append(2 * i)
    good = leaves[:]
    queue = deque(s for s in range(2 * count) if good[s])
    while queue:
        state = queue.popleft()
        for before in reverse[state]:
            if not good[before]:
                good[before] = True
                queue.append(before)
    return [(0, i // cols, i % cols) for i in range(count)
            if not good[2 * i + (1 if is_key[i] or not need_key else 0)]]
