"""Writes of the dungeons app: generate a dungeon with the engine and store it with its rooms.

The run services (lobby, rooms, battles, endings) are in ``dungeons/runs/``.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.db import transaction

from backend.errors import InvalidInput
from backend.sql import rows_insert
from dungeons import generation
from dungeons.models import Dungeon, DungeonRoom
from dungeons.selectors import dungeon_preview, generation_params_get

#: Seeds are stored in a signed 64-bit column.
MAX_SEED = 2**63 - 1


def new_seed() -> int:
    """A fresh seed for a new dungeon; from the OS, never from the engine's streams."""
    return secrets.randbits(63)


def dungeon_generate(
    *,
    kind: str,
    party_size: int,
    rank: float,
    completed: float,
    same_guild: bool,
    seed: int | None = None,
    npc_kinds: Iterable[str] | None = None,
    params: generation.GenerationParams | None = None,
) -> Dungeon:
    """Generate one dungeon with the parameters in force and store it with all its rooms (returned
    with the rooms prefetched, as ``dungeon_get`` returns it).

    ``npc_kinds`` are the kinds the party's guild has not rescued yet (None: all of them).
    Two statements plus the settings read: the dungeon row and one bulk insert of its rooms.
    Bad inputs (unknown or unsupported kind, impossible numbers) raise InvalidInput.
    """
    seed = new_seed() if seed is None else seed
    if not 0 <= seed <= MAX_SEED:
        raise InvalidInput("invalid_seed", f"seed must be between 0 and {MAX_SEED}")
    params = params or generation_params_get()
    try:
        candidates = generation.npc_candidates(npc_kinds)
        result = dungeon_preview(
            kind=kind,
            party_size=party_size,
            rank=rank,
            completed=completed,
            same_guild=same_guild,
            seed=seed,
            params=params,
            npc_kinds=candidates,
        )
    except ValueError as exc:
        raise InvalidInput("invalid_dungeon", str(exc)) from exc

    # Bad inputs were refused above, before any write; inside a run start the two writes are part of
    # its transaction (no savepoint of their own).
    with transaction.atomic(savepoint=False):
        return _dungeon_store(result, seed=seed, party_size=party_size, rank=rank, completed=completed,
                              same_guild=same_guild, params=params, candidates=candidates)


def _dungeon_store(
    result: generation.Dungeon, *, seed: int, party_size: int, rank: float, completed: float, same_guild: bool,
    params: generation.GenerationParams, candidates: Iterable[str],
) -> Dungeon:
    [dungeon] = rows_insert([Dungeon(
        kind=result.kind,
        seed=seed,
        generator_version=result.generator_version,
        party_size=party_size,
        rank=rank,
        completed=completed,
        same_guild=same_guild,
        params=params.as_dict(),
        npc_candidates=list(candidates),
        floor_count=len(result.floors),
        npc_chance=result.npc_chance,
        npc_floor=result.npc[0] if result.npc else None,
        npc_room=result.npc[1] if result.npc else None,
        npc_kind=result.npc_kind or "",
    )])
    # Built from positional values in the model's field order (id, dungeon, floor, index, kind, npc_kind,
    # story_item, seal): half the cost of keyword arguments for a few dozen rows; each holds its dungeon.
    rooms = [DungeonRoom(None, dungeon.pk, floor, index, str(room.kind), room.npc_kind or "", room.story_item or "",
                         room.seal or "") for floor, index, room in result.rooms()]
    for row in rooms:
        DungeonRoom.dungeon.field.set_cached_value(row, dungeon)
    rows_insert(rooms)
    # Held as dungeon_get prefetches them (in their order): dungeon.rooms.all() reads no row.
    held = dungeon.rooms.all()
    held._result_cache, held._prefetch_done = rooms, True
    dungeon._prefetched_objects_cache = {"rooms": held}
    return dungeon
