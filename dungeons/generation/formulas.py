"""SPEC section 5's closed-form formulas: floor count, rooms per floor, NPC chance and floor weights."""
from __future__ import annotations

import math

from dungeons.generation.params import GenerationParams

_DEFAULT_PARAMS = GenerationParams()


def round_half_away(x: float) -> int:
    """SPEC's ``[x]``: round to the nearest integer, halves away from zero.

    Python's ``round`` rounds halves to even (``round(2.5) == 2``), which SPEC does not mean.
    Comparing the fractional part avoids ``floor(x + 0.5)``, whose addition itself can round up
    (``0.49999999999999994 + 0.5 == 1.0``).
    """
    if x < 0:
        return -round_half_away(-x)
    whole = math.floor(x)
    return int(whole) + (1 if x - whole >= 0.5 else 0)


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def clamp(lo: float, x: float, hi: float) -> float:
    """SPEC's argument order ``clamp(lo, x, hi)``; ``lo`` wins if a designer sets ``hi < lo``."""
    return max(lo, min(x, hi))


def _check_inputs(n: int, rank: float, completed: float) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n (party size) must be a whole number of at least 1, not {n!r}")
    for name, value in (("rank", rank), ("completed", completed)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, not {value!r}")
        if value < 0:
            raise ValueError(f"{name} must not be negative, not {value!r}")


def progress(*, n: int, rank: float, completed: float, params: GenerationParams) -> float:
    """``N/N_opt + R/R_opt + C/C_opt``, the party's strength that both counts grow with."""
    return n / params.n_opt + rank / params.r_opt + completed / params.c_opt


def floor_count(n: int, rank: float, completed: float, params: GenerationParams = _DEFAULT_PARAMS) -> int:
    """``F = [lerp(F_min, F_max, tanh(k (N/N_opt + R/R_opt + C/C_opt)))]``."""
    _check_inputs(n, rank, completed)
    t = math.tanh(params.k * progress(n=n, rank=rank, completed=completed, params=params))
    return round_half_away(lerp(params.f_min, params.f_max, t))


def room_count(
    floor: int, n: int, rank: float, completed: float, params: GenerationParams = _DEFAULT_PARAMS
) -> int:
    """``R_i = [lerp(R_min, R_max, (1/3) log2(1 + i/2 + 2N/N_opt + R/R_opt + C/C_opt))]``.

    The log grows without bound, so deep floors of strong parties exceed R_max, as SPEC intends.
    """
    _check_inputs(n, rank, completed)
    if isinstance(floor, bool) or not isinstance(floor, int) or floor < 0:
        raise ValueError(f"floor must be a whole number of at least 0, not {floor!r}")
    inner = 1 + floor / 2 + 2 * n / params.n_opt + rank / params.r_opt + completed / params.c_opt
    return round_half_away(lerp(params.r_min, params.r_max, math.log2(inner) / 3))


def npc_x(*, rank: float, completed: float, params: GenerationParams = _DEFAULT_PARAMS) -> float:
    """``x = max(0, C/C_opt - R/R_opt) / 3``: how far the party's experience runs ahead of its rank."""
    _check_inputs(1, rank, completed)
    return max(0.0, completed / params.c_opt - rank / params.r_opt) / 3


def npc_chance(rank: float, completed: float, params: GenerationParams = _DEFAULT_PARAMS) -> float:
    """SPEC's ``1/2 + 1/2 tanh(ln x)`` in its algebraically equal form ``x^2 / (1 + x^2)``.

    The closed form is exact at ``x = 0`` (chance 0), where the tanh-of-log form would need ln 0.
    """
    x = npc_x(rank=rank, completed=completed, params=params)
    x2 = x * x
    return x2 / (1 + x2)


def npc_floor_weights(floors: int) -> list[float]:
    """``P_i = 2i / (F (F - 1))`` for each floor i; floor 0 never, the deepest floor most often.

    With a single floor the formula divides by zero; the only floor then gets the NPC.
    """
    if isinstance(floors, bool) or not isinstance(floors, int) or floors < 1:
        raise ValueError(f"floors must be a whole number of at least 1, not {floors!r}")
    if floors == 1:
        return [1.0]
    denominator = floors * (floors - 1)
    return [2 * i / denominator for i in range(floors)]
