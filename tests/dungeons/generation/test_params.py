"""GenerationParams: SPEC's defaults and the validation that keeps dungeons playable."""
from __future__ import annotations

import dataclasses

import pytest

from dungeons.generation import GenerationParams, validation_errors


def test_defaults_are_specs() -> None:
    p = GenerationParams()
    assert (p.f_min, p.f_max, p.r_min, p.r_max, p.n_opt, p.r_opt, p.c_opt, p.k) == (2, 6, 4, 8, 4, 3, 10, 0.5)
    # and the lottery constants reproduce X, Y, Z of SPEC
    assert (p.treasure_base, p.treasure_cap, p.trap_base, p.trap_cap, p.enemy_base, p.enemy_cap) == (
        10, 14, 2, 8, 30, 40,
    )


def test_spec_fields_come_first_in_spec_order() -> None:
    names = [f.name for f in dataclasses.fields(GenerationParams)]
    assert names[:8] == ["f_min", "f_max", "r_min", "r_max", "n_opt", "r_opt", "c_opt", "k"]
    assert GenerationParams(2, 6, 4, 8, 4, 3, 10, 0.5) == GenerationParams()


def test_params_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        GenerationParams().k = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"f_min": 0},
        {"f_min": 5, "f_max": 4},
        {"r_min": 0},
        {"r_min": 9},
        {"n_opt": 0},
        {"c_opt": -1},
        {"k": -0.1},
        {"f_max": 2.5},
        {"story_item_chance": 1.5},
        {"trap_cap": -1},
        {"k": float("inf")},
    ],
)
def test_unplayable_params_are_refused(changes: dict) -> None:
    with pytest.raises(ValueError):
        GenerationParams(**changes)


def test_validation_errors_name_the_field() -> None:
    p = GenerationParams()
    assert validation_errors(p) == []
    assert any("r_max" in problem for problem in validation_errors(_unchecked(r_max=3)))


def _unchecked(**changes: object) -> GenerationParams:
    """A GenerationParams that bypasses __post_init__, to look at the messages themselves."""
    p = object.__new__(GenerationParams)
    for f in dataclasses.fields(GenerationParams):
        object.__setattr__(p, f.name, changes.get(f.name, f.default))
    return p
