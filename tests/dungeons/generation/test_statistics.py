"""Distribution tests over many seeds: the lottery follows X/Y/Z, the NPC chance and floor choice
follow their formulas. Fixed seeds keep them deterministic; bounds are chi-square at p = 0.001 or
four binomial standard deviations."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import product

import pytest

from dungeons.generation import (
    NPC_KINDS,
    SUPPORTED_GENERATOR_VERSIONS,
    DungeonKind,
    GenerationParams,
    RoomKind,
    floor_count,
    floor_layout,
    generate_dungeon,
    npc_chance,
    npc_floor_weights,
)
from dungeons.generation.sequential import floor_layout_sequential
from tests.dungeons.generation.stats import assert_follows, assert_rate_within_sigmas

TREASURE, TRAP, ENEMY = RoomKind.TREASURE, RoomKind.TRAP, RoomKind.ENEMY

# Every distribution below holds for each generator version: floor layouts of versions 1-2 (one
# function) and 3; NPCs and story items of versions 2 and 3 (version 1 draws them exactly as version 2,
# from the same streams, which the golden digests pin).
layouts = pytest.mark.parametrize("floor_layout", [floor_layout, floor_layout_sequential], ids=["v1-2", "v3"])
versions = pytest.mark.parametrize(
    "version", [v for v in SUPPORTED_GENERATOR_VERSIONS if v >= 2], ids=lambda v: f"v{v}"
)
Layout = Callable[..., tuple[RoomKind, ...]]


def lottery_outcomes(rooms: tuple[RoomKind, ...], lottery_rooms: int) -> tuple[RoomKind, ...]:
    """The multiset drawn by the lottery: all rooms before rest/boss minus one treasure, one trap."""
    counts = Counter(rooms[:-2])
    counts[TREASURE] -= 1
    counts[TRAP] -= 1
    drawn = tuple(sorted(counts.elements()))
    assert len(drawn) == lottery_rooms
    return drawn


@layouts
def test_single_lottery_room_follows_x_y_z(floor_layout: Layout) -> None:
    # 5 rooms: boss, rest, treasure, trap fixed, one lottery room. Floor 0, N = 4, C = 10:
    # X = 13, Y = 8, Z = 30 (see test_floor_layout) -> probabilities 13/51, 8/51, 30/51.
    rng = random.Random(2024)
    p = GenerationParams()
    observed: Counter = Counter()
    for _ in range(20_000):
        rooms = floor_layout(kind=DungeonKind.ORDINARY, floor=0, rooms=5, n=4, completed=10.0, params=p,
                             rng=rng)
        observed[lottery_outcomes(rooms, 1)[0]] += 1
    assert_follows(observed, {TREASURE: 13 / 51, TRAP: 8 / 51, ENEMY: 30 / 51})


@layouts
def test_lottery_weights_update_after_each_draw(floor_layout: Layout) -> None:
    # Small bases make the counts matter: with N = 2, C = 2 on floor 0 and bases 0, 0, 2
    # the first draw has X = 0 + 2 - 1 = 1, Y = 1, Z = 2; the second draw sees the first.
    p = GenerationParams(treasure_base=0, trap_base=0, enemy_base=2)

    def weights(extra: Counter) -> dict[RoomKind, float]:
        counts = Counter({TREASURE: 1, TRAP: 1}) + extra
        return {TREASURE: max(0, 2 - counts[TREASURE]), TRAP: max(0, 2 - counts[TRAP]),
                ENEMY: max(0, 2 - counts[ENEMY])}

    expected: Counter = Counter()
    for first, second in product((TREASURE, TRAP, ENEMY), repeat=2):
        w1 = weights(Counter())
        w2 = weights(Counter({first: 1}))
        if w1[first] == 0 or w2[second] == 0:
            continue
        probability = w1[first] / sum(w1.values()) * w2[second] / sum(w2.values())
        expected[tuple(sorted((first, second)))] += probability

    rng = random.Random(77)
    observed: Counter = Counter()
    for _ in range(20_000):
        rooms = floor_layout(kind=DungeonKind.ORDINARY, floor=0, rooms=6, n=2, completed=2.0, params=p,
                             rng=rng)
        observed[lottery_outcomes(rooms, 2)] += 1
    assert_follows(observed, dict(expected))
    # the dependency is real: two treasures in a row is impossible (X drops to 0 after the first)
    assert observed[(TREASURE, TREASURE)] == 0


@layouts
def test_frenzy_lottery_follows_y_and_z_only(floor_layout: Layout) -> None:
    # Frenzy, 3 rooms: boss, trap, one lottery room. N = 4, C = 3, floor 1:
    # X = 0, Y = clamp(0, 2 + 3 - 1, 8) = 4, Z = clamp(0, 30 + 1 - 0, 40) = 31
    rng = random.Random(5)
    observed: Counter = Counter()
    for _ in range(20_000):
        rooms = floor_layout(kind=DungeonKind.FRENZY, floor=1, rooms=3, n=4, completed=3.0,
                             params=GenerationParams(), rng=rng)
        counts = Counter(rooms[:-1])
        counts[TRAP] -= 1
        (drawn,) = counts.elements()
        observed[drawn] += 1
    assert_follows(observed, {TREASURE: 0.0, TRAP: 4 / 35, ENEMY: 31 / 35})


def npc_dungeons(count: int, seed: int, **kw: object) -> list:
    master = random.Random(seed)
    args: dict = {"kind": "ordinary", "n": 4, "same_guild": True, "params": GenerationParams()} | kw
    return [generate_dungeon(**args, rng=random.Random(master.getrandbits(64))) for _ in range(count)]


@versions
def test_npc_appears_with_the_formula_chance(version: int) -> None:
    for completed, expected in ((30.0, 0.5), (15.0, 0.2)):
        assert abs(npc_chance(rank=0.0, completed=completed) - expected) < 1e-12
        dungeons = npc_dungeons(3_000, seed=int(completed), rank=0.0, completed=completed, version=version)
        hits = sum(1 for d in dungeons if d.npc is not None)
        assert_rate_within_sigmas(hits, len(dungeons), expected)


@versions
def test_npc_floor_follows_2i_over_f_f_minus_1(version: int) -> None:
    # x = 10 -> chance 100/101; F = 6 -> weights 0, 1/15, ..., 5/15 (floor 0 never)
    dungeons = npc_dungeons(3_000, seed=11, rank=0.0, completed=300.0, version=version)
    floors = floor_count(n=4, rank=0.0, completed=300.0)
    assert floors == 6
    observed = Counter(d.npc[0] for d in dungeons if d.npc is not None)
    assert_follows(observed, dict(enumerate(npc_floor_weights(floors=floors))))


@versions
def test_npc_room_is_uniform_among_rooms_other_than_rest_and_boss(version: int) -> None:
    sampled = npc_dungeons(3_000, seed=12, rank=0.0, completed=300.0, version=version)
    dungeons = [d for d in sampled if d.npc is not None]
    # Compare like with like: the floors of the most common length (here 11 rooms, 9 eligible).
    length = Counter(len(d.floors[d.npc[0]].rooms) for d in dungeons).most_common(1)[0][0]
    observed = Counter(d.npc[1] for d in dungeons if len(d.floors[d.npc[0]].rooms) == length)
    assert sum(observed.values()) > 1_000
    assert_follows(observed, {j: 1 / (length - 2) for j in range(length - 2)})


@versions
def test_npc_kind_is_uniform_among_candidates(version: int) -> None:
    dungeons = npc_dungeons(2_400, seed=13, rank=0.0, completed=300.0, version=version)
    observed = Counter(d.npc_kind for d in dungeons if d.npc_kind is not None)
    assert_follows(observed, {kind: 1 / len(NPC_KINDS) for kind in NPC_KINDS})


@versions
def test_story_items_appear_per_floor_with_their_chance(version: int) -> None:
    p = GenerationParams(story_item_chance=0.3)
    dungeons = npc_dungeons(1_000, seed=14, rank=3.0, completed=10.0, params=p, same_guild=False,
                            version=version)
    floors = [floor for d in dungeons for floor in d.floors]
    hits = sum(1 for floor in floors if any(room.story_item for room in floor.rooms))
    assert_rate_within_sigmas(hits, len(floors), 0.3)
