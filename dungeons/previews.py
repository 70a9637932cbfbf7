"""The designers' pictures of generation: formula curves over the inputs and many-seed frequencies."""
from __future__ import annotations

from dungeons import generation
from dungeons.charts import ROOM_STYLE, SERIES_COLORS, bar_chart, line_chart
from dungeons.generation.sampling import SampleStats


def _unique(values: list[float]) -> list[float]:
    return sorted(set(values))


def formula_charts(
    *, n: int, rank: float, completed: float, params: generation.GenerationParams
) -> list[str]:
    """Floor count, room count and NPC chance as curves around the chosen inputs."""
    c_top = max(50.0, 2 * completed)
    c_axis = [c_top * i / 50 for i in range(51)]
    party_sizes = [int(v) for v in _unique([1, n, 8])]
    ranks = _unique([0.0, rank, rank + params.r_opt])

    floors_by_n = line_chart(
        title="Floors F over party size N", x_label="N (players)", y_label="floors", step=True,
        series=[
            (f"R={rank:g}, C={completed:g}",
             [(x, generation.floor_count(n=x, rank=rank, completed=completed, params=params))
              for x in range(1, 13)]),
            ("R=0, C=0",
             [(x, generation.floor_count(n=x, rank=0.0, completed=0.0, params=params))
              for x in range(1, 13)]),
        ],
        y_max=params.f_max + 1,
    )
    floors_by_c = line_chart(
        title="Floors F over completed dungeons C", x_label="C (mean completed)", y_label="floors", step=True,
        series=[
            (f"N={size}, R={rank:g}",
             [(c, generation.floor_count(n=size, rank=rank, completed=c, params=params)) for c in c_axis])
            for size in party_sizes
        ],
        y_max=params.f_max + 1,
    )
    deepest = max(params.f_max, 1)
    rooms_by_floor = line_chart(
        title="Rooms per floor over the floor index", x_label="floor i", y_label="rooms", step=True,
        series=[
            (f"N={size}, R={rank:g}, C={completed:g}",
             [(i, generation.room_count(floor=i, n=size, rank=rank, completed=completed, params=params))
              for i in range(deepest)])
            for size in party_sizes
        ],
    )
    rooms_by_c = line_chart(
        title="Rooms on floor 0 over C", x_label="C (mean completed)", y_label="rooms", step=True,
        series=[
            (f"N={size}, R={rank:g}",
             [(c, generation.room_count(floor=0, n=size, rank=rank, completed=c, params=params))
              for c in c_axis])
            for size in party_sizes
        ],
    )
    npc_by_c = line_chart(
        title="NPC chance over C (one-guild party)", x_label="C (mean completed)", y_label="chance",
        series=[
            (f"R={r:g}", [(c, generation.npc_chance(rank=r, completed=c, params=params)) for c in c_axis])
            for r in ranks
        ],
        y_max=1.0,
    )
    return [floors_by_n, floors_by_c, rooms_by_floor, rooms_by_c, npc_by_c]


def frequency_charts(stats: SampleStats) -> list[str]:
    """Room-kind shares, floor counts and NPC floors over the sampled seeds, with expectations marked."""
    shares = stats.kind_shares()
    kinds = bar_chart(
        title=f"Room kinds over {stats.dungeons} seeds (share)",
        bars=[(kind, share, ROOM_STYLE[kind][0]) for kind, share in shares.items()],
    )
    per_dungeon = bar_chart(
        title="Rooms of each kind per dungeon (mean)",
        bars=[(kind, value, ROOM_STYLE[kind][0]) for kind, value in stats.kinds_per_dungeon().items()],
        value_format="{:.2f}",
    )
    room_counts = sorted(stats.room_counts)
    floors_total = sum(stats.room_counts.values()) or 1
    lengths = bar_chart(
        title="Floor lengths (share of floors)",
        bars=[(f"{count} rooms", stats.room_counts[count] / floors_total, SERIES_COLORS[0])
              for count in room_counts],
    )
    npc_floors = len(stats.expected_npc_floor_weights)
    npc_total = stats.npc_dungeons or 1
    npc = bar_chart(
        title=f"Floor of the {stats.npc_dungeons} NPCs (dashes: 2i/(F(F-1)))",
        bars=[(f"floor {i}", stats.npc_floors[i] / npc_total, SERIES_COLORS[2]) for i in range(npc_floors)],
        expected=stats.expected_npc_floor_weights,
    )
    return [kinds, per_dungeon, lengths, npc]
