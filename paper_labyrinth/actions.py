"""The JSON of mode ``labyrinth_paper``'s actions <-> the rules engine's requests (seed 002).

One shape for both variants (docs/paper-labyrinth.md, "Hosting", has examples)::

    {"type": "start", "cell": 7}                      # before the game: the secret start cell
    {"type": "turn",                                   # a turn (classic: one movement + any number
     "steps": [{"do": "shoot", "direction": "UP"},     #  of other steps; quantum: exactly one step)
               {"do": "move", "direction": "LEFT"},
               {"do": "if", "condition": "found_treasure",
                "then": [{"do": "shoot", "direction": "DOWN"}]}],
     "visibility": "normal" | "dark" | "half_dark",   # optional, default "normal"
     "reorder": 12,                                    # optional: the secret re-order cell (classic)
     "treasure": null | 0 | k,                         # optional: which treasure to keep (C§5.8)
     "refill": true}                                   # optional: false declines the arsenal's refill

A step's ``do``: ``move`` (direction), ``downstream``, ``cycle``, ``skip``, ``shoot`` (direction, or
``"HERE"``: into the own cell, quantum), ``grenade`` (direction), ``leave`` (item: on the own cell),
``throw`` (item, direction), ``mine`` (direction or ``"HERE"``), ``if`` (condition, then: steps).
Cells (``cell``, ``reorder``) are anonymous indexes into the outline, counted row by row over the
outline's cells (``view.outline``): the player's own plan, never a position the server reveals.

Only the shape is checked here (a malformed action is a 400 ``bad_action`` naming the problem); the
rules engine decides whether a well-formed turn is legal (409 with the engine's code).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine.model import Pos
from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Cycle,
    Downstream,
    Grenade,
    Item,
    Move,
    PlaceMine,
    Reorder,
    Shoot,
    Skip,
    Step,
    Throw,
    Turn,
    Visibility,
)

HERE = "HERE"
DIRECTION_NAMES = tuple(d.value for d in Direction)
ITEMS = tuple(i.value for i in Item)
CONDITIONS = tuple(c.value for c in Condition)
VISIBILITIES = tuple(v.value for v in Visibility)
STEP_KINDS = ("move", "downstream", "cycle", "skip", "shoot", "grenade", "leave", "throw", "mine", "if")
TURN_KEYS = {"type", "steps", "visibility", "reorder", "treasure", "refill"}
MAX_STEPS = 64
MAX_DEPTH = 4
MAX_TREASURE = 1000


class ActionFormatError(ValueError):
    """A malformed action: ``problem`` says what (the 400's message), ``field`` where."""

    def __init__(self, problem: str, field: str = "") -> None:
        super().__init__(problem)
        self.problem = problem
        self.field = field


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def cell_index(value: Any, cells: Sequence[Pos], field: str) -> Pos:
    """The outline cell an anonymous index names."""
    if not _is_int(value) or not 0 <= value < len(cells):
        raise ActionFormatError(f"{field} is a cell index from 0 to {len(cells) - 1} (the outline's cells "
                                "counted row by row).", field)
    cell: Pos = cells[value]
    return cell


def _direction(value: Any, field: str, *, here: bool = False) -> Direction | None:
    if here and value == HERE:
        return None
    if isinstance(value, str) and value in DIRECTION_NAMES:
        return Direction(value)
    allowed = ", ".join(DIRECTION_NAMES + ((HERE,) if here else ()))
    raise ActionFormatError(f"{field} is one of {allowed}.", field)


def _keys(step: Mapping[str, Any], allowed: set[str], field: str) -> None:
    extra = sorted(set(step) - allowed)
    if extra:
        raise ActionFormatError(f"{field} has unknown keys {extra}.", field)


def _item(value: Any, field: str) -> Item:
    if isinstance(value, str) and value in ITEMS:
        return Item(value)
    raise ActionFormatError(f"{field} is one of {', '.join(ITEMS)}.", field)


def step_from_json(step: Any, field: str = "steps[0]", depth: int = 0) -> Step:
    """One step of a turn."""
    if not isinstance(step, Mapping) or step.get("do") not in STEP_KINDS:
        raise ActionFormatError(f"{field} is an object whose \"do\" is one of {', '.join(STEP_KINDS)}.",
                                field)
    kind = step["do"]
    if kind in ("downstream", "cycle", "skip"):
        _keys(step, {"do"}, field)
        return Downstream() if kind == "downstream" else Cycle() if kind == "cycle" else Skip()
    if kind in ("move", "grenade"):
        _keys(step, {"do", "direction"}, field)
        direction = _direction(step.get("direction"), f"{field}.direction")
        assert direction is not None
        return Move(direction) if kind == "move" else Grenade(direction)
    if kind in ("shoot", "mine"):
        _keys(step, {"do", "direction"}, field)
        target = _direction(step.get("direction"), f"{field}.direction", here=True)
        return Shoot(target) if kind == "shoot" else PlaceMine(target)
    if kind == "leave":
        _keys(step, {"do", "item"}, field)
        return Throw(_item(step.get("item"), f"{field}.item"), None)
    if kind == "throw":
        _keys(step, {"do", "item", "direction"}, field)
        return Throw(_item(step.get("item"), f"{field}.item"), _direction(step.get("direction"),
                                                                           f"{field}.direction"))
    _keys(step, {"do", "condition", "then"}, field)
    condition = step.get("condition")
    if not isinstance(condition, str) or condition not in CONDITIONS:
        raise ActionFormatError(f"{field}.condition is one of {', '.join(CONDITIONS)}.", f"{field}.condition")
    if depth >= MAX_DEPTH:
        raise ActionFormatError(f"conditions nest at most {MAX_DEPTH} deep.", field)
    return Conditional(Condition(condition), _steps(step.get("then"), f"{field}.then", depth + 1))


def _steps(value: Any, field: str, depth: int) -> tuple[Step, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_STEPS:
        raise ActionFormatError(f"{field} is a list of 1 to {MAX_STEPS} steps.", field)
    return tuple(step_from_json(s, f"{field}[{i}]", depth) for i, s in enumerate(value))


def turn_from_json(action: Mapping[str, Any], cells: Sequence[Pos]) -> Turn:
    """A ``{"type": "turn", ...}`` action as the engine's ``Turn``; ActionFormatError when malformed."""
    _keys(action, TURN_KEYS, "action")
    visibility = action.get("visibility", "normal")
    if not isinstance(visibility, str) or visibility not in VISIBILITIES:
        raise ActionFormatError(f"visibility is one of {', '.join(VISIBILITIES)}.", "visibility")
    reorder = action.get("reorder")
    treasure = action.get("treasure")
    if treasure is not None and (not _is_int(treasure) or not 0 <= treasure <= MAX_TREASURE):
        raise ActionFormatError(f"treasure is null (keep / take the top one), 0 (take none) or 1 to "
                                f"{MAX_TREASURE} (the k-th from the bottom).", "treasure")
    refill = action.get("refill", True)
    if not isinstance(refill, bool):
        raise ActionFormatError("refill is true or false.", "refill")
    return Turn(
        steps=_steps(action.get("steps"), "steps", 0),
        visibility=Visibility(visibility),
        reorder=None if reorder is None else Reorder(cell_index(reorder, cells, "reorder")),
        treasure=treasure,
        refill=refill,
    )


def step_to_json(step: Step) -> dict[str, Any]:
    """The JSON of one step (the inverse of ``step_from_json``)."""
    if isinstance(step, Move):
        return {"do": "move", "direction": step.direction.value}
    if isinstance(step, Downstream):
        return {"do": "downstream"}
    if isinstance(step, Cycle):
        return {"do": "cycle"}
    if isinstance(step, Skip):
        return {"do": "skip"}
    if isinstance(step, Shoot):
        return {"do": "shoot", "direction": HERE if step.direction is None else step.direction.value}
    if isinstance(step, Grenade):
        return {"do": "grenade", "direction": step.direction.value}
    if isinstance(step, Throw):
        if step.direction is None:
            return {"do": "leave", "item": step.item.value}
        return {"do": "throw", "item": step.item.value, "direction": step.direction.value}
    if isinstance(step, PlaceMine):
        return {"do": "mine", "direction": HERE if step.direction is None else step.direction.value}
    return {"do": "if", "condition": step.condition.value, "then": [step_to_json(s) for s in step.then]}


def turn_to_json(turn: Turn, cells: Sequence[Pos]) -> dict[str, Any]:
    """The JSON of a turn (defaults left out)."""
    data: dict[str, Any] = {"type": "turn", "steps": [step_to_json(s) for s in turn.steps]}
    if turn.visibility is not Visibility.NORMAL:
        data["visibility"] = turn.visibility.value
    if turn.reorder is not None:
        data["reorder"] = list(cells).index(turn.reorder.cell)
    if turn.treasure is not None:
        data["treasure"] = turn.treasure
    if not turn.refill:
        data["refill"] = False
    return data


def public_request(action: Mapping[str, Any]) -> dict[str, Any]:
    """What the table hears of a turn request: everything but the secret re-order cell."""
    heard = {key: value for key, value in action.items() if key != "reorder"}
    if "reorder" in action:
        heard["reorders"] = True
    return heard
