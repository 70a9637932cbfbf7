"""Writes of the npcs app that the dungeon runs call inside their own transactions.

PROVISIONAL: these bodies are placeholders until the NPC models land (issue 6); the signatures
are the contract the runs call and must not change.
"""
from __future__ import annotations

from collections.abc import Mapping

from combat.engine import EffectSpec
from guilds.services import guild_rank_add


def npc_rescue(*, guild_id: int, kind: str, run_id: int | None = None) -> None:
    """The party brought an NPC of ``kind`` out alive: it now serves the guild, whose rank rises."""
    guild_rank_add(guild_id=guild_id, points=1)


def warlock_buffs_claim(*, player_id: int, run_id: int) -> list[EffectSpec]:
    """Consume the player's bought warlock buffs for this run; they apply at the start of every battle."""
    return []


def bounty_progress_record(*, player_id: int, kills: Mapping[str, int]) -> None:
    """Count the player's kills (EnemyKind slug -> count) towards their open bounty quests."""
    return None
