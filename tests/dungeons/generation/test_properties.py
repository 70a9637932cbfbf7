"""Hypothesis properties of generated dungeons over random inputs, parameters, seeds and versions.

Every property runs for every generator version the engine still supports (``versions``).
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from dungeons.generation import (
    SUPPORTED_GENERATOR_VERSIONS,
    DungeonKind,
    GenerationParams,
    floor_count,
    floor_layout,
    generate_dungeon,
    npc_floor_weights,
    room_count,
)
from dungeons.generation.sequential import floor_layout_sequential
from dungeons.generation.streams import Stream, stream_rng

inputs = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["ordinary", "frenzy"]),
        "n": st.integers(min_value=1, max_value=12),
        "rank": st.floats(min_value=0, max_value=40, allow_nan=False),
        "completed": st.floats(min_value=0, max_value=400, allow_nan=False),
        "same_guild": st.booleans(),
    }
)


@st.composite
def params(draw: st.DrawFn) -> GenerationParams:
    f_min = draw(st.integers(1, 4))
    r_min = draw(st.integers(1, 6))
    return GenerationParams(
        f_min=f_min,
        f_max=draw(st.integers(f_min, 8)),
        r_min=r_min,
        r_max=draw(st.integers(r_min, 12)),
        n_opt=draw(st.floats(0.5, 10)),
        r_opt=draw(st.floats(0.5, 10)),
        c_opt=draw(st.floats(0.5, 50)),
        k=draw(st.floats(0, 2)),
        story_item_chance=draw(st.sampled_from([0.0, 0.05, 0.5, 1.0])),
    )


seeds = st.integers(min_value=0, max_value=2**64 - 1)
param_sets = st.one_of(st.just(GenerationParams()), params())
versions = st.sampled_from(SUPPORTED_GENERATOR_VERSIONS)


@given(inputs, param_sets, seeds, versions)
def test_sizes_follow_the_formulas(args: dict, p: GenerationParams, seed: int, version: int) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    assert len(d.floors) == floor_count(n=args["n"], rank=args["rank"], completed=args["completed"], params=p)
    assert p.f_min <= len(d.floors) <= p.f_max
    for i, floor in enumerate(d.floors):
        expected = room_count(floor=i, n=args["n"], rank=args["rank"], completed=args["completed"], params=p)
        assert len(floor.rooms) == expected >= p.r_min


@given(inputs, param_sets, seeds, versions)
def test_boss_is_last_and_rest_second_to_last_in_ordinary(
    args: dict, p: GenerationParams, seed: int, version: int
) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    for floor in d.floors:
        kinds = floor.kinds
        assert kinds[-1] == "boss" and kinds.count("boss") == 1
        if args["kind"] == "ordinary" and len(kinds) >= 2:
            assert kinds[-2] == "rest" and kinds.count("rest") == 1


@given(inputs, param_sets, seeds, versions)
def test_frenzy_has_no_rest_or_treasure(args: dict, p: GenerationParams, seed: int, version: int) -> None:
    args = args | {"kind": "frenzy"}
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    for floor in d.floors:
        assert "rest" not in floor.kinds and "treasure" not in floor.kinds


@given(inputs, param_sets, seeds, versions)
def test_fixed_rooms_are_present_and_only_story_rooms_replace_them(
    args: dict, p: GenerationParams, seed: int, version: int
) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    base = random.Random(seed).getrandbits(64)
    sequential = random.Random(seed)  # version 3 lays the floors first, in order, from the caller's rng
    kind = DungeonKind(args["kind"])
    fixed = ["boss", "rest", "treasure", "trap"] if kind == "ordinary" else ["boss", "trap"]
    for i, floor in enumerate(d.floors):
        floor_args = {"kind": kind, "floor": i, "rooms": len(floor.rooms), "n": args["n"],
                      "completed": args["completed"], "params": p}
        if version >= 3:
            layout = floor_layout_sequential(**floor_args, rng=sequential)
        else:
            layout = floor_layout(**floor_args, rng=stream_rng(base, Stream.FLOOR, i))
        for wanted in fixed[: len(layout)]:  # short floors keep them in priority order
            assert wanted in layout
        for before, room in zip(layout, floor.rooms, strict=True):
            assert room.kind == before or (room.kind == "story" and before not in ("rest", "boss"))


@given(inputs, param_sets, seeds, versions)
def test_npc_is_never_in_rest_or_boss_and_at_most_one(
    args: dict, p: GenerationParams, seed: int, version: int
) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    holders = [(f, i) for f, i, room in d.rooms() if room.npc_kind is not None]
    assert len(holders) <= 1
    if d.npc is None:
        assert holders == [] and d.npc_kind is None
    else:
        assert holders == [d.npc] and args["same_guild"]
        assert d.room(*d.npc).kind == "story"
    for _, _, room in d.rooms():
        if room.kind == "story":  # exactly one of: the NPC, story items, a seal
            assert [room.npc_kind, room.story_item, room.seal].count(None) == 2


@given(inputs, param_sets, seeds, versions)
def test_every_sealed_room_follows_a_story_item_room_of_its_item_on_an_earlier_floor(
    args: dict, p: GenerationParams, seed: int, version: int
) -> None:
    d = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    items = [(f, room.story_item) for f, _, room in d.rooms() if room.story_item]
    seals = [(f, room.seal) for f, _, room in d.rooms() if room.seal]
    assert len(seals) <= len(items)
    for floor, seal in seals:
        assert any(item == seal and item_floor < floor for item_floor, item in items)
    if version == 1:
        assert seals == []  # version 1 has no sealed rooms
        return
    # the seals come last: the same seed without them is the same dungeon (and in version 2 that is
    # the version 1 dungeon, sealed rooms having their own stream)
    unsealed = replace(p, sealed_room_chance=0.0)
    without = [generate_dungeon(**args, params=unsealed, rng=random.Random(seed), version=version)]
    if version == 2:
        without.append(generate_dungeon(**args, params=p, rng=random.Random(seed), version=1))
    for old in without:
        assert not any(room.seal for _, _, room in old.rooms())
        for (_, _, new_room), (_, _, old_room) in zip(d.rooms(), old.rooms(), strict=True):
            assert new_room == old_room or (new_room.seal and old_room.kind not in ("rest", "boss", "story"))


@given(inputs, param_sets, seeds, versions)
def test_generation_is_reproducible(args: dict, p: GenerationParams, seed: int, version: int) -> None:
    first = generate_dungeon(**args, params=p, rng=random.Random(seed), version=version)
    assert generate_dungeon(**args, params=p, rng=random.Random(seed), version=version) == first


@given(st.integers(min_value=1, max_value=500))
def test_npc_floor_weights_sum_to_one_and_grow_with_depth(floors: int) -> None:
    weights = npc_floor_weights(floors=floors)
    assert len(weights) == floors
    assert math.isclose(math.fsum(weights), 1.0, rel_tol=1e-12)
    if floors > 1:
        assert weights[0] == 0 and all(a < b for a, b in itertools.pairwise(weights))
