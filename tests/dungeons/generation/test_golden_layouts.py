"""Golden layouts pinned by seed: a change here means old seeds no longer reproduce.

If an intended rule change breaks these, bump ``GENERATOR_VERSION``, keep the old version's code
path (stored dungeons replay with the version that made them) and pin the new version's layouts.
Letters: E enemy, T trap, $ treasure, S story, R rest, B boss.
"""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from dungeons.generation import (
    GENERATOR_VERSION,
    SUPPORTED_GENERATOR_VERSIONS,
    GenerationParams,
    generate_dungeon,
)

LETTERS = {"enemy": "E", "trap": "T", "treasure": "$", "story": "S", "rest": "R", "boss": "B"}
Q = GenerationParams(f_min=1, f_max=10, r_min=3, r_max=12, n_opt=2, r_opt=1, c_opt=5, k=0.25)

GOLDEN = [
    # (seed, kind, n, rank, completed, same_guild, params, floors, npc, npc_kind, story items)
    (7, "ordinary", 4, 3.0, 10.0, True, GenerationParams(),
     ["E$ET$RB", "$$$TERB", "ET$E$RB", "$EET$TRB", "T$$EEERB", "TTE$$$RB"], None, None, []),
    (2024, "ordinary", 1, 0.0, 0.0, False, GenerationParams(),
     ["E$SRB", "T$ERB"], None, None, [(0, 2, "enchanted_stones")]),
    (99, "frenzy", 6, 2.0, 40.0, True, GenerationParams(),
     ["TEEEETTB", "EETTEEEB", "EEETTEEB", "EEEEEETB", "ETEEEETEB", "ESEEETTTB"], (5, 1), "bowyer", []),
    (5, "ordinary", 3, 0.0, 45.0, True, GenerationParams(story_item_chance=0.5),
     ["ETE$$TRB", "T$$TEERB", "E$ESE$RB", "EST$$ERB", "E$TETTRB", "E$$TSSRB"], (5, 4), "shaman",
     [(2, 3, "carpenters_tools"), (3, 1, "gems"), (5, 5, "carpenters_tools")]),
    (13, "ordinary", 2, 1.0, 5.0, True, Q,
     ["EEEE$E$TRB", "ETES$EETRB", "SEE$E$ET$RB", "TEEE$EEE$RB", "E$TEEE$$$RB", "T$EEE$TEETRB",
      "$EEE$TT$ETRB"],
     None, None, [(1, 3, "carpenters_tools"), (2, 0, "gems")]),
]


@pytest.mark.parametrize(
    ("seed", "kind", "n", "rank", "completed", "same_guild", "params", "floors", "npc", "npc_kind", "items"),
    GOLDEN,
    ids=[f"seed{case[0]}-{case[1]}" for case in GOLDEN],
)
def test_a_version_1_seed_reproduces_the_pinned_layout(
    seed: int, kind: str, n: int, rank: float, completed: float, same_guild: bool, params: GenerationParams,
    floors: list[str], npc: tuple[int, int] | None, npc_kind: str | None, items: list,
) -> None:
    d = generate_dungeon(
        kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
        rng=random.Random(seed), version=1,
    )
    assert ["".join(LETTERS[k] for k in floor.kinds) for floor in d.floors] == floors
    assert (d.npc, d.npc_kind) == (npc, npc_kind)
    assert [(f, i, room.story_item) for f, i, room in d.rooms() if room.story_item] == items
    assert not any(room.seal for _, _, room in d.rooms())
    assert d.generator_version == 1


# Version 2: the same seeds, plus sealed story rooms (seal) on floors after a story-item room.
GOLDEN_V2 = {
    7: (["E$ET$RB", "$$$TERB", "ET$E$RB", "$EET$TRB", "T$$EEERB", "TTE$$$RB"], []),
    2024: (["E$SRB", "S$ERB"], [(1, 0, "enchanted_stones")]),
    99: (["TEEEETTB", "EETTEEEB", "EEETTEEB", "EEEEEETB", "ETEEEETEB", "ESEEETTTB"], []),
    5: (["ETE$$TRB", "T$$TEERB", "E$ESE$RB", "ESTS$ERB", "E$TSTTRB", "E$$TSSRB"],
        [(3, 3, "carpenters_tools"), (4, 3, "gems")]),
    13: (["EEEE$E$TRB", "ETES$EETRB", "SEE$E$ST$RB", "TEEE$EEE$RB", "E$TEEE$$$RB", "T$EEE$TEETRB",
          "$EEE$TT$ETRB"],
         [(2, 6, "carpenters_tools")]),
}


@pytest.mark.parametrize(
    ("seed", "kind", "n", "rank", "completed", "same_guild", "params", "floors", "npc", "npc_kind", "items"),
    GOLDEN,
    ids=[f"seed{case[0]}-{case[1]}" for case in GOLDEN],
)
def test_a_version_2_seed_is_its_version_1_layout_plus_the_pinned_sealed_rooms(
    seed: int, kind: str, n: int, rank: float, completed: float, same_guild: bool, params: GenerationParams,
    floors: list[str], npc: tuple[int, int] | None, npc_kind: str | None, items: list,
) -> None:
    d = generate_dungeon(
        kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
        rng=random.Random(seed), version=2,
    )
    v2_floors, seals = GOLDEN_V2[seed]
    assert d.generator_version == 2
    assert ["".join(LETTERS[k] for k in floor.kinds) for floor in d.floors] == v2_floors
    assert [(f, i, room.seal) for f, i, room in d.rooms() if room.seal] == seals
    # everything but the sealed rooms is the version 1 dungeon; every seal follows its story item
    assert (d.npc, d.npc_kind) == (npc, npc_kind)
    assert [(f, i, room.story_item) for f, i, room in d.rooms() if room.story_item] == items
    for f, i, seal in seals:
        assert any(item == seal and item_floor < f for item_floor, _, item in items)
        v1_room = floors[f][i]
        assert v1_room not in "SRB"


# Version 3: the rules of version 2 drawn from one sequential stream, so the same seeds give other
# dungeons: (floors, npc, npc_kind, story items, sealed rooms).
GOLDEN_V3 = {
    7: (["T$E$ERB", "T$E$ERB", "$TEE$RB", "E$ETTERB", "$T$$TTRB", "TEET$ERB"], None, None, [], []),
    2024: (["E$TRB", "TE$RB"], None, None, [], []),
    99: (["STTEEEEB", "EEEETETB", "EEESEETB", "EETEEEEB", "TEEEEEEEB", "EETTEEEEB"], None, None,
         [(0, 0, "enchanted_stones")], [(2, 3, "enchanted_stones")]),
    5: (["EEE$TERB", "$ESTE$RB", "ST$E$$RB", "E$$ESTRB", "T$E$STRB", "SEEESSRB"], (5, 4), "jeweler",
        [(1, 2, "gems"), (2, 0, "gems"), (4, 4, "enchanted_stones"), (5, 5, "enchanted_stones")],
        [(3, 4, "gems"), (5, 0, "gems")]),
    13: (["ES$$TT$TRB", "TE$TE$EERB", "$$ETEEEEERB", "EETEEET$ERB", "TE$EEEEE$RB", "$TETTE$EE$RB",
          "T$TE$$EEEERB"], None, None, [(0, 1, "carpenters_tools")], []),
}


@pytest.mark.parametrize(
    ("seed", "kind", "n", "rank", "completed", "same_guild", "params"),
    [case[:7] for case in GOLDEN],
    ids=[f"seed{case[0]}-{case[1]}" for case in GOLDEN],
)
def test_a_version_3_seed_reproduces_the_pinned_layout(
    seed: int, kind: str, n: int, rank: float, completed: float, same_guild: bool, params: GenerationParams,
) -> None:
    d = generate_dungeon(
        kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
        rng=random.Random(seed),
    )
    floors, npc, npc_kind, items, seals = GOLDEN_V3[seed]
    assert d.generator_version == GENERATOR_VERSION == 3
    assert ["".join(LETTERS[k] for k in floor.kinds) for floor in d.floors] == floors
    assert (d.npc, d.npc_kind) == (npc, npc_kind)
    assert [(f, i, room.story_item) for f, i, room in d.rooms() if room.story_item] == items
    assert [(f, i, room.seal) for f, i, room in d.rooms() if room.seal] == seals


def _digest_many(version: int) -> str:
    """One digest over 1,200 dungeons (both kinds, many inputs, with and without story items).

    From version 2 on each room's seal is part of the digest too (version 1 has none).
    """
    rich = GenerationParams(story_item_chance=0.5)
    digest = hashlib.sha256()
    for kind in ("ordinary", "frenzy"):
        for seed in range(300):
            for params in (GenerationParams(), rich):
                d = generate_dungeon(kind, 1 + seed % 6, float(seed % 7), float(seed % 13), seed % 2 == 0,
                                     params, random.Random(seed), version=version)
                rooms = [[(str(r.kind), r.npc_kind, r.story_item, *((r.seal,) if version >= 2 else ()))
                          for r in f.rooms] for f in d.floors]
                blob = json.dumps([*rooms, d.npc, d.npc_kind])
                digest.update(hashlib.sha256(blob.encode()).hexdigest()[:16].encode())
    return digest.hexdigest()[:24]


def test_version_1_reproduces_1200_dungeons_of_the_version_1_engine() -> None:
    # computed with the version 1 engine (the commit before version 2)
    assert _digest_many(version=1) == "5540e6ad1fd8462680399f4d"


def test_version_2_reproduces_1200_dungeons_of_the_version_2_engine() -> None:
    # computed with the version 2 engine (commit 740cb91, before version 3), seals included
    assert _digest_many(version=2) == "fed2b656f5107494d403105f"


def test_version_3_reproduces_1200_pinned_dungeons() -> None:
    assert _digest_many(version=3) == "05765231f39d4c1930f193c9"


@pytest.mark.parametrize("version", [0, max(SUPPORTED_GENERATOR_VERSIONS) + 1])
def test_an_unknown_generator_version_is_refused(version: int) -> None:
    with pytest.raises(ValueError):
        generate_dungeon("ordinary", 2, 0.0, 0.0, True, GenerationParams(), random.Random(1), version=version)
