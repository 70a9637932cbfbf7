"""The frozen values the run's rules read and return: where the party stands, a member inside, a change."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dungeons.runs.engine.rules import room_rng

#: The five stats of a player (SPEC section 3), in the order the API shows them.
STAT_NAMES: tuple[str, ...] = ("strength", "stamina", "metabolism", "luck", "attentiveness")
#: A run member's statuses that the rules set (the values of ``dungeons.models.MemberStatus``).
IN_DUNGEON, DEAD, ESCAPED, FINISHED = "in_dungeon", "dead", "escaped", "finished"
#: A run's ending statuses (``dungeons.models.RunStatus``).
COMPLETED, FAILED, RUN_ESCAPED = "completed", "failed", "escaped"


@dataclass(frozen=True)
class Place:
    """Where the party stands in a run: its seed and position. Every draw of a room comes from its own
    stream per purpose (``stream``), so one draw never shifts another (docs/runs.md)."""

    seed: int
    floor: int
    room: int

    def stream(self, purpose: str) -> random.Random:
        return room_rng(self.seed, self.floor, self.room, purpose)


def run_stats(permanent: Mapping[str, int], boosts: Mapping[str, int]) -> dict[str, int]:
    """A member's stats for this run: the permanent ones raised by the stat potions drunk in it."""
    return {name: int(permanent.get(name, 0)) + int(boosts.get(name, 0)) for name in STAT_NAMES}


def boosted(boosts: Mapping[str, int], stat: str, amount: int) -> dict[str, int]:
    """The run's stat boosts after a stat potion raising ``stat`` by ``amount`` (they add up)."""
    return {**boosts, stat: int(boosts.get(stat, 0)) + amount}


@dataclass(frozen=True)
class Inside:
    """A member inside the dungeon as the rules read them: HP, the stats the rules use, and the effects
    waiting for the next battle (each ``{"name", "turns"}``)."""

    player_id: int
    hp: int
    max_hp: int
    stats: Mapping[str, int] = field(default_factory=dict)
    pending_effects: Sequence[Mapping[str, Any]] = ()

    def stat(self, name: str) -> int:
        return int(self.stats.get(name, 0))


@dataclass(frozen=True)
class Changed:
    """New values of a member's columns (named as the run member's columns: ``hp``, ``status``, ...)."""

    player_id: int
    columns: Mapping[str, Any]
