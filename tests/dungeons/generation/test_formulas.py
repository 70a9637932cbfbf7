"""Known values of SPEC section 5's formulas, worked out by hand, and their edge cases."""
from __future__ import annotations

import math

import pytest

from dungeons.generation import (
    GenerationParams,
    clamp,
    floor_count,
    lerp,
    npc_chance,
    npc_floor_weights,
    room_count,
    round_half_away,
)

P = GenerationParams()
# Non-default parameters: F in [1, 10], R in [3, 12], N_opt 2, R_opt 1, C_opt 5, k 0.25.
Q = GenerationParams(f_min=1, f_max=10, r_min=3, r_max=12, n_opt=2, r_opt=1, c_opt=5, k=0.25)


@pytest.mark.parametrize(
    ("x", "expected"),
    [(2.5, 3), (3.5, 4), (2.4999, 2), (-2.5, -3), (-0.4, 0), (0.5, 1), (0.49999999999999994, 0), (7.0, 7)],
)
def test_rounding_takes_halves_away_from_zero_unlike_python_round(x: float, expected: int) -> None:
    assert round_half_away(x) == expected


def test_lerp_and_clamp_follow_spec_argument_order() -> None:
    assert lerp(2, 6, 0.25) == 3
    assert clamp(0, -3, 14) == 0 and clamp(0, 20, 14) == 14 and clamp(0, 5, 14) == 5


@pytest.mark.parametrize(
    ("n", "rank", "completed", "expected"),
    [
        # 1/4 + 0 + 0 = 0.25; tanh(0.125) = 0.12435; 2 + 4 * 0.12435 = 2.497 -> 2 (just below the half)
        (1, 0.0, 0.0, 2),
        # 2/4 = 0.5; tanh(0.25) = 0.24492; 2 + 0.9797 = 2.980 -> 3
        (2, 0.0, 0.0, 3),
        # 4/4 + 3/3 + 10/10 = 3; tanh(1.5) = 0.90515; 2 + 3.6206 = 5.621 -> 6
        (4, 3.0, 10.0, 6),
        # 3/4 + 0.5 + 0.4 = 1.65; tanh(0.825) = 0.67778; 2 + 2.7111 = 4.711 -> 5
        (3, 1.5, 4.0, 5),
        # 2 + 3.333 + 5 = 10.33; tanh(5.17) ~ 0.99993; 5.9997 -> 6 = F_max
        (8, 10.0, 50.0, 6),
    ],
)
def test_floor_count_matches_hand_computed_values(n: int, rank: float, completed: float,
                                                  expected: int) -> None:
    assert floor_count(n=n, rank=rank, completed=completed, params=P) == expected


def test_floor_count_with_non_default_params() -> None:
    # 2/2 + 1/1 + 5/5 = 3; tanh(0.25 * 3) = 0.63515; 1 + 9 * 0.63515 = 6.716 -> 7
    assert floor_count(n=2, rank=1.0, completed=5.0, params=Q) == 7


def test_floor_count_with_k_zero_is_always_f_min() -> None:
    assert floor_count(n=10, rank=50.0, completed=500.0, params=GenerationParams(k=0)) == 2


def test_floor_count_defaults_to_spec_params() -> None:
    assert floor_count(n=4, rank=3.0, completed=10.0) == 6


@pytest.mark.parametrize(
    ("floor", "n", "rank", "completed", "expected"),
    [
        # 1 + 0 + 2/4 = 1.5; log2(1.5) / 3 = 0.19499; 4 + 4 * 0.19499 = 4.780 -> 5
        (0, 1, 0.0, 0.0, 5),
        # 1 + 1/2 + 1/2 = 2; log2(2) / 3 = 1/3; 4 + 1.3333 = 5.333 -> 5
        (1, 1, 0.0, 0.0, 5),
        # 1 + 0 + 2 + 1 + 1 = 5; log2(5) / 3 = 0.77398; 4 + 3.0959 = 7.096 -> 7
        (0, 4, 3.0, 10.0, 7),
        # 1 + 2.5 + 2 + 1 + 1 = 7.5; log2(7.5) / 3 = 0.96895; 4 + 3.8758 = 7.876 -> 8
        (5, 4, 3.0, 10.0, 8),
        # 1 + 0 + 4 + 3.333 + 5 = 13.33; log2 / 3 = 1.2458; 4 + 4.983 = 8.983 -> 9 > R_max
        (0, 8, 10.0, 50.0, 9),
    ],
)
def test_room_count_matches_hand_computed_values(
    floor: int, n: int, rank: float, completed: float, expected: int
) -> None:
    assert room_count(floor=floor, n=n, rank=rank, completed=completed, params=P) == expected


def test_room_count_with_non_default_params_reaches_and_exceeds_r_max() -> None:
    # floor 0: 1 + 0 + 2 + 1 + 1 = 5; 3 + 9 * log2(5) / 3 = 9.966 -> 10
    assert room_count(floor=0, n=2, rank=1.0, completed=5.0, params=Q) == 10
    # floor 6: 1 + 3 + 2 + 1 + 1 = 8; log2(8) / 3 = 1 exactly -> 12 = R_max
    assert room_count(floor=6, n=2, rank=1.0, completed=5.0, params=Q) == 12
    # floor 14: 1 + 7 + 4 = 12; 3 + 3 * log2(12) = 13.755 -> 14, above R_max as SPEC allows
    assert room_count(floor=14, n=2, rank=1.0, completed=5.0, params=Q) == 14


@pytest.mark.parametrize(
    ("rank", "completed", "expected"),
    [
        (0.0, 30.0, 0.5),  # x = (3 - 0) / 3 = 1 -> 1 / 2
        (0.0, 15.0, 0.2),  # x = 0.5 -> 0.25 / 1.25
        (0.0, 60.0, 0.8),  # x = 2 -> 4 / 5
        (3.0, 40.0, 0.5),  # x = (4 - 1) / 3 = 1
    ],
)
def test_npc_chance_matches_hand_computed_values(rank: float, completed: float, expected: float) -> None:
    assert npc_chance(rank=rank, completed=completed, params=P) == pytest.approx(expected)


@pytest.mark.parametrize(("rank", "completed"), [(0.0, 0.0), (3.0, 10.0), (6.0, 10.0), (30.0, 1.0)])
def test_npc_chance_is_zero_when_rank_keeps_up_with_experience(rank: float, completed: float) -> None:
    # x = 0 here; SPEC's tanh(ln x) form would need ln 0, the closed form gives exactly 0.
    assert npc_chance(rank=rank, completed=completed, params=P) == 0.0


@pytest.mark.parametrize("completed", [0.5, 3.0, 10.0, 31.0, 100.0, 1000.0])
def test_npc_chance_equals_spec_tanh_of_log_form_where_defined(completed: float) -> None:
    x = max(0.0, completed / 10 - 0.0) / 3
    spec_form = 0.5 + 0.5 * math.tanh(math.log(x))
    assert npc_chance(rank=0.0, completed=completed, params=P) == pytest.approx(spec_form, abs=1e-12)


def test_npc_chance_with_non_default_params() -> None:
    # x = (10/5 - 1/1) / 3 = 1/3 -> (1/9) / (10/9) = 0.1
    assert npc_chance(rank=1.0, completed=10.0, params=Q) == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("floors", "expected"),
    [
        (1, [1.0]),
        (2, [0.0, 1.0]),
        (3, [0.0, 1 / 3, 2 / 3]),
        (5, [0.0, 0.1, 0.2, 0.3, 0.4]),
    ],
)
def test_npc_floor_weights_are_2i_over_f_f_minus_1(floors: int, expected: list[float]) -> None:
    weights = npc_floor_weights(floors=floors)
    assert weights == pytest.approx(expected)
    assert math.fsum(weights) == pytest.approx(1.0)


@pytest.mark.parametrize("floors", [0, -1])
def test_npc_floor_weights_refuse_fewer_than_one_floor(floors: int) -> None:
    with pytest.raises(ValueError):
        npc_floor_weights(floors=floors)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 0, "rank": 0.0, "completed": 0.0},
        {"n": 2, "rank": -1.0, "completed": 0.0},
        {"n": 2, "rank": 0.0, "completed": float("nan")},
        {"n": 2.5, "rank": 0.0, "completed": 0.0},
    ],
)
def test_formulas_refuse_impossible_inputs(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        floor_count(**kwargs, params=P)


def test_room_count_refuses_a_negative_floor() -> None:
    with pytest.raises(ValueError):
        room_count(floor=-1, n=1, rank=0.0, completed=0.0, params=P)
