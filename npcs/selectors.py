"""Reads of the npcs app that the dungeon runs rely on.

PROVISIONAL: these bodies are placeholders until the NPC models land (issue 6); the signatures
are the contract the runs call and must not change.
"""
from __future__ import annotations

from dungeons.generation import NPC_KINDS


def guild_npc_kinds_unrescued(*, guild_id: int) -> list[str]:
    """NPC kinds the guild has not rescued yet (peasants always included): the generation candidates."""
    return list(NPC_KINDS)


def junk_dealer_offer_size(*, guild_id: int | None) -> int:
    """How many basic weapons the junk dealer offers each party member at the dungeon entrance."""
    return 3
