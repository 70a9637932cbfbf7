"""Cell capture events: frozen values for the match log, each with JSON and a seed 7.3 log line."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

Cell = tuple[int, int]
TEXT_LINES = 20
# Where an exploding piece's drops go (seed 4.1): up, down, left, right.
DIRECTIONS: tuple[Cell, ...] = ((0, 1), (0, -1), (-1, 0), (1, 0))


def neighbours(cell: Cell, width: int, height: int) -> tuple[Cell, ...]:
    """The cells an explosion on ``cell`` throws drops to; drops off the board are lost (seed 5.1)."""
    x, y = cell
    return tuple((x + dx, y + dy) for dx, dy in DIRECTIONS if 0 <= x + dx < width and 0 <= y + dy < height)


def piece(colour: str, level: int, cell: Cell) -> str:
    """The seed's notation colour_level_(X,Y), e.g. ``red_2_(5,3)``."""
    return f"{colour}_{level}_({cell[0]},{cell[1]})"


def _json(value: Any) -> Any:
    """Tuples (cells, pieces, landings) as JSON lists, at any depth."""
    return [_json(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    """The inverse of ``_json``: every list back to a tuple."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _drops(count: int) -> str:
    return "1 drop" if count == 1 else f"{count} drops"


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` names it in JSON and ``text()`` is its log line."""

    kind: ClassVar[str] = "event"

    def lines(self) -> list[str]:
        """The event's log lines, one per piece (seed 7.3)."""
        return [self.text()]

    def text(self) -> str:
        """The log text; a wave of many pieces shows the first TEXT_LINES lines and a count of the rest."""
        lines = self.lines()
        if len(lines) > TEXT_LINES:
            lines = [*lines[:TEXT_LINES], f"... and {len(lines) - TEXT_LINES} more"]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = _json(value)
            data[f.name] = value
        data["text"] = self.text()
        return data


@dataclass(frozen=True)
class Placed(Event):
    """Round 1: ``player`` put a level-1 piece on an empty cell."""

    kind: ClassVar[str] = "placed"
    round: int
    player: str
    cell: Cell

    def text(self) -> str:
        return f"[Round {self.round}, player {self.player}] places {piece(self.player, 1, self.cell)}"


@dataclass(frozen=True)
class Upgraded(Event):
    """Later rounds: ``player`` raised one own piece by one level."""

    kind: ClassVar[str] = "upgraded"
    round: int
    player: str
    cell: Cell
    level: int  # the new level (the old one is level - 1)

    def text(self) -> str:
        before = piece(self.player, self.level - 1, self.cell)
        return f"[Round {self.round}, player {self.player}] {before} -> level {self.level}"


@dataclass(frozen=True)
class Exploded(Event):
    """Every piece that exploded in ``wave`` (all at once): each is removed and throws one drop to
    each neighbour inside the width x height board (seed 4.1: up, down, left, right).

    ``pieces`` are (cell, level) sorted by cell; a level above 4 still throws only 4 drops.
    """

    kind: ClassVar[str] = "exploded"
    round: int
    player: str  # the mover: every exploding piece is theirs
    wave: int
    width: int
    height: int
    pieces: tuple[tuple[Cell, int], ...]

    def lines(self) -> list[str]:
        head = f"[Chain reaction, wave {self.wave}]"
        out = []
        for cell, level in self.pieces:
            where = ", ".join(f"({a},{b})" for a, b in neighbours(cell, self.width, self.height))
            out.append(f"{head} {piece(self.player, level, cell)} exploded -> drops to {where}")
        return out


@dataclass(frozen=True)
class Drops(Event):
    """The drops of ``wave`` that landed on empty cells or on the mover's pieces, grouped by cell.

    ``landings`` are (cell, count, level) sorted by cell: the cell now holds a mover's piece of
    ``level``; ``level - count`` is what it held before (0: it was empty, so k drops made level k).
    """

    kind: ClassVar[str] = "drops"
    round: int
    player: str
    wave: int
    landings: tuple[tuple[Cell, int, int], ...]

    def lines(self) -> list[str]:
        head = f"[Chain reaction, wave {self.wave}]"
        out = []
        for cell, count, level in self.landings:
            before = piece(self.player, level - count, cell) if level > count else f"({cell[0]},{cell[1]})"
            out.append(f"{head} {before} got {_drops(count)} -> {piece(self.player, level, cell)}")
        return out


@dataclass(frozen=True)
class Captured(Event):
    """The drops of ``wave`` that landed on opponents' pieces: each takes the mover's colour and gains them.

    ``landings`` are (cell, count, previous colour, previous level, level) sorted by cell.
    """

    kind: ClassVar[str] = "captured"
    round: int
    player: str
    wave: int
    landings: tuple[tuple[Cell, int, str, int, int], ...]

    def lines(self) -> list[str]:
        head = f"[Chain reaction, wave {self.wave}]"
        return [f"{head} {piece(colour, before, cell)} got {_drops(count)} "
                f"-> became {piece(self.player, level, cell)} (colour changed)"
                for cell, count, colour, before, level in self.landings]


@dataclass(frozen=True)
class Skipped(Event):
    """``player`` let the turn pass without a move (a hosted match's deadline)."""

    kind: ClassVar[str] = "skipped"
    round: int
    player: str

    def text(self) -> str:
        return f"[Round {self.round}, player {self.player}] turn skipped"


@dataclass(frozen=True)
class Eliminated(Event):
    """``player`` had no piece at the start of their turn: out of the game."""

    kind: ClassVar[str] = "eliminated"
    round: int
    player: str

    def text(self) -> str:
        return f"[Round {self.round}] player {self.player} has no piece left and is out"


@dataclass(frozen=True)
class Won(Event):
    """Only ``player``'s colour is on the board: the game is over (``wave`` 0: not during a chain)."""

    kind: ClassVar[str] = "won"
    round: int
    player: str
    wave: int

    def text(self) -> str:
        return f"[Round {self.round}] player {self.player} wins: only {self.player} is left on the board"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (Placed, Upgraded, Exploded, Drops, Captured, Skipped, Eliminated, Won)
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The inverse of ``Event.to_dict()`` (the ``text`` key is ignored)."""
    cls = EVENT_TYPES[data["kind"]]
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        values[f.name] = _tuples(data[f.name])
    return cls(**values)
