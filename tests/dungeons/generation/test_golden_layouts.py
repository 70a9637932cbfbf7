"""Golden layouts pinned by seed: a change here means old seeds no longer reproduce.

If an intended rule change breaks these, bump ``GENERATOR_VERSION`` and re-pin them.
Letters: E enemy, T trap, $ treasure, S story, R rest, B boss.
"""
from __future__ import annotations

import random

import pytest

from dungeons.generation import GENERATOR_VERSION, GenerationParams, generate_dungeon

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
     ["EEEE$E$TRB", "ETES$EETRB", "SEE$E$ET$RB", "TEEE$EEE$RB", "E$TEEE$$$RB", "T$EEE$TEETRB", "$EEE$TT$ETRB"],
     None, None, [(1, 3, "carpenters_tools"), (2, 0, "gems")]),
]


@pytest.mark.parametrize(
    ("seed", "kind", "n", "rank", "completed", "same_guild", "params", "floors", "npc", "npc_kind", "items"),
    GOLDEN,
    ids=[f"seed{case[0]}-{case[1]}" for case in GOLDEN],
)
def test_seed_reproduces_the_pinned_layout(
    seed: int, kind: str, n: int, rank: float, completed: float, same_guild: bool, params: GenerationParams,
    floors: list[str], npc: tuple[int, int] | None, npc_kind: str | None, items: list,
) -> None:
    d = generate_dungeon(
        kind=kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
        rng=random.Random(seed),
    )
    assert ["".join(LETTERS[k] for k in floor.kinds) for floor in d.floors] == floors
    assert (d.npc, d.npc_kind) == (npc, npc_kind)
    assert [(f, i, room.story_item) for f, i, room in d.rooms() if room.story_item] == items
    assert d.generator_version == GENERATOR_VERSION == 1
