"""The paper labyrinth's bots (seed 002, SPEC 15), pure: ``random`` and ``explorer``.

They read only their seat's view (the outline of the map, their own status, the public record) and
the public answers of the game master; ``engine/bot.py`` is another thing: the tests' random
request generator, which reads the engine's state.

``explorer`` plays like a player drawing the labyrinth on paper (``labyrinth.engine.notebook``): it
chooses its start at random (so it knows where on the outline it stands), walks only (it never
shoots, throws, mines or skips), marks every side it tried from the game master's answers to its own
moves (moved: open; a wall or an inflow: closed; out of the labyrinth: an exit), and walks to the
nearest side it has not tried. Carrying a treasure, it walks to a known exit, else first tries the
sides on the outline's edge. Carried by a river, through a hole or on a drawn start it cannot tell
where it stands: it begins a new sheet (its position on the outline unknown). Out of the labyrinth
without the true treasure, it steps back in at once (else it would be out of the game).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from gamekit.bots import JSON, Memory, Policy, random_policy
from labyrinth.engine.notebook import (
    EXIT,
    OPPOSITE,
    WALL,
    Notebook,
    beyond,
    exit_side,
    marked,
    new_sheet,
    route,
    unknown,
    walked,
)

#: answers after which the bot no longer knows where it stands (a river, a hole's cycle, a drift)
LOST = frozenset({"shallow", "drifted", "downstream", "cycle"})
OUT = frozenset({"exited", "crumbled", "won"})


def _move(direction: str) -> JSON:
    return {"type": "turn", "steps": [{"do": "move", "direction": direction}]}


def _blank() -> JSON:
    """The notes before the first move: a blank sheet; where it lies on the outline unknown."""
    return {"sheet": new_sheet(), "origin": None, "outside": None, "last": None}


def _cells(outline: Sequence[Sequence[bool]]) -> list[tuple[int, int]]:
    """The outline's cells in the order start actions number them (row by row)."""
    return [(r, c) for r, row in enumerate(outline) for c, inside in enumerate(row) if inside]


def _learn(notes: JSON, number: int, events: Sequence[Mapping[str, Any]]) -> JSON:
    """The notebook after the game master's answers to this player since it last acted."""
    sheet: Notebook = notes["sheet"]
    last, origin, outside = notes["last"], notes["origin"], notes["outside"]
    for event in events:
        if event.get("kind") != "gm" or event.get("number") != number:
            continue
        code, data = event.get("code"), event.get("data") or {}
        if code == "moved" and last is not None:
            sheet = walked(sheet, last)
        elif (code == "wall" and not data.get("drift")) or code == "inflow":
            sheet = marked(sheet, last, WALL) if last is not None else sheet
        elif code in OUT and last is not None:
            sheet, outside = marked(sheet, last, EXIT), last
        elif code in LOST or code == "wall":
            sheet, origin = new_sheet(), None
        elif code == "reentered":
            outside = None
    return {**notes, "sheet": sheet, "origin": origin, "outside": outside, "last": None}


def explorer(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
             events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
    """The next move of a player mapping the labyrinth on paper (see the module)."""
    cells = _cells(view["outline"])
    if view["phase"] == "choosing_starts":
        starts = [a for a in allowed if a.get("type") == "start"]
        if not starts:
            return random_policy(view, allowed, memory, rng)
        start = dict(starts[rng.randrange(len(starts))])
        return start, {**_blank(), "origin": list(cells[start["cell"]])}
    notes = _learn(memory or _blank(), view["number"], events)
    status = view["status"] or {}
    sheet, origin = notes["sheet"], notes["origin"]
    inside = set(cells)

    def at_edge(cell: tuple[int, int], direction: str, mark: str | None) -> bool:
        if mark is not None or origin is None:
            return False
        r, c = beyond(cell, direction)
        return (origin[0] + r, origin[1] + c) not in inside

    if status.get("outside") and notes["outside"] is not None:
        back = _move(OPPOSITE[notes["outside"]])
        if back in allowed:  # stepping back in: the bot stands where it left
            return back, {**notes, "outside": None, "last": None}
    direction: str | None = None
    if status.get("slot") == "treasure":
        direction = route(sheet, exit_side, rng) or route(sheet, at_edge, rng)
    direction = direction or route(sheet, unknown, rng)
    if direction is not None and _move(direction) in allowed:
        return _move(direction), {**notes, "last": direction}
    moves = [a for a in allowed if a.get("steps", [{}])[0].get("do") == "move"]
    if not moves:
        return random_policy(view, allowed, notes, rng)
    chosen = dict(moves[rng.randrange(len(moves))])
    return chosen, {**notes, "last": chosen["steps"][0]["direction"]}


#: the levels a host may seat, in the order the modes list shows them
BOTS: dict[str, Policy] = {"random": random_policy, "explorer": explorer}
