"""Many-seed statistics of generated dungeons, for the admin page, dungeon_report and balancing scripts."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from dungeons.generation.formulas import floor_count, npc_chance, npc_floor_weights
from dungeons.generation.generator import generate_dungeon
from dungeons.generation.params import GenerationParams
from dungeons.generation.rules import RoomKind

ProgressCallback = Callable[[int, int], None]


@dataclass(slots=True)
class SampleStats:
    """What ``samples`` dungeons of one input set looked like, plus the formulas' expectations."""

    dungeons: int = 0
    rooms: int = 0
    floor_counts: Counter[int] = field(default_factory=Counter)
    room_counts: Counter[int] = field(default_factory=Counter)  # rooms on a floor -> floors
    room_kinds: Counter[str] = field(default_factory=Counter)
    npc_dungeons: int = 0
    npc_floors: Counter[int] = field(default_factory=Counter)
    npc_kinds: Counter[str] = field(default_factory=Counter)
    story_items: Counter[str] = field(default_factory=Counter)
    expected_floors: int = 0
    expected_npc_chance: float = 0.0
    expected_npc_floor_weights: list[float] = field(default_factory=list)

    def kind_shares(self) -> dict[str, float]:
        """Share of all rooms per room kind, every kind listed (0 when absent)."""
        total = self.rooms or 1
        return {kind.value: self.room_kinds[kind.value] / total for kind in RoomKind}

    def kinds_per_dungeon(self) -> dict[str, float]:
        total = self.dungeons or 1
        return {kind.value: self.room_kinds[kind.value] / total for kind in RoomKind}

    @property
    def npc_rate(self) -> float:
        return self.npc_dungeons / self.dungeons if self.dungeons else 0.0


def sample_dungeons(
    *,
    kind: str,
    n: int,
    rank: float,
    completed: float,
    same_guild: bool,
    params: GenerationParams,
    samples: int,
    seed: int,
    on_progress: ProgressCallback | None = None,
) -> SampleStats:
    """Generate ``samples`` dungeons, each from a seed drawn from ``random.Random(seed)``."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    floors = floor_count(n=n, rank=rank, completed=completed, params=params)
    stats = SampleStats(
        expected_floors=floors,
        expected_npc_chance=npc_chance(rank=rank, completed=completed, params=params) if same_guild else 0.0,
        expected_npc_floor_weights=npc_floor_weights(floors=floors),
    )
    master = random.Random(seed)
    for done in range(1, samples + 1):
        dungeon = generate_dungeon(
            kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
            rng=random.Random(master.getrandbits(64)),
        )
        stats.dungeons += 1
        stats.floor_counts[len(dungeon.floors)] += 1
        for floor in dungeon.floors:
            stats.room_counts[len(floor.rooms)] += 1
            stats.rooms += len(floor.rooms)
            stats.room_kinds.update(floor.kinds)
            stats.story_items.update(room.story_item for room in floor.rooms if room.story_item)
        if dungeon.npc is not None and dungeon.npc_kind is not None:
            stats.npc_dungeons += 1
            stats.npc_floors[dungeon.npc[0]] += 1
            stats.npc_kinds[dungeon.npc_kind] += 1
        if on_progress is not None:
            on_progress(done, samples)
    return stats
