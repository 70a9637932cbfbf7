"""A run's lobby and start: the junk dealer's offer, and the inputs the party gives the dungeon generator."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from dungeons.runs.engine.rules import junk_offer_tiered, room_rng

T = TypeVar("T")


def junk_dealer_offer(tiers: Sequence[Sequence[T]], *, size: int, seed: int, player_id: int) -> list[T]:
    """The starting weapons offered to a member: ``size`` different weapons of the guild's tier, topped up
    from the tiers below (``junk_offer_tiered``), drawn from the run seed and the player, so the offer is
    the same on every call."""
    return junk_offer_tiered(tiers, size=size, rng=room_rng(seed, 0, 0, f"offer/{player_id}"))


@dataclass(frozen=True)
class PartyInputs:
    """What a party gives the dungeon generator (SPEC section 5): N, R, C and its one guild, if any."""

    n: int
    rank: float
    completed: float
    guild: int | None


def party_inputs(*, guilds: Sequence[int | None], ranks: Sequence[int | None],
                 completed: Sequence[int]) -> PartyInputs:
    """N = party size, R = the mean of the members' guild ranks (0 for a guildless member), C = the mean
    completed-dungeon count; the party's guild when every member is in the same one."""
    one = set(guilds)
    common = next(iter(one)) if len(one) == 1 else None
    size = len(completed)
    return PartyInputs(size, sum(r or 0 for r in ranks) / size, sum(completed) / size, common)
