"""The grid model every labyrinth game steps on: fields, walls, special cells and one step."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeAlias, TypeVar

Cell: TypeAlias = tuple[int, int, int]
"""(field, row, col), 0-based, row 0 at the top, col 0 at the left."""


class Direction(Enum):
    """The four directions of the grid, with the seed's names as values."""

    UP = "UP"
    LEFT = "LEFT"
    DOWN = "DOWN"
    RIGHT = "RIGHT"

    @property
    def delta(self) -> tuple[int, int]:
        """(row change, column change) of one step."""
        return _DELTAS[self._value_]  # keyed by the name: enum members hash slowly

    @property
    def opposite(self) -> Direction:
        return _OPPOSITES[self._value_]

    @classmethod
    def from_wasd(cls, key: str) -> Direction:
        """W/A/S/D (any case) to a direction; ValueError for anything else."""
        try:
            return _WASD[key.strip().upper()]
        except KeyError:
            raise ValueError(f"not a direction key: {key!r} (W, A, S or D)") from None


_DELTAS = {"UP": (-1, 0), "LEFT": (0, -1), "DOWN": (1, 0), "RIGHT": (0, 1)}
_OPPOSITES = {"UP": Direction.DOWN, "DOWN": Direction.UP, "LEFT": Direction.RIGHT, "RIGHT": Direction.LEFT}
_WASD = {"W": Direction.UP, "A": Direction.LEFT, "S": Direction.DOWN, "D": Direction.RIGHT}
DIRECTIONS: tuple[Direction, ...] = (Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT)


# Special cells of seed 003. Equal values are the same special (the format shares one letter).
@dataclass(frozen=True)
class Stun:
    """Whoever enters skips the next `turns` turns."""

    turns: int


@dataclass(frozen=True)
class RubberRoom:
    """Can be left only in `direction`; other steps fail silently."""

    direction: Direction


@dataclass(frozen=True)
class Teleport:
    """Entering moves the player to `destination` (row, col) on the same field; no chains."""

    destination: tuple[int, int]


@dataclass(frozen=True)
class Armory:
    """Refills the ammunition (the game decides how much)."""


@dataclass(frozen=True)
class Exit:
    """Leaving this cell in `direction` (through the field's outer side) leaves the labyrinth."""

    direction: Direction


@dataclass(frozen=True)
class Key:
    """The key that must be picked up before leaving, when the map has one."""


@dataclass(frozen=True)
class Sleep:
    """Entering sends the player's spirit to `destination` (field, row, col) for `turns` moves."""

    turns: int
    destination: Cell


Special: TypeAlias = Stun | RubberRoom | Teleport | Armory | Exit | Key | Sleep


@dataclass(frozen=True)
class Field:
    """One 2D grid. right[r][c]: a wall between (r, c) and (r, c+1); down[r][c]: between (r, c) and
    (r+1, c). Outer sides are walls (an Exit opens its own side). cells[r][c]: the special or None."""

    rows: int
    cols: int
    right: tuple[tuple[bool, ...], ...]
    down: tuple[tuple[bool, ...], ...]
    cells: tuple[tuple[Special | None, ...], ...]

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a field needs at least one row and one column, not {self.rows}x{self.cols}")
        if len(self.right) != self.rows or any(len(line) != self.cols - 1 for line in self.right):
            raise ValueError("right walls must be rows x (cols - 1)")
        if len(self.down) != self.rows - 1 or any(len(line) != self.cols for line in self.down):
            raise ValueError("down walls must be (rows - 1) x cols")
        if len(self.cells) != self.rows or any(len(line) != self.cols for line in self.cells):
            raise ValueError("cells must be rows x cols")

    @classmethod
    def open(cls, rows: int, cols: int) -> Field:
        """A field with no inner walls and no special cells."""
        return cls(rows, cols, tuple((False,) * (cols - 1) for _ in range(rows)),
                   tuple((False,) * cols for _ in range(rows - 1)),
                   tuple((None,) * cols for _ in range(rows)))

    @classmethod
    def closed(cls, rows: int, cols: int) -> Field:
        """A field with every inner wall and no special cells."""
        return cls(rows, cols, tuple((True,) * (cols - 1) for _ in range(rows)),
                   tuple((True,) * cols for _ in range(rows - 1)),
                   tuple((None,) * cols for _ in range(rows)))

    def contains(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols


@dataclass(frozen=True)
class LabyrinthMap:
    """One or more fields; field 0 is the real one, the others are dreams (seed 003's sleep bonus)."""

    fields: tuple[Field, ...]
    _specials: tuple[tuple[Cell, Special], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.fields:
            raise ValueError("a map needs at least one field")
        found = tuple(((f, r, c), special) for f, fld in enumerate(self.fields)
                      for r, line in enumerate(fld.cells) for c, special in enumerate(line)
                      if special is not None)
        object.__setattr__(self, "_specials", found)

    def contains(self, cell: Cell) -> bool:
        f, r, c = cell
        return 0 <= f < len(self.fields) and self.fields[f].contains(r, c)

    def special(self, cell: Cell) -> Special | None:
        f, r, c = cell
        return self.fields[f].cells[r][c]

    def specials(self) -> tuple[tuple[Cell, Special], ...]:
        """Every special cell with its special, in (field, row, col) order."""
        return self._specials

    def cells(self, field_index: int = 0) -> Iterator[Cell]:
        fld = self.fields[field_index]
        for r in range(fld.rows):
            for c in range(fld.cols):
                yield (field_index, r, c)

    def key_required(self) -> bool:
        """Seed 003's key bonus: with a Key anywhere on the map, leaving needs the key."""
        return any(isinstance(special, Key) for _, special in self._specials)


def has_wall(m: LabyrinthMap, cell: Cell, direction: Direction) -> bool:
    """Whether a wall (an outer side included) lies on `direction`'s side of `cell`."""
    f, r, c = cell
    fld = m.fields[f]
    dr, dc = direction.delta
    if not fld.contains(r + dr, c + dc):
        return True
    if direction is Direction.RIGHT:
        return fld.right[r][c]
    if direction is Direction.LEFT:
        return fld.right[r][c - 1]
    if direction is Direction.DOWN:
        return fld.down[r][c]
    return fld.down[r - 1][c]


def neighbour(m: LabyrinthMap, cell: Cell, direction: Direction) -> Cell | None:
    """The cell next to `cell` in `direction`, walls ignored; None off the field."""
    f, r, c = cell
    dr, dc = direction.delta
    return (f, r + dr, c + dc) if m.fields[f].contains(r + dr, c + dc) else None


def open_directions(m: LabyrinthMap, cell: Cell) -> tuple[Direction, ...]:
    """The directions with no wall on that side of `cell` (an exit's own direction counts as open)."""
    special = m.special(cell)
    return tuple(d for d in DIRECTIONS
                 if not has_wall(m, cell, d) or (isinstance(special, Exit) and special.direction is d))


def neighbours(m: LabyrinthMap, cell: Cell) -> tuple[tuple[Direction, Cell], ...]:
    """The neighbours reachable from `cell` without crossing a wall (special cells ignored)."""
    found = []
    for d in DIRECTIONS:
        if not has_wall(m, cell, d):
            n = neighbour(m, cell, d)
            assert n is not None
            found.append((d, n))
    return tuple(found)


def with_wall(m: LabyrinthMap, cell: Cell, direction: Direction, present: bool) -> LabyrinthMap:
    """The map with the inner wall on `direction`'s side of `cell` built (True) or removed (False).
    Outer sides cannot change: ValueError."""
    f, r, c = cell
    if neighbour(m, cell, direction) is None:
        raise ValueError(f"{cell} {direction.value} is an outer side")
    fld = m.fields[f]
    if direction in (Direction.LEFT, Direction.UP):
        dr, dc = direction.delta
        return with_wall(m, (f, r + dr, c + dc), direction.opposite, present)
    if direction is Direction.RIGHT:
        right = _set(fld.right, r, c, present)
        new = replace(fld, right=right)
    else:
        new = replace(fld, down=_set(fld.down, r, c, present))
    return replace(m, fields=m.fields[:f] + (new,) + m.fields[f + 1:])


def with_special(m: LabyrinthMap, cell: Cell, special: Special | None) -> LabyrinthMap:
    """The map with `cell`'s special replaced (None: an empty cell)."""
    f, r, c = cell
    fld = m.fields[f]
    new = replace(fld, cells=_set(fld.cells, r, c, special))
    return replace(m, fields=m.fields[:f] + (new,) + m.fields[f + 1:])


_T = TypeVar("_T")


def _set(grid: tuple[tuple[_T, ...], ...], r: int, c: int, value: _T) -> tuple[tuple[_T, ...], ...]:
    line = grid[r]
    return grid[:r] + (line[:c] + (value,) + line[c + 1:],) + grid[r + 1:]


class StepOutcome(Enum):
    """What one step did."""

    MOVED = "moved"            # crossed to the neighbour
    WALL = "wall"              # a wall (or an outer side) stopped the player
    RUBBER = "rubber"          # a rubber room kept the player (they must be told they moved)
    TELEPORTED = "teleported"  # entered a teleport and stands on its destination
    EXITED = "exited"          # left the labyrinth through an exit (the game checks the key)


@dataclass(frozen=True)
class StepResult:
    outcome: StepOutcome
    cell: Cell                 # where the player stands after the step (the exit cell when EXITED)
    entered: Cell | None = None  # the neighbour crossed into (the teleport itself when TELEPORTED)


def step(m: LabyrinthMap, cell: Cell, direction: Direction) -> StepResult:
    """One step of SPEC 9.1: a rubber room refuses every direction but its own; leaving an exit in
    its direction leaves; a wall stops; entering a teleport moves to its destination (a teleport
    reached this way does not fire: no chains). Stun, armory, key and sleep are the game's."""
    here = m.special(cell)
    if isinstance(here, RubberRoom) and here.direction is not direction:
        return StepResult(StepOutcome.RUBBER, cell)
    if isinstance(here, Exit) and here.direction is direction:
        return StepResult(StepOutcome.EXITED, cell)
    if has_wall(m, cell, direction):
        return StepResult(StepOutcome.WALL, cell)
    dr, dc = direction.delta
    entered = (cell[0], cell[1] + dr, cell[2] + dc)
    there = m.special(entered)
    if isinstance(there, Teleport):
        return StepResult(StepOutcome.TELEPORTED, (cell[0], *there.destination), entered)
    return StepResult(StepOutcome.MOVED, entered, entered)
