"""sample_dungeons: many-seed statistics used by the admin page and dungeon_report."""
from __future__ import annotations

import pytest

from dungeons.generation import GenerationParams
from dungeons.generation.sampling import sample_dungeons


def test_sampling_counts_every_room_and_reports_the_formulas() -> None:
    calls: list[tuple[int, int]] = []
    stats = sample_dungeons(
        kind="ordinary", n=4, rank=3.0, completed=10.0, same_guild=True, params=GenerationParams(),
        samples=40, seed=1, on_progress=lambda done, total: calls.append((done, total)),
    )
    assert stats.dungeons == 40 and stats.floor_counts == {6: 40}
    assert stats.rooms == sum(stats.room_kinds.values()) == 40 * (7 * 3 + 8 * 3)
    assert stats.room_kinds["boss"] == stats.room_kinds["rest"] == 240
    assert abs(sum(stats.kind_shares().values()) - 1) < 1e-9
    assert stats.expected_npc_chance == 0.0 and stats.npc_dungeons == 0
    assert calls[-1] == (40, 40) and len(calls) == 40


def test_sampling_is_reproducible_and_refuses_zero_samples() -> None:
    args = {"kind": "frenzy", "n": 2, "rank": 0.0, "completed": 30.0, "same_guild": True,
            "params": GenerationParams()}
    assert sample_dungeons(**args, samples=30, seed=4) == sample_dungeons(**args, samples=30, seed=4)
    with pytest.raises(ValueError):
        sample_dungeons(**args, samples=0, seed=4)
