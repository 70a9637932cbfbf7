"""The map of seed 002's paper Labyrinth (v9.013): cells, walls, exits, holes, rivers and items.

Coordinates are (row, col), 0-based, row 0 at the top; they are the engine's and never shown to
players (C§2.3). The outline is the set of keys of ``PaperMap.cells`` inside a rows x cols bounding
box: irregular outlines leave some positions of the box out (C§1.4).

A map is a plain frozen value; the rules engine keeps the parts that change during a game (inner walls
destroyed by grenades, closed exits opened, items moved) in its own state and may build changed maps
with ``dataclasses.replace``. Nothing here checks the seed's map rules: that is ``validate.py``.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from labyrinth.engine.grid import DIRECTIONS, Direction

Pos: TypeAlias = tuple[int, int]
"""(row, col), 0-based, row 0 at the top; never shown to players."""


class CellType(Enum):
    """The seven cell types of C§4 (each cell has exactly one, C§8.1)."""

    LAND = "land"                  # Суша, С
    HOSPITAL = "hospital"          # Медсанбат, М
    ARSENAL = "arsenal"            # Арсенал, А
    HOLE = "hole"                  # Яма, Я
    RIVER = "river"                # Река, Р
    MOUTH = "mouth"                # Устье, У
    ENCEPHALITIS = "encephalitis"  # Энцефалит, Э


class Outer(Enum):
    """The three kinds of outer side (C§1.4)."""

    WALL = "wall"                  # indestructible
    CLOSED_EXIT = "closed_exit"    # destructible: one grenade makes it an open exit
    OPEN_EXIT = "open_exit"


class Side(Enum):
    """What lies on one side of a cell: see ``side``."""

    OPEN = "open"                  # the neighbour is reachable in one step
    INNER_WALL = "inner_wall"      # an inner wall (always destructible by one grenade)
    OUTER_WALL = "wall"            # an indestructible outer wall
    CLOSED_EXIT = "closed_exit"    # an outer side one grenade opens
    OPEN_EXIT = "open_exit"        # an outer side one can leave through


_OUTER_SIDE = {Outer.WALL: Side.OUTER_WALL, Outer.CLOSED_EXIT: Side.CLOSED_EXIT,
               Outer.OPEN_EXIT: Side.OPEN_EXIT}


@dataclass(frozen=True)
class PaperMap:
    """One map of seed 002 (the fields' meaning: see the module docstring and docs/paper-labyrinth-maps.md).

    - ``cells``: the outline (the keys) and each cell's type.
    - ``walls``: inner walls, each a frozenset of the two neighbouring cells it separates.
    - ``outer``: the outer sides that are not plain walls, keyed by (cell, direction off the outline);
      a missing outer side is ``Outer.WALL``.
    - ``holes``: each hole cycle in order; entering ``holes[k][i]`` puts you on ``holes[k][(i+1) % N]``.
    - ``flow``: each river cell -> its downstream neighbour (a river cell or the mouth).
    - ``treasures``: treasure stacks, bottom -> top; True is the true treasure.
    - ``bullets``, ``grenades``, ``mines``: loose items (map mines are unarmed).

    Dict fields compare by value; hashing a map fails (its dicts are not hashable).
    """

    rows: int
    cols: int
    cells: Mapping[Pos, CellType]
    walls: frozenset[frozenset[Pos]] = frozenset()
    outer: Mapping[tuple[Pos, Direction], Outer] = field(default_factory=dict)
    holes: tuple[tuple[Pos, ...], ...] = ()
    flow: Mapping[Pos, Pos] = field(default_factory=dict)
    treasures: Mapping[Pos, tuple[bool, ...]] = field(default_factory=dict)
    bullets: Mapping[Pos, int] = field(default_factory=dict)
    grenades: Mapping[Pos, int] = field(default_factory=dict)
    mines: Mapping[Pos, int] = field(default_factory=dict)


def step_pos(pos: Pos, direction: Direction) -> Pos:
    """The position one step from ``pos`` in ``direction`` (on or off the outline)."""
    dr, dc = direction.delta
    return (pos[0] + dr, pos[1] + dc)


def neighbour(m: PaperMap, pos: Pos, direction: Direction) -> Pos | None:
    """The cell next to ``pos`` in ``direction``, walls ignored; None off the outline (an outer side)."""
    there = step_pos(pos, direction)
    return there if there in m.cells else None


def direction_between(a: Pos, b: Pos) -> Direction | None:
    """The direction from ``a`` to its grid neighbour ``b``; None when they are not neighbours."""
    for d in DIRECTIONS:
        if step_pos(a, d) == b:
            return d
    return None


def wall_between(a: Pos, b: Pos) -> frozenset[Pos]:
    """The key of the inner wall between two neighbouring cells in ``PaperMap.walls``."""
    return frozenset((a, b))


def outer_kind(m: PaperMap, pos: Pos, direction: Direction) -> Outer:
    """The kind of an outer side (``Outer.WALL`` when the map lists nothing there)."""
    return m.outer.get((pos, direction), Outer.WALL)


def side(m: PaperMap, pos: Pos, direction: Direction, walls: AbstractSet[frozenset[Pos]] | None = None,
         outer: Mapping[tuple[Pos, Direction], Outer] | None = None) -> Side:
    """What lies on ``direction``'s side of the cell ``pos``: open, an inner wall, or the outer
    side's kind. ``walls`` and ``outer``: the inner walls and outer sides as they are now in a game
    (grenades blow walls and open exits), keyed like the map's; None reads the map's."""
    there = neighbour(m, pos, direction)
    if there is None:
        return _OUTER_SIDE[(m.outer if outer is None else outer).get((pos, direction), Outer.WALL)]
    return Side.INNER_WALL if frozenset((pos, there)) in (m.walls if walls is None else walls) else Side.OPEN


def outer_sides(m: PaperMap) -> Iterator[tuple[Pos, Direction]]:
    """Every outer side of the outline (cell, direction off the outline), in (row, col,
    UP-LEFT-DOWN-RIGHT) order."""
    for pos in sorted(m.cells):
        for d in DIRECTIONS:
            if neighbour(m, pos, d) is None:
                yield (pos, d)


def exits(m: PaperMap) -> dict[tuple[Pos, Direction], Outer]:
    """The exits (closed and open) of the map, keyed like ``PaperMap.outer``."""
    return {key: kind for key, kind in m.outer.items() if kind is not Outer.WALL}


def hole_cycle(m: PaperMap, pos: Pos) -> tuple[Pos, ...] | None:
    """The hole cycle ``pos`` belongs to, or None."""
    for cycle in m.holes:
        if pos in cycle:
            return cycle
    return None


def hole_next(m: PaperMap, pos: Pos) -> Pos | None:
    """Where entering the hole ``pos`` puts a player (the next hole of its cycle); None if not in a cycle."""
    cycle = hole_cycle(m, pos)
    if cycle is None:
        return None
    return cycle[(cycle.index(pos) + 1) % len(cycle)]


def downstream(m: PaperMap, pos: Pos) -> Pos | None:
    """The cell a river cell flows to; None for the mouth and every other cell."""
    return m.flow.get(pos)


def upstream(m: PaperMap, pos: Pos) -> tuple[Pos, ...]:
    """The river cells flowing into ``pos`` (sorted)."""
    return tuple(sorted(p for p, q in m.flow.items() if q == pos))


def is_source(m: PaperMap, pos: Pos) -> bool:
    """A river cell with no inflow (исток, C§4.6)."""
    return m.cells.get(pos) is CellType.RIVER and not upstream(m, pos)


def sources(m: PaperMap) -> tuple[Pos, ...]:
    """Every source of the map (sorted)."""
    return tuple(sorted(p for p in m.cells if is_source(m, p)))


def mouth_of(m: PaperMap, pos: Pos) -> Pos | None:
    """The mouth a river cell's water reaches by following the flow; None on a broken or cyclic flow
    (and for cells that are not river cells or the mouth itself, which is its own)."""
    if m.cells.get(pos) is CellType.MOUTH:
        return pos
    seen: set[Pos] = set()
    here: Pos | None = pos
    while here is not None and here not in seen and m.cells.get(here) is CellType.RIVER:
        seen.add(here)
        here = m.flow.get(here)
    return here if here is not None and m.cells.get(here) is CellType.MOUTH else None


def flow_linked(m: PaperMap, a: Pos, b: Pos) -> bool:
    """Whether the flow links the neighbours ``a`` and ``b`` (either way): shallow rivers' "по реке"
    (Q§4.6)."""
    return m.flow.get(a) == b or m.flow.get(b) == a


def cells_of(m: PaperMap, kind: CellType) -> tuple[Pos, ...]:
    """Every cell of one type (sorted)."""
    return tuple(sorted(p for p, t in m.cells.items() if t is kind))


def true_treasures(m: PaperMap) -> tuple[Pos, ...]:
    """Each cell's true treasures, one entry per true treasure (sorted)."""
    return tuple(p for p in sorted(m.treasures) for t in m.treasures[p] if t)
