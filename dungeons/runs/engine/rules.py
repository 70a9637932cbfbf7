"""The formulas of a dungeon run outside battle (SPEC section 6), as pure functions on plain values.

No Django: the run's rules (this package) call these with a seeded ``random.Random`` and the numbers
of ``RunRules`` (filled from the admin's ``RunSettings``). docs/runs.md explains every formula with its
defaults.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

__all__ = [
    "RunRules", "TrapHit", "charon_fee", "escape_loss_count", "escape_loss_percent", "escape_losses",
    "junk_offer", "junk_offer_tiered", "rest_heal", "room_regen", "room_rng", "sealed_reward_coins",
    "trap_spring", "treasure_coins", "treasure_item_count", "weighted_pick",
]


@dataclass(frozen=True)
class RunRules:
    """Balancing numbers of runs; defaults are SPEC's where SPEC gives one."""

    max_party_size: int = 6
    # escape: loss = max(min, start - per_upgrade * (luck + attentiveness)) percent of carried items
    escape_loss_start_percent: int = 80
    escape_loss_per_upgrade: int = 5
    escape_loss_min_percent: int = 40
    # death: Charon takes this percent of the money, rounded down
    charon_fee_percent: int = 10
    # traps: damage = base + per_floor * floor, minus attentiveness * per_point of it (capped)
    trap_damage_base: int = 4
    trap_damage_per_floor: int = 2
    trap_mitigation_per_attentiveness: float = 0.10
    trap_mitigation_max: float = 0.75
    trap_effect: str = "bleeding"
    trap_effect_turns: int = 3
    trap_effect_chance: float = 0.5
    # treasure: base items, plus one more per member who wins a roll of attentiveness * per_point
    treasure_items_base: int = 2
    treasure_extra_chance_per_attentiveness: float = 0.10
    treasure_coins_base: int = 10
    treasure_coins_per_floor: int = 5
    # battles: each victory drops an item with this chance; a boss drops boss_loot_items
    battle_loot_chance: float = 0.5
    boss_loot_items: int = 2
    boss_coins: int = 50
    # story rooms without an NPC hold this many story items
    story_items_count: int = 2
    # an opened sealed story room: items of uncommon or rare rarity, and coins for every member
    sealed_reward_items: int = 2
    sealed_reward_coins_base: int = 30
    sealed_reward_coins_per_floor: int = 10
    # healing between rooms and in rest rooms
    rest_heal_base: int = 10
    rest_heal_per_metabolism: int = 3
    room_regen_base: int = 0
    room_regen_per_metabolism: int = 1
    # the rescued NPC's hit points while it follows the party
    npc_hp: int = 30
    # loot rarity weights
    weight_common: int = 70
    weight_uncommon: int = 25
    weight_rare: int = 5

    def rarity_weights(self) -> dict[str, int]:
        return {"common": self.weight_common, "uncommon": self.weight_uncommon, "rare": self.weight_rare}


# --- escape and death ------------------------------------------------------------------------


def escape_loss_percent(*, luck: int, attentiveness: int, rules: RunRules) -> int:
    """SPEC section 6: 80% at first, 5 points less per upgrade of luck or attentiveness, never below 40%."""
    upgrades = max(0, luck) + max(0, attentiveness)
    return max(rules.escape_loss_min_percent,
               rules.escape_loss_start_percent - rules.escape_loss_per_upgrade * upgrades)


def escape_loss_count(*, carried: int, percent: int) -> int:
    """How many of ``carried`` items are lost: ``percent`` of them, rounded half up.

    Half up so that a lone carried item is lost at 80% (and at 50%), as a player expects from
    "you lose most of what you carry"; 0 items lose nothing.
    """
    if carried <= 0:
        return 0
    return min(carried, math.floor(carried * percent / 100 + 0.5))


def escape_losses(item_ids: Sequence[T], *, percent: int, rng: random.Random) -> list[T]:
    """The carried items an escaping player loses, chosen at random (seeded), in the given order."""
    ordered = list(item_ids)
    count = escape_loss_count(carried=len(ordered), percent=percent)
    chosen = set(rng.sample(range(len(ordered)), count))
    return [item for index, item in enumerate(ordered) if index in chosen]


def charon_fee(*, money: int, rules: RunRules) -> int:
    """What Charon takes to respawn a dead player: 10% of their money, rounded down."""
    return max(0, money) * rules.charon_fee_percent // 100


# --- rooms -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrapHit:
    """What a trap did to one party member: damage taken and whether the effect stuck."""

    damage: int
    effect: str | None


def trap_spring(*, floor: int, attentiveness: int, rng: random.Random, rules: RunRules) -> TrapHit:
    """Spring a trap on one member: damage mitigated by attentiveness, and maybe the trap's effect.

    ``damage = round((base + per_floor * floor) * (1 - min(max, attentiveness * per_point)))``;
    the effect lands with ``trap_effect_chance * (1 - mitigation)`` and is carried into the next
    battle as a starting effect (effects exist only in battle, SPEC section 7).
    """
    mitigation = min(rules.trap_mitigation_max,
                     max(0, attentiveness) * rules.trap_mitigation_per_attentiveness)
    raw = rules.trap_damage_base + rules.trap_damage_per_floor * floor
    damage = math.floor(raw * (1 - mitigation) + 0.5)
    lands = bool(rules.trap_effect) and rng.random() < rules.trap_effect_chance * (1 - mitigation)
    return TrapHit(damage=damage, effect=rules.trap_effect if lands else None)


def treasure_item_count(*, attentiveness: Sequence[int], rng: random.Random, rules: RunRules) -> int:
    """Items in a treasure room: the base, plus one per member whose attentiveness roll succeeds."""
    extra = 0
    for points in attentiveness:
        if rng.random() < min(1.0, max(0, points) * rules.treasure_extra_chance_per_attentiveness):
            extra += 1
    return rules.treasure_items_base + extra


def sealed_reward_coins(*, floor: int, rules: RunRules) -> int:
    """Coins each member finds in an opened sealed story room."""
    return rules.sealed_reward_coins_base + rules.sealed_reward_coins_per_floor * floor


def treasure_coins(*, floor: int, rules: RunRules) -> int:
    """Coins each member present finds in a treasure room."""
    return rules.treasure_coins_base + rules.treasure_coins_per_floor * floor


def rest_heal(*, metabolism: int, rules: RunRules) -> int:
    """HP a rest room restores: ``base + per_metabolism * metabolism``."""
    return rules.rest_heal_base + rules.rest_heal_per_metabolism * max(0, metabolism)


def room_regen(*, metabolism: int, rules: RunRules) -> int:
    """Natural regeneration on walking into the next room: ``base + per_metabolism * metabolism``."""
    return rules.room_regen_base + rules.room_regen_per_metabolism * max(0, metabolism)


def weighted_pick(items: Sequence[T], weights: Sequence[float], rng: random.Random, k: int) -> list[T]:
    """``k`` draws with replacement; nothing to draw from (or all weights 0) gives an empty list."""
    if k <= 0 or not items or not any(w > 0 for w in weights):
        return []
    return rng.choices(list(items), weights=list(weights), k=k)


def junk_offer(basic_weapons: Sequence[T], *, size: int, rng: random.Random) -> list[T]:
    """The junk dealer's offer: ``size`` different basic weapons (all of them if there are fewer)."""
    pool = list(basic_weapons)
    return rng.sample(pool, min(max(0, size), len(pool)))


def junk_offer_tiered(tiers: Sequence[Sequence[T]], *, size: int, rng: random.Random) -> list[T]:
    """The offer from tiers, the guild's own first: ``size`` different weapons of that tier; if it
    has fewer, the next tiers down fill the offer up in order (so a bigger offer always adds choices).

    With one tier this is exactly ``junk_offer`` of that tier (the same draws).
    """
    offer: list[T] = []
    for tier in tiers:
        if len(offer) >= size:
            break
        offer += junk_offer([w for w in tier if w not in offer], size=size - len(offer), rng=rng)
    return offer


def room_rng(seed: int, floor: int, room: int, purpose: str) -> random.Random:
    """A separate seeded stream per room and purpose, so one room's draws never shift another's."""
    return random.Random(f"deepdelve-run/{seed}/{floor}/{room}/{purpose}")
