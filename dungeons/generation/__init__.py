"""Pure dungeon generation engine (SPEC section 5): no Django, no global random, values in and out."""
from dungeons.generation.draws import draw_weighted
from dungeons.generation.dungeon import Dungeon, Floor, Room
from dungeons.generation.formulas import (
    clamp,
    floor_count,
    lerp,
    npc_chance,
    npc_floor_weights,
    npc_x,
    room_count,
    round_half_away,
)
from dungeons.generation.generator import (
    floor_layout,
    generate_dungeon,
    lottery_weights,
    npc_candidates,
    parse_kind,
)
from dungeons.generation.params import GenerationParams, validation_errors
from dungeons.generation.rules import (
    GENERATOR_VERSION,
    KIND_RULES,
    LOTTERY,
    NPC_KINDS,
    STORY_ITEMS,
    SUPPORTED_GENERATOR_VERSIONS,
    DungeonKind,
    RoomKind,
)

__all__ = [
    "GENERATOR_VERSION",
    "KIND_RULES",
    "LOTTERY",
    "NPC_KINDS",
    "STORY_ITEMS",
    "SUPPORTED_GENERATOR_VERSIONS",
    "Dungeon",
    "DungeonKind",
    "Floor",
    "GenerationParams",
    "Room",
    "RoomKind",
    "clamp",
    "draw_weighted",
    "floor_count",
    "floor_layout",
    "generate_dungeon",
    "lerp",
    "lottery_weights",
    "npc_candidates",
    "npc_chance",
    "npc_floor_weights",
    "npc_x",
    "parse_kind",
    "room_count",
    "round_half_away",
    "validation_errors",
]
