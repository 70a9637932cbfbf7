"""The roguelike's bots (seed 000, SPEC 15), pure: ``random`` and ``explorer``.

The roguelike has one seat, so no lobby needs a bot; they exist to try a world and to compare with
a player. ``explorer`` reads only the player's view (its own state, the sides of the cell it
stands on, what is here) and its events, and keeps a notebook (``labyrinth.engine.notebook``) of
the sides it felt, counted from where it began the sheet. It walks to the nearest side it has not
felt open or closed beyond; with the gold it walks to a known exit; with nothing left to try on
its sheet it rides a lift it knows (or walks at random). A portal, a death (the player comes back
elsewhere) or a lift ride makes it lose its place: it begins a new sheet. It never fights, bombs,
builds or takes items.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from gamekit.bots import JSON, Memory, Policy, random_policy
from labyrinth.engine.notebook import (
    DIRECTIONS,
    EXIT,
    OPEN,
    WALL,
    beyond,
    exit_side,
    marked,
    new_sheet,
    route,
    side,
    walked,
)

#: events after which the player stands somewhere its notebook does not know
LOST = frozenset({"teleported", "respawned", "lift_moved"})
FELT = {"space": OPEN, "wall": WALL, "exit": EXIT}


def _go(direction: str) -> JSON:
    return {"type": "go", "direction": direction}


def _learn(notes: JSON, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> JSON:
    sheet, lifts, last = notes["sheet"], notes["lifts"], notes["last"]
    for event in events:
        kind = event.get("kind")
        if kind == "moved" and last is not None:
            sheet = walked(sheet, last)
        elif kind in LOST:
            sheet, lifts = new_sheet(), []
    for direction, felt in view["here"]["sides"].items():
        if felt in FELT and side(sheet, sheet["pos"], direction) != FELT[felt]:
            sheet = marked(sheet, direction, FELT[felt])
    if view["here"]["building"] == "lift" and sheet["pos"] not in lifts:
        lifts = [*lifts, sheet["pos"]]
    return {"sheet": sheet, "lifts": lifts, "last": None}


def explorer(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
             events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
    """The next action of a player mapping the labyrinth (see the module)."""
    notes = _learn(memory or {"sheet": new_sheet(), "lifts": [], "last": None}, view, events)
    sheet, lifts = notes["sheet"], notes["lifts"]

    def untried(cell: tuple[int, int], direction: str, mark: str | None) -> bool:
        # an open side to a cell the bot never stood on (it would have felt that cell's sides)
        far = beyond(cell, direction)
        return mark == OPEN and all(side(sheet, far, d) is None for d in DIRECTIONS)

    def lift(cell: tuple[int, int], direction: str, mark: str | None) -> bool:
        return mark == OPEN and list(beyond(cell, direction)) in lifts

    direction = route(sheet, exit_side, rng) if view["gold"] else None
    direction = direction or route(sheet, untried, rng)
    if direction is None:
        rides = [a for a in allowed if a.get("type") == "lift"]
        if rides:
            return dict(rides[rng.randrange(len(rides))]), notes
        direction = route(sheet, lift, rng)
    if direction is not None and _go(direction) in allowed:
        return _go(direction), {**notes, "last": direction}
    walks = [a for a in allowed if a.get("type") == "go"]
    if not walks:
        return random_policy(view, allowed, notes, rng)
    chosen = dict(walks[rng.randrange(len(walks))])
    return chosen, {**notes, "last": chosen["direction"]}


#: the levels a seat may be given, in the order the modes list shows them
BOTS: dict[str, Policy] = {"random": random_policy, "explorer": explorer}
