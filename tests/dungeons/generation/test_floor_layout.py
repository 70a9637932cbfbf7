"""Room kinds of one floor: fixed rooms, short floors, the X/Y/Z lottery weights, all-zero weights."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from dungeons.generation import DungeonKind, GenerationParams, RoomKind, floor_layout, lottery_weights
from dungeons.generation.generator import draw_weighted
from dungeons.generation.sequential import floor_layout_sequential

P = GenerationParams()
ORDINARY, FRENZY = DungeonKind.ORDINARY, DungeonKind.FRENZY
BOSS, REST, TREASURE = RoomKind.BOSS, RoomKind.REST, RoomKind.TREASURE
TRAP, ENEMY = RoomKind.TRAP, RoomKind.ENEMY


Layout = Callable[..., tuple]


@pytest.fixture(params=[floor_layout, floor_layout_sequential], ids=["versions-1-2", "version-3"])
def layout(request: pytest.FixtureRequest) -> Layout:
    """One floor's room kinds as each generator version lays it out (the rules are the same)."""
    lay = request.param

    def make(kind: DungeonKind, rooms: int, seed: int = 1, params: GenerationParams = P, **kw: object
             ) -> tuple:
        args = {"floor": 0, "n": 4, "completed": 10.0} | kw
        return lay(kind=kind, rooms=rooms, params=params, rng=random.Random(seed), **args)  # type: ignore

    return make


@pytest.mark.parametrize(
    ("rooms", "expected"),
    [(1, (BOSS,)), (2, (REST, BOSS)), (3, (TREASURE, REST, BOSS))],
)
def test_short_ordinary_floor_keeps_boss_then_rest_then_treasure(
    layout: Layout, rooms: int, expected: tuple
) -> None:
    assert layout(ORDINARY, rooms) == expected


def test_four_room_ordinary_floor_is_exactly_the_fixed_rooms(layout: Layout) -> None:
    for seed in range(20):
        rooms = layout(ORDINARY, 4, seed=seed)
        assert rooms[2:] == (REST, BOSS)
        assert sorted(rooms[:2]) == sorted((TREASURE, TRAP))


@pytest.mark.parametrize(("rooms", "expected"), [(1, (BOSS,)), (2, (TRAP, BOSS))])
def test_short_frenzy_floor_keeps_boss_then_trap(layout: Layout, rooms: int, expected: tuple) -> None:
    assert layout(FRENZY, rooms) == expected


def test_treasure_and_trap_are_placed_at_random_positions(layout: Layout) -> None:
    positions = Counter(layout(ORDINARY, 8, seed=seed).index(TRAP) for seed in range(200))
    assert len(positions) > 3  # not always the same room


def test_lottery_weights_count_the_pre_marked_rooms() -> None:
    # floor 0, N = 4, C = 10 after treasure and trap are marked:
    # X = clamp(0, 10 + 4 - 1, 14) = 13, Y = clamp(0, 2 + 10 - 1, 8) = 8, Z = clamp(0, 30 + 0 - 0, 40) = 30
    counts = {TREASURE: 1, TRAP: 1}
    assert lottery_weights(counts=counts, floor=0, n=4, completed=10.0, params=P) == (13, 8, 30)


def test_lottery_weights_clamp_to_both_ends() -> None:
    # X = clamp(0, 10 + 8 - 1, 14) = 14; Y = clamp(0, 2 + 0 - 3, 8) = 0; Z = clamp(0, 30 + 2 - 3, 40) = 29
    counts = {TREASURE: 1, TRAP: 3, ENEMY: 3}
    assert lottery_weights(counts=counts, floor=2, n=8, completed=0.0, params=P) == (14, 0, 29)


def test_lottery_weights_use_fractional_mean_completed() -> None:
    # Y = 2 + 2.5 - 1 = 3.5
    weights = lottery_weights(counts={TREASURE: 1, TRAP: 1}, floor=0, n=1, completed=2.5, params=P)
    assert weights[1] == 3.5


def test_lottery_weights_with_non_default_constants() -> None:
    q = GenerationParams(treasure_base=1, treasure_cap=3, trap_base=0, trap_cap=2, enemy_base=5, enemy_cap=6)
    # X = clamp(0, 1 + 4 - 0, 3) = 3; Y = clamp(0, 0 + 1 - 0, 2) = 1; Z = clamp(0, 5 + 3 - 1, 6) = 6
    assert lottery_weights(counts={ENEMY: 1}, floor=3, n=4, completed=1.0, params=q) == (3, 1, 6)


def test_frenzy_lottery_never_draws_treasure(layout: Layout) -> None:
    weights = lottery_weights(counts={}, floor=0, n=4, completed=10.0, params=P, banned=frozenset({TREASURE}))
    assert weights[0] == 0
    for seed in range(100):
        rooms = layout(FRENZY, 9, seed=seed)
        assert TREASURE not in rooms and REST not in rooms
        assert rooms[-1] == BOSS and rooms.count(TRAP) >= 1


def test_all_zero_weights_make_enemy_rooms(layout: Layout) -> None:
    zero_caps = GenerationParams(treasure_cap=0, trap_cap=0, enemy_cap=0)
    rooms = layout(ORDINARY, 8, params=zero_caps)
    assert sorted(rooms[:6]) == sorted((TREASURE, TRAP, ENEMY, ENEMY, ENEMY, ENEMY))
    # and when the bases bring every weight down to zero: X = 0 + 1 - 1, Y = 0 + 0 - 1 -> 0, Z = 0
    zero_bases = GenerationParams(treasure_base=0, trap_base=0, enemy_base=0)
    rooms = layout(ORDINARY, 8, params=zero_bases, n=1, completed=0.0)
    assert rooms.count(ENEMY) == 4


def test_draw_weighted_returns_none_for_all_zero_and_never_picks_zero_weight() -> None:
    rng = random.Random(3)
    assert draw_weighted([0.0, 0.0, 0.0], rng) is None
    assert {draw_weighted([0.0, 2.0, 0.0], rng) for _ in range(100)} == {1}
