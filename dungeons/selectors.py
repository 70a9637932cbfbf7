"""Reads of the dungeons app: the generation parameters in force, stored dungeons, previews."""
from __future__ import annotations

import random
from collections.abc import Iterable

from dungeons import generation
from dungeons.models import Dungeon, GenerationSettings


def generation_params_get() -> generation.GenerationParams:
    """The parameters the server generates with: the admin-edited row (created with defaults if missing)."""
    return GenerationSettings.load().to_params()


def dungeon_get(*, dungeon_id: int) -> Dungeon:
    return Dungeon.objects.prefetch_related("rooms").get(pk=dungeon_id)


def dungeon_preview(
    *,
    kind: str,
    party_size: int,
    rank: float,
    completed: float,
    same_guild: bool,
    seed: int,
    params: generation.GenerationParams | None = None,
    npc_kinds: Iterable[str] | None = None,
) -> generation.Dungeon:
    """Generate without storing, exactly as ``dungeon_generate`` would for the same seed."""
    return generation.generate_dungeon(
        kind=kind,
        n=party_size,
        rank=rank,
        completed=completed,
        same_guild=same_guild,
        params=params or generation_params_get(),
        rng=random.Random(seed),
        npc_kinds=npc_kinds,
    )


def dungeon_replay(*, dungeon: Dungeon) -> generation.Dungeon:
    """Regenerate a stored dungeon from its seed, inputs and parameter snapshot.

    Only meaningful while ``dungeon.generator_version`` is the engine's; a replay of an older
    version raises ValueError instead of silently returning a different dungeon.
    """
    if dungeon.generator_version != generation.GENERATOR_VERSION:
        raise ValueError(
            f"dungeon {dungeon.pk} was made by generator v{dungeon.generator_version}, "
            f"this engine is v{generation.GENERATOR_VERSION}"
        )
    return dungeon_preview(
        kind=dungeon.kind,
        party_size=dungeon.party_size,
        rank=dungeon.rank,
        completed=dungeon.completed,
        same_guild=dungeon.same_guild,
        seed=dungeon.seed,
        params=generation.GenerationParams(**dungeon.params),
        npc_kinds=dungeon.npc_candidates,
    )
