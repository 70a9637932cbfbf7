"""Seeded maze generator: a real maze (recursive backtracker plus a few loops) with special cells
placed so that every cell of field 0 can still leave (through the key first, when there is one)."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, fields
from random import Random

from labyrinth.engine.grid import (
    Armory,
    Direction,
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

GENERATOR_VERSION = 1
TELEPORT_TRIES = 12


@dataclass(frozen=True)
class GeneratorSettings:
    """The designer's knobs. Rates are per-cell chances (their sum at most 1); rubber rooms and
    teleports that would cut a cell off its way out are not placed, so their rates are upper bounds."""

    stun_rate: float = 0.04
    rubber_room_rate: float = 0.03
    teleport_rate: float = 0.02
    armory_rate: float = 0.02
    sleep_rate: float = 0.01
    loop_rate: float = 0.05       # chance that each inner wall left by the perfect maze is removed
    exits: int = 1
    keys: int = 1                 # on field 0 only (whatever a dream gives is taken back on waking)
    stun_min: int = 1
    stun_max: int = 3
    sleep_min: int = 2
    sleep_max: int = 5
    dream_fields: int = 1         # fields 1..n, each reached by sleep cells of the field before it
    dream_rows: int = 5
    dream_cols: int = 5

    def problems(self) -> list[str]:
        """What is wrong with these settings ([] when they can be used)."""
        found = []
        rates = [f.name for f in fields(self) if f.name.endswith("_rate")]
        for name in rates:
            value = getattr(self, name)
            if not 0 <= value <= 1:
                found.append(f"{name} must be between 0 and 1, not {value}")
        special = sum(getattr(self, name) for name in rates if name != "loop_rate")
        if special > 1:
            found.append(f"the special cells' rates add up to {special:.3f}, more than 1")
        if self.exits < 1:
            found.append("a map needs at least one exit")
        if self.keys < 0 or self.dream_fields < 0:
            found.append("keys and dream_fields cannot be negative")
        turns = ((self.stun_min, self.stun_max, "stun"), (self.sleep_min, self.sleep_max, "sleep"))
        for low, high, what in turns:
            if not 1 <= low <= high:
                found.append(f"{what} turns need 1 <= min <= max, not {low}..{high}")
        if self.dream_rows < 2 or self.dream_cols < 2:
            found.append("dream fields need at least 2 rows and 2 columns")
        return found


DEFAULT_SETTINGS = GeneratorSettings()


def generate_map(rows: int, cols: int, rng: Random,
                 settings: GeneratorSettings = DEFAULT_SETTINGS) -> LabyrinthMap:
    """A seeded map of rows x cols (at least 2 x 2) on field 0, plus `settings.dream_fields` dream
    fields when sleep cells are wanted; unreachable_cells(result) == []. ValueError on bad input."""
    problems = settings.problems()
    if rows < 2 or cols < 2:
        problems.append(f"a generated map needs at least 2 rows and 2 columns, not {rows}x{cols}")
    elif settings.exits > 2 * (rows + cols) - 4 or settings.exits + settings.keys > rows * cols:
        problems.append(f"{settings.exits} exits and {settings.keys} keys do not fit a {rows}x{cols} map")
    if problems:
        raise ValueError("; ".join(problems))
    dreams = settings.dream_fields if settings.sleep_rate > 0 else 0
    sizes = [(rows, cols)] + [(settings.dream_rows, settings.dream_cols)] * dreams
    generated = []
    for index, (r, c) in enumerate(sizes):
        dream_target = index + 1 if index + 1 < len(sizes) else None
        keys = settings.keys if index == 0 else 0
        exits = min(settings.exits, 2 * (r + c) - 4)
        generated.append(_field(r, c, rng, settings, exits, keys, dream_target,
                                sizes[dream_target] if dream_target is not None else None))
    return LabyrinthMap(tuple(generated))


def _field(rows: int, cols: int, rng: Random, settings: GeneratorSettings, exits: int, keys: int,
           dream_target: int | None, dream_size: tuple[int, int] | None) -> Field:
    count = rows * cols
    right = [[True] * (cols - 1) for _ in range(rows)]
    down = [[True] * cols for _ in range(rows - 1)]
    _carve(rows, cols, rng, right, down)
    cells: list[Special | None] = [None] * count

    edge = ([(0, c, Direction.UP) for c in range(cols)] + [(r, 0, Direction.LEFT) for r in range(rows)]
            + [(rows - 1, c, Direction.DOWN) for c in range(cols)]
            + [(r, cols - 1, Direction.RIGHT) for r in range(rows)])
    rng.shuffle(edge)
    exit_cells: list[int] = []
    for r, c, d in edge:
        if len(exit_cells) == exits:
            break
        if cells[r * cols + c] is None:
            cells[r * cols + c] = Exit(d)
            exit_cells.append(r * cols + c)
    free = [i for i in range(count) if cells[i] is None]
    key_cells = rng.sample(free, keys)
    for i in key_cells:
        cells[i] = Key()

    to_exit = _tree(rows, cols, right, down, exit_cells)
    to_key = _tree(rows, cols, right, down, key_cells) if key_cells else None
    _place_specials(rows, cols, rng, settings, cells, to_exit, to_key, dream_target, dream_size)

    # Loops only add passages, so every way out found above still works.
    for r in range(rows):
        for c in range(cols - 1):
            if right[r][c] and rng.random() < settings.loop_rate:
                right[r][c] = False
    for r in range(rows - 1):
        for c in range(cols):
            if down[r][c] and rng.random() < settings.loop_rate:
                down[r][c] = False
    return Field(rows, cols, tuple(map(tuple, right)), tuple(map(tuple, down)),
                 tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)))


def _carve(rows: int, cols: int, rng: Random, right: list[list[bool]], down: list[list[bool]]) -> None:
    """A perfect maze by the recursive backtracker (iterative): every cell joined, no loops."""
    seen = [False] * (rows * cols)
    start = rng.randrange(rows * cols)
    seen[start] = True
    stack = [start]
    while stack:
        here = stack[-1]
        r, c = divmod(here, cols)
        options = []  # up, left, down, right: the order the draws were pinned with
        if r > 0 and not seen[here - cols]:
            options.append(here - cols)
        if c > 0 and not seen[here - 1]:
            options.append(here - 1)
        if r + 1 < rows and not seen[here + cols]:
            options.append(here + cols)
        if c + 1 < cols and not seen[here + 1]:
            options.append(here + 1)
        if not options:
            stack.pop()
            continue
        there = options[rng.randrange(len(options))]
        if there == here - cols:
            down[r - 1][c] = False
        elif there == here - 1:
            right[r][c - 1] = False
        elif there == here + cols:
            down[r][c] = False
        else:
            right[r][c] = False
        seen[there] = True
        stack.append(there)


@dataclass(frozen=True)
class _Tree:
    """Shortest ways to a set of root cells: depth and the first step's direction per cell."""

    depth: list[int]
    first: list[Direction | None]


def _tree(rows: int, cols: int, right: list[list[bool]], down: list[list[bool]], roots: list[int]) -> _Tree:
    depth = [-1] * (rows * cols)
    first: list[Direction | None] = [None] * (rows * cols)
    for root in roots:
        depth[root] = 0
    queue = deque(roots)
    while queue:
        here = queue.popleft()
        r, c = divmod(here, cols)
        step = depth[here] + 1
        if c + 1 < cols and not right[r][c] and depth[here + 1] < 0:
            depth[here + 1], first[here + 1] = step, Direction.LEFT
            queue.append(here + 1)
        if c > 0 and not right[r][c - 1] and depth[here - 1] < 0:
            depth[here - 1], first[here - 1] = step, Direction.RIGHT
            queue.append(here - 1)
        if r + 1 < rows and not down[r][c] and depth[here + cols] < 0:
            depth[here + cols], first[here + cols] = step, Direction.UP
            queue.append(here + cols)
        if r > 0 and not down[r - 1][c] and depth[here - cols] < 0:
            depth[here - cols], first[here - cols] = step, Direction.DOWN
            queue.append(here - cols)
    return _Tree(depth, first)


def _place_specials(rows: int, cols: int, rng: Random, settings: GeneratorSettings,
                    cells: list[Special | None], to_exit: _Tree, to_key: _Tree | None,
                    dream_target: int | None, dream_size: tuple[int, int] | None) -> None:
    """Every way out follows the trees toward the key, then toward an exit. A rubber room keeps the
    cell's first step on both ways; a teleport lands strictly nearer (on both) than itself, so
    following the trees and landing never climbs back: every cell still gets out."""
    count = rows * cols
    sleep_rate = settings.sleep_rate if dream_target is not None else 0.0
    kinds = (("stun", settings.stun_rate), ("rubber", settings.rubber_room_rate),
             ("teleport", settings.teleport_rate), ("armory", settings.armory_rate), ("sleep", sleep_rate))
    for i in range(count):
        if cells[i] is not None:
            continue
        roll = rng.random()
        kind = None
        for name, rate in kinds:
            if roll < rate:
                kind = name
                break
            roll -= rate
        if kind == "stun":
            cells[i] = Stun(rng.randint(settings.stun_min, settings.stun_max))
        elif kind == "armory":
            cells[i] = Armory()
        elif kind == "sleep":
            assert dream_target is not None and dream_size is not None
            cells[i] = Sleep(rng.randint(settings.sleep_min, settings.sleep_max),
                             (dream_target, rng.randrange(dream_size[0]), rng.randrange(dream_size[1])))
        elif kind == "rubber":
            way = to_exit.first[i]
            if way is not None and (to_key is None or to_key.first[i] is way):
                cells[i] = RubberRoom(way)
        elif kind == "teleport":
            for _ in range(TELEPORT_TRIES):
                target = rng.randrange(count)
                if to_exit.depth[target] < to_exit.depth[i] and (
                        to_key is None or to_key.depth[target] < to_key.depth[i]):
                    cells[i] = Teleport(divmod(target, cols))
                    break
