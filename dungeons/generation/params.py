"""The balancing parameters of dungeon generation as one frozen, validated value."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class GenerationParams:
    """Every tunable number of SPEC section 5; the first eight fields are SPEC's, in SPEC's order.

    The later fields are the constants of the room lottery (``X = clamp(0, treasure_base + N - T,
    treasure_cap)`` and so on) and the chance of story-item rooms. They are parameters rather than
    literals because SPEC wants every balancing number editable by designers; their defaults
    reproduce SPEC's formulas exactly.
    """

    f_min: int = 2
    f_max: int = 6
    r_min: int = 4
    r_max: int = 8
    n_opt: float = 4.0
    r_opt: float = 3.0
    c_opt: float = 10.0
    k: float = 0.5
    treasure_base: float = 10.0
    treasure_cap: float = 14.0
    trap_base: float = 2.0
    trap_cap: float = 8.0
    enemy_base: float = 30.0
    enemy_cap: float = 40.0
    story_item_chance: float = 0.05
    sealed_room_chance: float = 0.5

    def __post_init__(self) -> None:
        problems = validation_errors(self)
        if problems:
            raise ValueError("invalid generation parameters: " + "; ".join(problems))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


def validation_errors(p: GenerationParams) -> list[str]:
    """Why these parameters cannot generate a playable dungeon (empty when they can).

    Kept as a function so the admin form can show the same messages the engine would raise.
    """
    problems: list[str] = []
    for name in GenerationParams.field_names():
        value = getattr(p, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            problems.append(f"{name} must be a finite number")
    if problems:
        return problems
    for name in ("f_min", "f_max", "r_min", "r_max"):
        if int(getattr(p, name)) != getattr(p, name):
            problems.append(f"{name} must be a whole number")
    # A dungeon needs at least one floor and every floor at least its boss room.
    if p.f_min < 1:
        problems.append("f_min must be at least 1")
    if p.f_max < p.f_min:
        problems.append("f_max must not be below f_min")
    if p.r_min < 1:
        problems.append("r_min must be at least 1")
    if p.r_max < p.r_min:
        problems.append("r_max must not be below r_min")
    for name in ("n_opt", "r_opt", "c_opt"):
        if getattr(p, name) <= 0:
            problems.append(f"{name} must be positive (it divides)")
    if p.k < 0:
        problems.append("k must not be negative")
    for name in ("treasure_cap", "trap_cap", "enemy_cap"):
        if getattr(p, name) < 0:
            problems.append(f"{name} must not be negative")
    if not 0 <= p.sealed_room_chance <= 1:
        problems.append("sealed_room_chance must be between 0 and 1")
    if not 0 <= p.story_item_chance <= 1:
        problems.append("story_item_chance must be between 0 and 1")
    return problems
