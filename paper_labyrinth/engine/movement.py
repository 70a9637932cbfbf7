"""Movement on a seed 002 map, without grenades: one step, the hole cycle move, the downstream move.

The one implementation of where a movement ends: the map validator's reachability rule (C§8.5) and
the generator call it on the map, the rules engine on the live board (``step``'s ``walls`` and
``outer``: the game's current ones; ``enter`` for stepping back in from outside). Items, mines,
encephalitis and the messages are the rules engine's; this module only says where a player ends up.

- A step crosses an open side to the neighbour; a wall, a closed exit or an indestructible outer
  wall stops it (a bump); an open exit leaves the labyrinth (``StepKind.EXIT``, the rules decide).
- Entering a hole of a cycle puts the player at once on the next hole (C§4.4); a hole reached that
  way does not fire again, and a bump from a hole does not move along the cycle.
- Deep rivers (classic, and quantum's option Q§7.4): ending a step on a river cell drifts one cell
  downstream (C§4.6): moving upstream leaves the player where they were, moving with the flow covers
  two cells; a bump while standing in a river drifts too (C§2.2); stepping straight into a mouth
  does not drift (the mouth has no flow).
- Shallow rivers (quantum's default, Q§4.6): a step from a river cell or the mouth to a neighbour
  linked to it by the flow (either way) goes exactly there ("по реке"); except that from the mouth,
  stepping toward an inflowing river is refused ("нельзя, впадает река"; ``StepKind.REFUSED``, the
  turn is used); arriving on a river cell any other way drifts one cell; a bump never drifts.
- The cycle move (in a hole) goes to the next hole; the downstream move (in a river cell, never the
  mouth) goes exactly one cell downstream, with no further drift.
"""
from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine.model import (
    CellType,
    Outer,
    PaperMap,
    Pos,
    Side,
    flow_linked,
    hole_next,
    side,
    step_pos,
)

RiverMode = Literal["deep", "shallow"]
Variant = Literal["classic", "quantum"]
VARIANTS: tuple[Variant, ...] = ("classic", "quantum")


def default_river_mode(variant: str) -> RiverMode:
    """The seed's default rivers: deep in the classic game (C§4.6), shallow in the quantum one (Q§4.6)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: classic or quantum")
    return "deep" if variant == "classic" else "shallow"


class StepKind(Enum):
    MOVED = "moved"        # crossed into the neighbour (and maybe went on through a hole or a drift)
    WALL = "wall"          # a wall, a closed exit or an outer wall stopped the step (maybe then a drift)
    EXIT = "exit"          # the side is an open exit: the player leaves the labyrinth (rules decide)
    REFUSED = "refused"    # shallow rivers: from the mouth toward an inflowing river ("нельзя, впадает река")


@dataclass(frozen=True)
class StepResult:
    """What one step did. ``end`` is where the player stands afterwards (their own cell for EXIT and
    REFUSED); ``entered`` the neighbour the step crossed into (None unless MOVED); ``hole``: the entered
    hole sent them to the next hole of its cycle; ``drifted``: a deep or shallow river carried them one
    cell downstream (after entering a river cell, or after a bump while in a deep river); ``along_flow``:
    a shallow-river step along a flow link ("по реке"); ``side``: what lay on that side of the cell."""

    kind: StepKind
    end: Pos
    side: Side
    entered: Pos | None = None
    hole: bool = False
    drifted: bool = False
    along_flow: bool = False


def _drift(m: PaperMap, pos: Pos) -> Pos | None:
    """Where the current carries a player ending a move on ``pos``: the flow's target of a river cell."""
    if m.cells.get(pos) is CellType.RIVER:
        return m.flow.get(pos)
    return None


def step(m: PaperMap, pos: Pos, direction: Direction, river_mode: RiverMode,
         walls: AbstractSet[frozenset[Pos]] | None = None,
         outer: Mapping[tuple[Pos, Direction], Outer] | None = None) -> StepResult:
    """One step from ``pos`` in ``direction`` (see the module docstring for the rules). ``walls`` and
    ``outer``: the board as it is now in a game (the rules engine's live walls and outer sides);
    None reads the map's (the validator, the generator)."""
    kind = side(m, pos, direction, walls, outer)
    if kind is Side.OPEN_EXIT:
        return StepResult(StepKind.EXIT, pos, kind)
    if kind is not Side.OPEN:
        if river_mode == "deep" and (target := _drift(m, pos)) is not None:
            return StepResult(StepKind.WALL, target, kind, drifted=True)
        return StepResult(StepKind.WALL, pos, kind)
    return enter(m, step_pos(pos, direction), river_mode, came_from=pos)


def enter(m: PaperMap, there: Pos, river_mode: RiverMode, came_from: Pos | None,
          crossed: Side = Side.OPEN) -> StepResult:
    """Stepping onto the cell ``there`` across an open side (``crossed``) from the cell ``came_from``,
    or from outside the labyrinth (None: back in through an open exit, no shallow-river rule): the
    shallow rivers' flow links, the hole cycle, the drift."""
    if came_from is not None and river_mode == "shallow" and m.cells[came_from] in (CellType.RIVER,
                                                                                    CellType.MOUTH):
        if m.cells[came_from] is CellType.MOUTH and m.flow.get(there) == came_from:
            return StepResult(StepKind.REFUSED, came_from, crossed)
        if flow_linked(m, came_from, there):
            return StepResult(StepKind.MOVED, there, crossed, entered=there, along_flow=True)
    if m.cells[there] is CellType.HOLE:
        nxt = hole_next(m, there)
        if nxt is not None:
            return StepResult(StepKind.MOVED, nxt, crossed, entered=there, hole=True)
    target = _drift(m, there)
    if target is not None:
        return StepResult(StepKind.MOVED, target, crossed, entered=there, drifted=True)
    return StepResult(StepKind.MOVED, there, crossed, entered=there)


def cycle_move(m: PaperMap, pos: Pos) -> Pos | None:
    """The hole cycle move (C§4.4): the next hole of ``pos``'s cycle; None when ``pos`` is not in one."""
    if m.cells.get(pos) is not CellType.HOLE:
        return None
    return hole_next(m, pos)


def downstream_move(m: PaperMap, pos: Pos) -> Pos | None:
    """The downstream move (C§4.6): one cell down the flow from a river cell; None from anything else
    (the mouth included)."""
    return _drift(m, pos)


Move = tuple[str, Pos]
"""A move and where it ends: the direction's name ("UP", ...), "cycle" or "downstream"."""


def moves_from(m: PaperMap, pos: Pos, variant: str = "classic", river_mode: RiverMode | None = None
               ) -> tuple[Move, ...]:
    """Every move a player on ``pos`` can make without grenades and where it ends (leaving through an
    open exit and refused steps are left out). ``river_mode`` defaults to the variant's."""
    mode = river_mode or default_river_mode(variant)
    found: list[Move] = []
    for d in DIRECTIONS:
        result = step(m, pos, d, mode)
        if result.kind in (StepKind.MOVED, StepKind.WALL):
            found.append((d.value, result.end))
    if (nxt := cycle_move(m, pos)) is not None:
        found.append(("cycle", nxt))
    if (down := downstream_move(m, pos)) is not None:
        found.append(("downstream", down))
    return tuple(found)


def reachable_from(m: PaperMap, start: Pos, variant: str = "classic", river_mode: RiverMode | None = None
                   ) -> frozenset[Pos]:
    """The cells a player standing on ``start`` can stand on after some moves without grenades
    (``start`` included)."""
    graph = move_graph(m, variant, river_mode)
    return _search(graph, start)


def move_graph(m: PaperMap, variant: str = "classic", river_mode: RiverMode | None = None
               ) -> dict[Pos, frozenset[Pos]]:
    """Each cell -> the cells its moves end on (itself excluded)."""
    return {pos: frozenset(end for _, end in moves_from(m, pos, variant, river_mode) if end != pos)
            for pos in m.cells}


def _search(graph: dict[Pos, frozenset[Pos]], start: Pos) -> frozenset[Pos]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen)


def unreachable(m: PaperMap, variant: str = "classic", river_mode: RiverMode | None = None,
                exempt: frozenset[Pos] = frozenset()) -> dict[Pos, tuple[Pos, ...]]:
    """C§8.5: each cell (not in ``exempt``) that some cell cannot reach without grenades -> the cells
    that cannot reach it (sorted). Empty when every such cell is reachable from every cell."""
    graph = move_graph(m, variant, river_mode)
    targets = sorted(p for p in m.cells if p not in exempt)
    if not targets:
        return {}
    first = targets[0]
    forward = _search(graph, first)
    reverse: dict[Pos, set[Pos]] = {p: set() for p in graph}
    for p, ends in graph.items():
        for q in ends:
            reverse[q].add(p)
    backward = _search({p: frozenset(q) for p, q in reverse.items()}, first)
    if all(t in forward for t in targets) and len(backward) == len(graph):
        return {}  # every cell reaches `first`, which reaches every target
    reach = {p: _search(graph, p) for p in graph}
    found: dict[Pos, tuple[Pos, ...]] = {}
    for t in targets:
        missing = tuple(sorted(p for p in graph if t not in reach[p]))
        if missing:
            found[t] = missing
    return found
