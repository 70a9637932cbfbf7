"""The console labyrinth's bots (seed 003, SPEC 15), pure: ``random`` and ``explorer``.

``explorer`` plays like a player with paper: it knows only the field's size, its inventory and the
game master's answers to its own commands (the events of its seat), and keeps a notebook of the
sides it tried (``labyrinth.engine.notebook``), counted from where it began. It walks to the
nearest side it has not tried; a step out of the field that is refused for want of the key marks
the exit; with the key (found on its way) it walks back to a known exit. Teleported, woken from a
dream or shot back to its start, it cannot tell where it is and begins a new sheet (the rubber
room's lie and a silent fall asleep make a sheet wrong; one that outgrows the field is torn up).
It never shoots and never asks for its inventory or the help (both free, both told it nothing new).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from gamekit.bots import JSON, Memory, Policy, random_policy
from labyrinth.engine.notebook import (
    DIRECTIONS,
    EXIT,
    WALL,
    exit_side,
    marked,
    new_sheet,
    route,
    unknown,
    walked,
)

LETTERS = {"UP": "W", "LEFT": "A", "DOWN": "S", "RIGHT": "D"}


def _learn(memory: JSON, events: Sequence[Mapping[str, Any]], field: tuple[int, int]) -> JSON:
    """The notebook after the game master's answers since the bot last acted."""
    sheet, last, key = memory["sheet"], memory["last"], memory["key"]
    for event in events:
        kind = event.get("kind")
        if kind == "moved" and last is not None:
            sheet = walked(sheet, last, field)
        elif kind == "wall" and last is not None:
            sheet = marked(sheet, last, WALL)
        elif kind == "exit_locked" and last is not None:
            sheet = marked(sheet, last, EXIT)
        elif kind in ("teleported", "woke_up", "killed"):
            sheet = new_sheet()
        if kind == "key_found":
            key = True
        elif kind in ("woke_up", "inventory"):
            key = bool(event.get("has_key"))
        elif kind == "killed" and not event.get("in_dream"):
            key = False
    return {"sheet": sheet, "last": None, "key": key}


def explorer(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
             events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
    """The next command of a player mapping the labyrinth on paper (see the module)."""
    if view.get("choosing_starts"):
        return random_policy(view, allowed, memory, rng)
    field = (view["field"]["rows"], view["field"]["cols"])
    notes = _learn(memory or {"sheet": new_sheet(), "last": None, "key": False}, events, field)
    if view["inventory"]["key"] != notes["key"]:
        notes["key"] = bool(view["inventory"]["key"])  # the view is the truth; an answer may be missed
    sheet = notes["sheet"]
    direction = (route(sheet, exit_side, rng) if notes["key"] else None) or route(sheet, unknown, rng)
    if direction is None:  # nothing left to try on this sheet: a step at random shows more
        direction = rng.choice(DIRECTIONS)
    action = {"command": LETTERS[direction]}
    if action not in allowed:
        return random_policy(view, allowed, memory, rng)
    return action, {**notes, "last": direction}


#: the levels a host may seat, in the order the modes list shows them
BOTS: dict[str, Policy] = {"random": random_policy, "explorer": explorer}
