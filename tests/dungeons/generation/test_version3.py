"""Generator version 3 (``sequential``): SPEC section 5's rules, as versions 1-2 state them, drawn in
one documented order from the caller's rng; plans cached without changing any result."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dungeons.generation import (
    KIND_RULES,
    LOTTERY,
    NPC_KINDS,
    STORY_ITEMS,
    Dungeon,
    DungeonKind,
    Floor,
    GenerationParams,
    Room,
    RoomKind,
    draw_weighted,
    floor_count,
    generate_dungeon,
    lottery_weights,
    npc_candidates,
    npc_chance,
    npc_floor_weights,
    room_count,
    sequential,
)
from dungeons.generation.rules import LOTTERY_FALLBACK
from dungeons.generation.sequential import floor_layout_sequential
from tests.dungeons.generation.test_properties import inputs, param_sets, seeds

FORBIDDEN = (RoomKind.REST, RoomKind.BOSS)


def pick(rng: random.Random, size: int) -> int:
    """Version 3's uniform choice: ``int(random() * size)``."""
    return int(rng.random() * size)


def reference_floor(
    kind: DungeonKind, floor: int, rooms: int, n: int, completed: float, params: GenerationParams,
    rng: random.Random,
) -> list[RoomKind]:
    """SPEC 5.3 step by step with the public helpers, drawing as docs/generation.md says for v3."""
    rules = KIND_RULES[kind]
    fixed = rules.fixed_priority[:rooms]
    tail, marked = fixed[: len(rules.tail)], fixed[len(rules.tail) :]
    layout: list[RoomKind | None] = [None] * rooms
    for back, room_kind in enumerate(tail):
        layout[rooms - 1 - back] = room_kind
    free = list(range(rooms - len(tail)))
    for room_kind in marked:
        layout[free.pop(pick(rng, len(free)))] = room_kind
    for index in free:
        counts = Counter(k for k in layout if k is not None)
        weights = lottery_weights(counts=counts, floor=floor, n=n, completed=completed, params=params,
                                  banned=rules.banned)
        drawn = draw_weighted(weights, rng)
        layout[index] = LOTTERY_FALLBACK if drawn is None else LOTTERY[drawn].kind
    return [k for k in layout if k is not None]


def reference_dungeon(
    kind: str, n: int, rank: float, completed: float, same_guild: bool, params: GenerationParams,
    rng: random.Random, candidates: tuple[str, ...] = NPC_KINDS,
) -> Dungeon:
    """Version 3 written plainly from SPEC 5 and the documented draw order, fresh objects throughout."""
    dungeon_kind = DungeonKind(kind)
    floors = floor_count(n=n, rank=rank, completed=completed, params=params)
    layouts = [
        reference_floor(dungeon_kind, i, room_count(floor=i, n=n, rank=rank, completed=completed,
                                                    params=params), n, completed, params, rng)
        for i in range(floors)
    ]
    rooms: list[list[Room]] = [[Room(k) for k in layout] for layout in layouts]
    chance = npc_chance(rank=rank, completed=completed, params=params) if same_guild else 0.0
    npc, npc_kind = None, None
    if rng.random() < chance:
        npc_floor = draw_weighted(npc_floor_weights(floors=floors), rng)
        assert npc_floor is not None
        eligible = [j for j, room in enumerate(rooms[npc_floor]) if room.kind not in FORBIDDEN]
        if eligible:
            npc = (npc_floor, eligible[pick(rng, len(eligible))])
            npc_kind = candidates[pick(rng, len(candidates))]
            rooms[npc_floor][npc[1]] = Room(RoomKind.STORY, npc_kind=npc_kind)
    sources = []
    for i, floor_rooms in enumerate(rooms):
        if rng.random() >= params.story_item_chance:
            continue
        eligible = [j for j, room in enumerate(floor_rooms) if room.kind not in FORBIDDEN and (i, j) != npc]
        if eligible:
            j = eligible[pick(rng, len(eligible))]
            item = STORY_ITEMS[pick(rng, len(STORY_ITEMS))]
            floor_rooms[j] = Room(RoomKind.STORY, story_item=item)
            sources.append((i, item))
    for i, item in sources:
        if rng.random() >= params.sealed_room_chance or i == floors - 1:
            continue
        target = i + 1 + pick(rng, floors - i - 1)
        eligible = [j for j, room in enumerate(rooms[target])
                    if room.kind not in (*FORBIDDEN, RoomKind.STORY)]
        if eligible:
            rooms[target][eligible[pick(rng, len(eligible))]] = Room(RoomKind.STORY, seal=item)
    return Dungeon(
        kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
        floors=tuple(Floor(index=i, rooms=tuple(floor_rooms)) for i, floor_rooms in enumerate(rooms)),
        npc=npc, npc_kind=npc_kind, npc_chance=chance, generator_version=3,
    )


# Lottery constants small enough that weights hit 0 and the caps, with fractional C.
lottery_params = st.builds(
    GenerationParams,
    treasure_base=st.sampled_from([0.0, 1.0, 10.0]),
    treasure_cap=st.sampled_from([0.0, 2.0, 14.0]),
    trap_base=st.sampled_from([0.0, 2.0]),
    trap_cap=st.sampled_from([0.0, 1.5, 8.0]),
    enemy_base=st.sampled_from([0.0, 1.0, 30.0]),
    enemy_cap=st.sampled_from([0.0, 3.0, 40.0]),
    story_item_chance=st.sampled_from([0.0, 0.3, 1.0]),
    sealed_room_chance=st.sampled_from([0.0, 0.5, 1.0]),
)


@given(
    st.sampled_from([DungeonKind.ORDINARY, DungeonKind.FRENZY]), st.integers(0, 9), st.integers(1, 14),
    st.integers(1, 10), st.floats(0, 30, allow_nan=False), lottery_params, seeds,
)
def test_a_floor_is_the_spec_procedure_with_the_documented_draws(
    kind: DungeonKind, floor: int, rooms: int, n: int, completed: float, p: GenerationParams, seed: int,
) -> None:
    expected = reference_floor(kind, floor, rooms, n, completed, p, random.Random(seed))
    laid = floor_layout_sequential(kind=kind, floor=floor, rooms=rooms, n=n, completed=completed, params=p,
                                   rng=random.Random(seed))
    assert list(laid) == expected


@given(inputs, st.one_of(param_sets, lottery_params), seeds)
def test_a_dungeon_is_the_spec_procedure_with_the_documented_draws(
    args: dict, p: GenerationParams, seed: int
) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=3)
    assert d == reference_dungeon(**args, params=p, rng=random.Random(seed))


def test_the_reference_agrees_on_npc_kinds_and_story_rich_dungeons() -> None:
    rich = GenerationParams(story_item_chance=0.6, sealed_room_chance=0.8)
    candidates = npc_candidates({"jeweler", "shaman"})
    found = Counter()
    for seed in range(300):
        d = generate_dungeon("ordinary", 3, 0.0, 60.0, True, rich, random.Random(seed), npc_kinds=candidates)
        assert d == reference_dungeon("ordinary", 3, 0.0, 60.0, True, rich, random.Random(seed), candidates)
        found.update(npc=d.npc is not None, seal=any(room.seal for _, _, room in d.rooms()))
    assert found["npc"] > 100 and found["seal"] > 100  # the rare branches really ran


@given(st.integers(min_value=1, max_value=2**53 - 1))
def test_a_uniform_choice_never_reaches_its_size(size: int) -> None:
    largest_u = math.nextafter(1.0, 0.0)  # random() < 1
    assert int(largest_u * size) < size


def test_equal_parameters_share_a_plan_and_give_equal_dungeons() -> None:
    a = generate_dungeon("ordinary", 4, 3.0, 10.0, True, GenerationParams(k=0.7), random.Random(3))
    b = generate_dungeon("ordinary", 4, 3.0, 10.0, True, GenerationParams(k=0.7), random.Random(3))
    assert a == b and a.params is not b.params
    other = generate_dungeon("ordinary", 4, 3.0, 10.0, True, GenerationParams(k=0.2), random.Random(3))
    assert len(other.floors) != len(a.floors)  # a retuned parameter is a new plan, not the cached one


@pytest.mark.parametrize(
    ("field", "good", "bad"), [("n", 1, True), ("rank", 0.0, False), ("completed", 1.0, True)]
)
def test_a_cached_plan_never_lets_a_bad_input_through(field: str, good: object, bad: object) -> None:
    args: dict = {"kind": "ordinary", "n": 1, "rank": 0.0, "completed": 1.0, "same_guild": True}
    generate_dungeon(**args | {field: good}, params=GenerationParams(), rng=random.Random(1))
    assert bad == good  # True == 1 and False == 0.0: equal, but booleans are no numbers here
    with pytest.raises(ValueError):
        generate_dungeon(**args | {field: bad}, params=GenerationParams(), rng=random.Random(1))


def test_the_plan_cache_stays_bounded() -> None:
    for i in range(sequential._PLANS_MAX + 50):
        generate_dungeon("frenzy", 1, 0.0, float(i), False, GenerationParams(), random.Random(i))
        assert len(sequential._PLANS) <= sequential._PLANS_MAX


def test_plain_rooms_are_shared_values_equal_to_fresh_ones() -> None:
    d = generate_dungeon("ordinary", 4, 3.0, 10.0, True, GenerationParams(), random.Random(9))
    for _, _, room in d.rooms():
        assert room == Room(room.kind, room.npc_kind, room.story_item, room.seal)
        assert hash(room) == hash(Room(room.kind, room.npc_kind, room.story_item, room.seal))
    with pytest.raises(AttributeError):  # frozen: sharing them is safe
        d.floors[0].rooms[0].kind = RoomKind.BOSS  # type: ignore[misc]
