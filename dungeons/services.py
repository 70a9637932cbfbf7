"""Writes of the dungeons app: generate a dungeon with the engine and store it with its rooms (the run's
store writes the rows: dungeons/runs/store.py).

The run services (lobby, rooms, battles, endings) are in ``dungeons/runs/``.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.db import transaction

from backend.errors import InvalidInput
from dungeons import generation
from dungeons.models import Dungeon
from dungeons.runs import store as run_store
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
        return run_store.dungeon_store(result, seed=seed, party_size=party_size, rank=rank,
                                       completed=completed, same_guild=same_guild, params=params,
                                       candidates=candidates)
