"""A seeded generator of seed 002 maps that always pass ``validate_paper_map``.

``generate_paper_map(rng, rows, cols, players, variant)`` draws everything from ``rng`` (the same
seed and arguments give the same map for one ``PAPER_GENERATOR_VERSION``). It follows the seed's
recommendations (C§8) where the map has room: 2 arsenals and 2 hospitals from 16 cells on, no
hospital next to an arsenal, 1..N false treasures (N players), rivers, holes and encephalitis cells
along the outer wall, mouths with at least two ways out, no treasure next to an exit.

One attempt: cell types (river systems as walks along the outer wall ending in a mouth, one or two
hole cycles, encephalitis, arsenals, hospitals, land), walls (every inner wall, then a random
spanning tree of passages carved out, the walls across a flow removed and about a third of the
rest too), exits (2, or 3 from 20 cells; the first one open), treasures and loose items. A failed
validation removes one random wall at a time until the map passes or no wall is left; an attempt
that still fails is redrawn. A valid map with a warning (a recommendation not followed; under 16
cells one is unavoidable: 2 arsenals and 2 hospitals) is redrawn too, and after ``GOOD_ENOUGH_AFTER``
attempts the valid map with the fewest warnings is taken. After ``MAX_ATTEMPTS`` with no valid map
at all, a plain map with no rivers, holes or walls is returned (valid by construction, checked).
"""
from __future__ import annotations

import random
from dataclasses import replace

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine.model import CellType, Outer, PaperMap, Pos, step_pos
from paper_labyrinth.engine.movement import RiverMode, default_river_mode
from paper_labyrinth.engine.validate import validate_paper_map

PAPER_GENERATOR_VERSION = 1
MIN_SIDE, MAX_SIDE = 3, 12
MAX_ATTEMPTS = 40
GOOD_ENOUGH_AFTER = 5   # after this many attempts, the valid map with the fewest warnings so far is taken
WALL_KEEP = 0.65   # the share of the walls left after carving the spanning tree


class _Retry(Exception):
    """This attempt drew itself into a corner: draw again."""


def _outline(rows: int, cols: int, cut_corners: bool) -> list[Pos]:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if cut_corners and rows >= 4 and cols >= 4:
        corners = {(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)}
        cells = [p for p in cells if p not in corners]
    return cells


def _neighbours(cells: set[Pos], pos: Pos) -> list[Pos]:
    return [q for q in (step_pos(pos, d) for d in DIRECTIONS) if q in cells]


class _Draw:
    def __init__(self, rng: random.Random, cells: list[Pos], players: int, variant: str) -> None:
        self.rng = rng
        self.cells = cells
        self.outline = set(cells)
        self.players = players
        self.variant = variant
        self.border = {p for p in cells if len(_neighbours(self.outline, p)) < 4}
        self.types: dict[Pos, CellType] = {}
        self.flow: dict[Pos, Pos] = {}
        self.holes: list[tuple[Pos, ...]] = []

    def free(self, among: set[Pos] | list[Pos] | None = None) -> list[Pos]:
        pool = self.cells if among is None else among
        return sorted(p for p in pool if p not in self.types)

    def budget(self) -> tuple[int, list[int], list[int], int]:
        """(arsenals = hospitals, river cells per system, holes per cycle, encephalitis cells)."""
        n = len(self.cells)
        pairs = 2 if n >= 16 else 1
        # shallow rivers: a lone source next to its mouth is unreachable
        least = 2 if self.variant == "quantum" else 1
        systems = [self.rng.randint(max(least, 2), 3)] if n < 25 else \
            [self.rng.randint(max(least, 2), 4), self.rng.randint(least, 3)]
        cycles = [2] if n < 16 else [3] if n < 36 else [3, 2]
        fevers = 0 if n < 12 else 1 if n < 30 else 2
        return pairs, systems, cycles, fevers

    def river(self, length: int) -> None:
        starts = self.free(self.border)
        self.rng.shuffle(starts)
        for start in starts[:8]:
            path = [start]
            while len(path) < length:
                options = [q for q in _neighbours(self.outline, path[-1])
                           if q not in self.types and q not in path]
                if not options:
                    break
                on_border = [q for q in options if q in self.border]
                path.append(self.rng.choice(on_border or options))
            if len(path) < length:
                continue
            mouths = [q for q in _neighbours(self.outline, path[-1]) if q not in self.types and q not in path]
            roomy = [q for q in mouths
                     if sum(1 for x in _neighbours(self.outline, q)
                            if x not in path and self.types.get(x) is not CellType.MOUTH) >= 2]
            if not (roomy or mouths):
                continue
            mouth = self.rng.choice(roomy or mouths)
            for a, b in zip(path, path[1:] + [mouth]):
                self.types[a] = CellType.RIVER
                self.flow[a] = b
            self.types[mouth] = CellType.MOUTH
            return
        raise _Retry

    def place(self, kind: CellType, count: int, prefer: set[Pos] | None = None,
              avoid_next_to: CellType | None = None) -> list[Pos]:
        placed = []
        for _ in range(count):
            options = self.free(prefer) if prefer is not None else []
            options = options or self.free()
            if avoid_next_to is not None:
                calm = [p for p in options
                        if all(self.types.get(q) is not avoid_next_to for q in _neighbours(self.outline, p))]
                options = calm or options
            if not options:
                raise _Retry
            pos = self.rng.choice(options)
            self.types[pos] = kind
            placed.append(pos)
        return placed

    def cell_types(self) -> None:
        pairs, systems, cycles, fevers = self.budget()
        for length in systems:
            self.river(length)
        for size in cycles:
            self.holes.append(tuple(self.place(CellType.HOLE, size, self.border)))
        self.place(CellType.ENCEPHALITIS, fevers, self.border)
        for _ in range(pairs):
            self.place(CellType.ARSENAL, 1, avoid_next_to=CellType.HOSPITAL)
            self.place(CellType.HOSPITAL, 1, avoid_next_to=CellType.ARSENAL)
        for pos in self.free():
            self.types[pos] = CellType.LAND
        if sum(1 for t in self.types.values() if t is CellType.LAND) < 2:
            raise _Retry

    def walls(self) -> set[frozenset[Pos]]:
        walls = {frozenset((p, q)) for p in self.cells for q in _neighbours(self.outline, p) if p < q}
        start = self.rng.choice(self.cells)
        seen = {start}
        stack = [start]
        while stack:
            here = stack[-1]
            options = [q for q in _neighbours(self.outline, here) if q not in seen]
            if not options:
                stack.pop()
                continue
            nxt = self.rng.choice(options)
            walls.discard(frozenset((here, nxt)))
            seen.add(nxt)
            stack.append(nxt)
        for src, dst in self.flow.items():
            walls.discard(frozenset((src, dst)))
        for mouth in (p for p, t in self.types.items() if t is CellType.MOUTH):
            for q in _neighbours(self.outline, mouth):
                if self.flow.get(q) != mouth:
                    walls.discard(frozenset((mouth, q)))   # no attractor (C8.г): every way out stays open
        return {w for w in sorted(walls, key=sorted) if self.rng.random() < WALL_KEEP}

    def exits(self) -> dict[tuple[Pos, Direction], Outer]:
        n = len(self.cells)
        sources = {p for p in self.flow if p not in self.flow.values()}
        sides = [(p, d) for p in sorted(self.border) if p not in sources
                 for d in DIRECTIONS if step_pos(p, d) not in self.outline]
        count = 2 if n < 20 else 3
        chosen: list[tuple[Pos, Direction]] = []
        self.rng.shuffle(sides)
        for p, d in sides:
            if all(p != q for q, _ in chosen):
                chosen.append((p, d))
            if len(chosen) == count:
                break
        if len(chosen) < 2:
            raise _Retry
        return {key: Outer.OPEN_EXIT if i == 0 or self.rng.random() < 0.5 else Outer.CLOSED_EXIT
                for i, key in enumerate(chosen)}

    def treasures(self, exit_cells: set[Pos]) -> dict[Pos, tuple[bool, ...]]:
        land = self.free_of(CellType.LAND)
        calm = [p for p in land if p not in exit_cells]
        true_at = self.rng.choice(calm or land)
        stacks: dict[Pos, list[bool]] = {true_at: [True]}
        sources = {p for p in self.flow if p not in self.flow.values()}
        spots = [p for p in self.cells if p not in exit_cells and p not in sources and p != true_at
                 and self.types[p] is not CellType.RIVER]
        false = self.rng.randint(1, max(1, min(self.players, 3)))
        for _ in range(false):
            pos = self.rng.choice(spots) if spots else true_at
            stacks.setdefault(pos, []).insert(0, False)
        return {p: tuple(s) for p, s in stacks.items()}

    def free_of(self, kind: CellType) -> list[Pos]:
        return sorted(p for p, t in self.types.items() if t is kind)

    def items(self) -> tuple[dict[Pos, int], dict[Pos, int], dict[Pos, int]]:
        sources = {p for p in self.flow if p not in self.flow.values()}
        spots = [p for p in self.cells if p not in sources]
        bullets = {p: self.rng.randint(1, 2)
                   for p in self.rng.sample(spots, min(len(spots), self.rng.randint(0, 2)))}
        grenades = {p: 1 for p in self.rng.sample(spots, min(len(spots), self.rng.randint(0, 2)))}
        mine_spots = [p for p in spots if self.types[p] in (CellType.LAND, CellType.ARSENAL)]
        mines = {p: 1 for p in self.rng.sample(mine_spots, min(len(mine_spots), self.rng.randint(0, 1)))}
        return bullets, grenades, mines


def plain_paper_map(rng: random.Random, rows: int, cols: int, *, cut_corners: bool = False) -> PaperMap:
    """The generator's fallback: land with one arsenal and one hospital, no walls, rivers or holes,
    2 open exits, a true and a false treasure; valid for both variants by construction."""
    cells = _outline(rows, cols, cut_corners)
    types = {p: CellType.LAND for p in cells}
    spots = list(cells)
    rng.shuffle(spots)
    types[spots[0]] = CellType.ARSENAL
    types[spots[1]] = CellType.HOSPITAL
    outline = set(cells)
    sides = [(p, d) for p in cells for d in DIRECTIONS if step_pos(p, d) not in outline]
    first = sides[0]
    second = next(s for s in sides if s[0] != first[0])
    exit_cells = {first[0], second[0]}
    land = [p for p in spots[2:] if p not in exit_cells] or spots[2:]
    return PaperMap(rows, cols, types, outer={first: Outer.OPEN_EXIT, second: Outer.OPEN_EXIT},
                    treasures={land[0]: (True,), spots[0]: (False,)})


def _attempt(rng: random.Random, rows: int, cols: int, cells: list[Pos], players: int, variant: str,
             mode: RiverMode) -> PaperMap | None:
    """One drawn map that passes the validator, or None."""
    draw = _Draw(rng, cells, players, variant)
    try:
        draw.cell_types()
        walls = draw.walls()
        outer = draw.exits()
        treasures = draw.treasures({p for p, _ in outer})
    except _Retry:
        return None
    bullets, grenades, mines = draw.items()
    m = PaperMap(rows, cols, dict(draw.types), frozenset(walls), outer, tuple(draw.holes), dict(draw.flow),
                 treasures, bullets, grenades, mines)
    remaining = sorted(walls, key=sorted)
    rng.shuffle(remaining)
    while not validate_paper_map(m, variant, river_mode=mode, players=players).ok:
        if not remaining:
            return None
        m = replace(m, walls=m.walls - {remaining.pop()})
    return m


def generate_paper_map(rng: random.Random, rows: int, cols: int, players: int, variant: str = "classic", *,
                       river_mode: RiverMode | None = None, cut_corners: bool = False) -> PaperMap:
    """A map for ``players`` (2-5) in a rows x cols box (3..12 each; ``cut_corners`` removes the four
    corners when both sides are at least 4) that passes ``validate_paper_map(m, variant, river_mode=...)``."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise ValueError(f"rows and columns must be between {MIN_SIDE} and {MAX_SIDE}, not {rows}x{cols}")
    if not 2 <= players <= 5:
        raise ValueError(f"the seed's game has 2 to 5 players, not {players}")
    mode = river_mode or default_river_mode(variant)
    cells = _outline(rows, cols, cut_corners)
    best: tuple[int, PaperMap] | None = None
    for attempt in range(MAX_ATTEMPTS):
        m = _attempt(rng, rows, cols, cells, players, variant, mode)
        if m is None:
            continue
        warned = len(validate_paper_map(m, variant, river_mode=mode, players=players).warnings)
        if best is None or warned < best[0]:
            best = (warned, m)
        if warned <= (1 if len(cells) < 16 else 0) or attempt >= GOOD_ENOUGH_AFTER:
            break
    if best is not None:
        return best[1]
    m = plain_paper_map(rng, rows, cols, cut_corners=cut_corners)
    assert validate_paper_map(m, variant, river_mode=mode, players=players).ok, "the fallback map is invalid"
    return m


__all__ = ["MAX_SIDE", "MIN_SIDE", "PAPER_GENERATOR_VERSION", "generate_paper_map", "plain_paper_map"]
