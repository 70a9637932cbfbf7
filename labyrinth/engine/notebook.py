"""A bot's paper map of a labyrinth (pure, JSON): what it learned by walking, never the real map.

The labyrinth bots keep one ``Notebook`` per sheet, as a player with paper does: positions are
counted from where the sheet was begun (the bot does not know where it stands on the real map),
each step that went through marks the side between two cells open, each refusal marks it a wall,
and a step out of the labyrinth marks it an exit. When the bot can no longer tell where it is (it
was teleported, carried by a river, woke from a dream) it begins a new sheet; a sheet that would
grow wider than the field it is on is torn up the same way. ``route`` finds, over the sides known
open, the nearest cell with a side of a wanted kind (an unknown side to explore, a known exit) and
gives the first step towards it. The notebook is a JSON value: the server stores it between turns.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

DIRECTIONS = ("UP", "LEFT", "DOWN", "RIGHT")
DELTAS = {"UP": (-1, 0), "LEFT": (0, -1), "DOWN": (1, 0), "RIGHT": (0, 1)}
OPPOSITE = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
OPEN, WALL, EXIT = "open", "wall", "exit"

#: a sheet: ``pos`` [row, col] from where it was begun, ``sides`` "row,col,DIRECTION" -> OPEN / WALL / EXIT
Notebook = dict[str, Any]


def new_sheet() -> Notebook:
    """A blank sheet: the bot stands at (0, 0) and knows no side."""
    return {"pos": [0, 0], "sides": {}}


def _key(cell: Sequence[int], direction: str) -> str:
    return f"{cell[0]},{cell[1]},{direction}"


def side(sheet: Mapping[str, Any], cell: Sequence[int], direction: str) -> str | None:
    """What the sheet says of ``cell``'s side towards ``direction`` (None: not tried)."""
    found: str | None = sheet["sides"].get(_key(cell, direction))
    return found


def _neighbour(cell: Sequence[int], direction: str) -> tuple[int, int]:
    dr, dc = DELTAS[direction]
    return cell[0] + dr, cell[1] + dc


def walked(sheet: Notebook, direction: str, field: tuple[int, int] | None = None) -> Notebook:
    """The bot stepped ``direction`` and arrived: that side is open both ways; it stands one cell on.
    ``field`` (rows, cols): a sheet that would outgrow it is wrong (the bot was moved without knowing) and
    a new one is begun where the bot now stands."""
    pos = sheet["pos"]
    there = _neighbour(pos, direction)
    if field is not None and _outgrows(sheet, there, field):
        return new_sheet()
    sides = {**sheet["sides"], _key(pos, direction): OPEN, _key(there, OPPOSITE[direction]): OPEN}
    return {"pos": list(there), "sides": sides}


def _outgrows(sheet: Mapping[str, Any], cell: tuple[int, int], field: tuple[int, int]) -> bool:
    cells = [tuple(map(int, key.split(",")[:2])) for key in sheet["sides"]] + [cell]
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) - min(c for _, c in cells) + 1
    return rows > field[0] or cols > field[1]


def marked(sheet: Notebook, direction: str, what: str) -> Notebook:
    """The side of the bot's cell towards ``direction`` is ``what`` (WALL, EXIT); it has not moved."""
    return {"pos": sheet["pos"], "sides": {**sheet["sides"], _key(sheet["pos"], direction): what}}


#: which sides a route looks for: (the cell, the side's direction, the sheet's mark of it) -> wanted or not
Wanted = Callable[[tuple[int, int], str, "str | None"], bool]


def route(sheet: Mapping[str, Any], wanted: Wanted, rng: Random) -> str | None:
    """The first step towards the nearest cell (over sides known open) that has a ``wanted`` side, or that
    side's own direction when the bot stands there; None when no such side is reachable. Ties between
    equally near sides are drawn from ``rng``."""
    start = (sheet["pos"][0], sheet["pos"][1])
    order = list(DIRECTIONS)
    rng.shuffle(order)
    first: dict[tuple[int, int], str | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for direction in order:
            if wanted(cell, direction, side(sheet, cell, direction)):
                return first[cell] or direction
        for direction in order:
            nxt = _neighbour(cell, direction)
            if side(sheet, cell, direction) == OPEN and nxt not in first:
                first[nxt] = first[cell] or direction
                queue.append(nxt)
    return None


def unknown(cell: tuple[int, int], direction: str, mark: str | None) -> bool:
    """A side never tried: what an explorer goes for."""
    return mark is None


def exit_side(cell: tuple[int, int], direction: str, mark: str | None) -> bool:
    """A side known to lead out of the labyrinth."""
    return mark == EXIT


def beyond(cell: tuple[int, int], direction: str) -> tuple[int, int]:
    """The cell on the other side of ``cell``'s side towards ``direction``."""
    return _neighbour(cell, direction)
