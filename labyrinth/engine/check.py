"""Seed 003's `check`: the field-0 cells from which no sequence of steps leaves the labyrinth."""
from __future__ import annotations

from collections import deque

from labyrinth.engine.grid import DIRECTIONS, Cell, Key, LabyrinthMap, StepOutcome, step


def unreachable_cells(m: LabyrinthMap) -> list[Cell]:
    """Sorted field-0 cells from which the player cannot leave through an exit.

    A state is (cell, holds the key). Moves follow `step` exactly (walls, rubber rooms, teleports
    without chains, exits in their direction); standing on a Key cell, arriving by teleport
    included, means holding the key. With a Key anywhere on the map, an exit lets only a player
    holding a key out, and only keys of field 0 count: whatever is picked up in a dream is given
    back on waking. Stun, armory and sleep cells only cost time (a sleeper wakes where they fell
    asleep), so they never change what can be reached."""
    fld = m.fields[0]
    cols = fld.cols
    count = fld.rows * cols
    need_key = m.key_required()
    is_key = [isinstance(fld.cells[i // cols][i % cols], Key) for i in range(count)]
    # state index: cell * 2 + holds_key
    reverse: list[list[int]] = [[] for _ in range(2 * count)]
    leaves = [False] * (2 * count)
    for i in range(count):
        cell = (0, i // cols, i % cols)
        for d in DIRECTIONS:
            result = step(m, cell, d)
            if result.outcome is StepOutcome.EXITED:
                leaves[2 * i + 1] = True
                if not need_key:
                    leaves[2 * i] = True
                continue
            if result.outcome is not StepOutcome.MOVED and result.outcome is not StepOutcome.TELEPORTED:
                continue
            j = result.cell[1] * cols + result.cell[2]
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
