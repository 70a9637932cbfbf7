"""generate_dungeon: the SPEC call, reproducibility, NPC and story rules, kinds, edge cases."""
from __future__ import annotations

import random

import pytest

from dungeons.generation import (
    GENERATOR_VERSION,
    NPC_KINDS,
    STORY_ITEMS,
    SUPPORTED_GENERATOR_VERSIONS,
    Dungeon,
    DungeonKind,
    GenerationParams,
    RoomKind,
    floor_count,
    generate_dungeon,
    room_count,
)
from dungeons.generation.sequential import floor_layout_sequential

P = GenerationParams()
ROOM_KINDS = {"enemy", "trap", "treasure", "story", "rest", "boss"}


@pytest.fixture(params=SUPPORTED_GENERATOR_VERSIONS, ids=lambda v: f"v{v}")
def version(request: pytest.FixtureRequest) -> int:
    """Every rule holds in every version the engine still runs."""
    return request.param  # type: ignore[no-any-return]


def make(seed: int = 7, **kw: object) -> Dungeon:
    args: dict = {"kind": "ordinary", "n": 4, "rank": 3.0, "completed": 10.0, "same_guild": True, "params": P}
    args.update(kw)
    return generate_dungeon(**args, rng=random.Random(seed))


def test_the_spec_call_works_and_gives_the_formula_sizes() -> None:
    p = GenerationParams()
    d = generate_dungeon(kind="ordinary", n=4, rank=3.0, completed=10.0, same_guild=True, params=p,
                         rng=random.Random(7))
    assert len(d.floors) == floor_count(n=4, rank=3.0, completed=10.0, params=p) == 6
    for i, floor in enumerate(d.floors):
        assert floor.index == i
        assert len(floor.rooms) == room_count(floor=i, n=4, rank=3.0, completed=10.0, params=p)
        assert {room.kind for room in floor.rooms} <= ROOM_KINDS
    assert d.generator_version == GENERATOR_VERSION
    assert d.npc is None or isinstance(d.npc, tuple)


def test_same_inputs_and_seed_give_an_equal_dungeon(version: int) -> None:
    first = make(seed=42, completed=80.0, rank=0.0, version=version)
    assert make(seed=42, completed=80.0, rank=0.0, version=version) == first


def test_different_seeds_give_different_dungeons(version: int) -> None:
    assert len({make(seed=s, version=version).floors for s in range(10)}) > 1


@pytest.mark.parametrize("old", [1, 2])
def test_versions_1_and_2_consume_one_draw_of_the_caller_rng(old: int) -> None:
    rng = random.Random(5)
    generate_dungeon(kind="ordinary", n=4, rank=3.0, completed=10.0, same_guild=True, params=P, rng=rng,
                     version=old)
    reference = random.Random(5)
    reference.getrandbits(64)
    assert rng.random() == reference.random()


def test_version_3_draws_from_the_caller_rng_floor_by_floor_first() -> None:
    rng = random.Random(5)
    d = generate_dungeon(kind="ordinary", n=4, rank=3.0, completed=10.0, same_guild=True,
                         params=GenerationParams(story_item_chance=0.0), rng=rng)
    assert d.generator_version == 3
    reference = random.Random(5)
    for i, floor in enumerate(d.floors):
        laid = floor_layout_sequential(kind=DungeonKind.ORDINARY, floor=i, rooms=len(floor.rooms), n=4,
                                       completed=10.0, params=P, rng=reference)
        assert laid == floor.kinds
    reference.random()  # the NPC draw (chance 0 here: no further draws)
    for _ in d.floors:  # one story-item draw per floor (chance 0: no hits)
        reference.random()
    assert rng.random() == reference.random()


def test_story_item_chance_does_not_reshuffle_rooms_or_the_npc(version: int) -> None:
    # Separate random streams: retuning story items leaves every other room of old seeds as it was.
    for seed in range(30):
        plain = make(seed=seed, rank=0.0, completed=60.0, params=GenerationParams(story_item_chance=0.0),
                     version=version)
        storied = make(seed=seed, rank=0.0, completed=60.0, params=GenerationParams(story_item_chance=1.0),
                       version=version)
        assert (plain.npc, plain.npc_kind) == (storied.npc, storied.npc_kind)
        for f_plain, f_storied in zip(plain.floors, storied.floors, strict=True):
            for a, b in zip(f_plain.rooms, f_storied.rooms, strict=True):
                assert a == b or (b.kind == RoomKind.STORY and (b.story_item or b.seal) is not None)


def test_no_npc_for_a_mixed_guild_party(version: int) -> None:
    for seed in range(50):
        d = make(seed=seed, rank=0.0, completed=300.0, same_guild=False, version=version)
        assert d.npc is None and d.npc_kind is None and d.npc_chance == 0.0
        assert all(room.npc_kind is None for _, _, room in d.rooms())


def test_no_npc_when_x_is_zero(version: int) -> None:
    for seed in range(50):
        assert make(seed=seed, rank=3.0, completed=10.0, version=version).npc is None


def test_npc_sits_in_a_story_room_on_a_floor_above_zero(version: int) -> None:
    found = 0
    for seed in range(50):
        d = make(seed=seed, rank=0.0, completed=300.0, version=version)  # chance ~0.99
        if d.npc is None:
            continue
        found += 1
        floor, index = d.npc
        room = d.room(floor, index)
        assert floor > 0
        assert room.kind == "story" and room.npc_kind == d.npc_kind and d.npc_kind in NPC_KINDS
        assert sum(1 for _, _, r in d.rooms() if r.npc_kind is not None) == 1
    assert found > 40


def test_single_floor_dungeon_puts_the_npc_on_floor_zero(version: int) -> None:
    one_floor = GenerationParams(f_min=1, f_max=1)
    npcs = [make(seed=s, rank=0.0, completed=300.0, params=one_floor, version=version).npc for s in range(30)]
    assert any(npcs) and all(npc is None or npc[0] == 0 for npc in npcs)


def test_floors_with_only_a_boss_room_have_no_npc_and_no_story_items(version: int) -> None:
    boss_only = GenerationParams(r_min=1, r_max=1, story_item_chance=1.0)
    for seed in range(30):
        d = make(seed=seed, rank=0.0, completed=300.0, params=boss_only, version=version)
        assert d.npc is None
        assert all(floor.kinds == ("boss",) for floor in d.floors)


def test_npc_kind_comes_from_the_kinds_not_rescued_yet_or_a_peasant(version: int) -> None:
    kinds = {make(seed=s, rank=0.0, completed=300.0, npc_kinds={"jeweler"}, version=version).npc_kind
             for s in range(60)}
    assert kinds - {None} == {"jeweler", "peasant"}


def test_only_peasants_remain_once_everything_is_rescued(version: int) -> None:
    kinds = {make(seed=s, rank=0.0, completed=300.0, npc_kinds=(), version=version).npc_kind
             for s in range(30)}
    assert kinds - {None} == {"peasant"}


def test_npc_kinds_order_does_not_change_the_dungeon(version: int) -> None:
    a = make(seed=11, rank=0.0, completed=300.0, npc_kinds=["shaman", "trader", "jeweler"], version=version)
    b = make(seed=11, rank=0.0, completed=300.0, npc_kinds={"jeweler", "shaman", "trader"}, version=version)
    assert a == b


@pytest.mark.parametrize("bad", [["dragon"], "trader"])
def test_unknown_npc_kinds_are_refused(bad: object, version: int) -> None:
    with pytest.raises(ValueError):
        make(npc_kinds=bad, version=version)


def test_story_items_sit_in_story_rooms_never_rest_or_boss(version: int) -> None:
    always = GenerationParams(story_item_chance=1.0)
    d = make(seed=3, rank=3.0, completed=10.0, params=always, version=version)
    story = [(f, i, r) for f, i, r in d.rooms() if r.story_item is not None]
    assert len(story) == len(d.floors)  # chance 1: one per floor
    for floor, index, room in story:
        assert room.kind == "story" and room.story_item in STORY_ITEMS and room.npc_kind is None
        assert index < len(d.floors[floor].rooms) - 2  # not the rest or boss room


def test_story_items_and_npc_never_share_a_room(version: int) -> None:
    always = GenerationParams(story_item_chance=1.0)
    for seed in range(40):
        d = make(seed=seed, rank=0.0, completed=300.0, params=always, version=version)
        for _, _, room in d.rooms():
            assert not (room.npc_kind and room.story_item)


def test_no_story_items_when_their_chance_is_zero(version: int) -> None:
    never = GenerationParams(story_item_chance=0.0)
    for seed in range(40):
        d = make(seed=seed, params=never, same_guild=False, version=version)
        assert all(room.kind != "story" for _, _, room in d.rooms())


def test_frenzy_has_no_rest_and_no_treasure_rooms(version: int) -> None:
    for seed in range(40):
        d = make(seed=seed, kind="frenzy", version=version)
        assert d.kind == "frenzy"
        for floor in d.floors:
            assert "rest" not in floor.kinds and "treasure" not in floor.kinds
            # the one marked trap may have become the story room (any room but rest and boss may)
            assert floor.kinds[-1] == "boss" and ("trap" in floor.kinds or "story" in floor.kinds)


def test_darkness_is_refused_with_a_clear_message(version: int) -> None:
    with pytest.raises(ValueError, match="[Ll]abyrinth"):
        make(kind="darkness", version=version)


def test_unknown_kind_is_refused(version: int) -> None:
    with pytest.raises(ValueError, match="unknown dungeon kind"):
        make(kind="castle", version=version)


def test_a_missing_rng_is_refused_rather_than_using_the_global_random() -> None:
    with pytest.raises(TypeError):
        generate_dungeon(kind="ordinary", n=4, rank=3.0, completed=10.0, same_guild=True, params=P)


def test_dungeon_records_its_inputs(version: int) -> None:
    d = make(seed=1, n=3, rank=1.5, completed=4.0, same_guild=False, version=version)
    assert (d.kind, d.n, d.rank, d.completed, d.same_guild, d.params) == ("ordinary", 3, 1.5, 4.0, False, P)
    assert d.room_total == sum(len(f.rooms) for f in d.floors)
