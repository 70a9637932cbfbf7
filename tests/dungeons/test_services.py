"""dungeon_generate: stores the engine's dungeon with its rooms, replayable from its seed."""
from __future__ import annotations

import random

import pytest

from backend.errors import InvalidInput
from dungeons.generation import GENERATOR_VERSION, GenerationParams, generate_dungeon
from dungeons.models import Dungeon, DungeonRoom, GenerationSettings
from dungeons.selectors import dungeon_get, dungeon_replay
from dungeons.services import dungeon_generate


@pytest.mark.django_db
def test_generated_dungeon_is_stored_room_by_room_as_the_engine_made_it() -> None:
    # given / when
    dungeon = dungeon_generate(kind="ordinary", party_size=3, rank=0.0, completed=60.0, same_guild=True,
                               seed=5)
    # then
    expected = generate_dungeon(
        kind="ordinary", n=3, rank=0.0, completed=60.0, same_guild=True, params=GenerationParams(),
        rng=random.Random(5),
    )
    stored = dungeon_get(dungeon_id=dungeon.pk)
    assert (stored.seed, stored.generator_version, stored.floor_count) == (
        5, GENERATOR_VERSION, len(expected.floors))
    assert stored.npc == expected.npc and stored.npc_kind == (expected.npc_kind or "")
    rows = [(r.floor, r.index, r.kind, r.npc_kind or None, r.story_item or None) for r in stored.rooms.all()]
    assert rows == [(f, i, str(r.kind), r.npc_kind, r.story_item) for f, i, r in expected.rooms()]


@pytest.mark.django_db
def test_stored_dungeon_replays_from_its_seed_even_after_settings_change() -> None:
    dungeon = dungeon_generate(kind="frenzy", party_size=6, rank=1.0, completed=30.0, same_guild=True)
    original = dungeon_replay(dungeon=dungeon)
    GenerationSettings.objects.filter(pk=1).update(f_max=10, r_max=12)
    assert dungeon_replay(dungeon=Dungeon.objects.get(pk=dungeon.pk)) == original
    assert len(original.floors) == dungeon.floor_count


@pytest.mark.django_db
def test_npc_candidates_are_stored_and_used() -> None:
    dungeon = dungeon_generate(
        kind="ordinary", party_size=4, rank=0.0, completed=300.0, same_guild=True, seed=1,
        npc_kinds=["jeweler"],
    )
    assert dungeon.npc_candidates == ["peasant", "jeweler"]
    assert dungeon.npc_kind in ("", "peasant", "jeweler")


@pytest.mark.django_db
def test_generation_uses_the_admin_settings() -> None:
    GenerationSettings.objects.filter(pk=1).update(f_min=1, f_max=1, r_min=3, r_max=3)
    dungeon = dungeon_generate(kind="ordinary", party_size=8, rank=9.0, completed=90.0, same_guild=False,
                               seed=2)
    assert dungeon.floor_count == 1
    assert list(dungeon.rooms.values_list("kind", flat=True)) == ["treasure", "rest", "boss"]
    assert dungeon.params["f_max"] == 1


@pytest.mark.django_db
def test_generating_takes_a_fixed_small_number_of_queries(django_assert_max_num_queries) -> None:
    GenerationSettings.load()
    with django_assert_max_num_queries(5):  # settings, savepoint pair, dungeon row, one bulk insert of rooms
        dungeon_generate(kind="ordinary", party_size=8, rank=10.0, completed=100.0, same_guild=True, seed=3)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "darkness"},
        {"kind": "castle"},
        {"party_size": 0},
        {"rank": -1.0},
        {"seed": -5},
        {"seed": 2**63},
        {"npc_kinds": ["dragon"]},
    ],
)
def test_bad_inputs_raise_invalid_input_and_store_nothing(kwargs: dict) -> None:
    args = {"kind": "ordinary", "party_size": 4, "rank": 0.0, "completed": 0.0, "same_guild": True} | kwargs
    with pytest.raises(InvalidInput):
        dungeon_generate(**args)
    assert not Dungeon.objects.exists() and not DungeonRoom.objects.exists()
