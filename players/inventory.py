"""Carry rules of SPEC section 3 as pure functions on plain values (no Django): limits, checks, totals."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# Category values shared with players.models.ItemCategory (checked there at import).
WEAPON = "weapon"
ARMOR = "armor"
POTION = "potion"
TORCH = "torch"
# A torch is carried in a weapon slot (SPEC section 3), so it counts against the weapon limit.
WEAPON_SLOT_CATEGORIES: frozenset[str] = frozenset({WEAPON, TORCH})
EQUIPPABLE_CATEGORIES: frozenset[str] = frozenset({WEAPON, TORCH, ARMOR})

# The limit codes a refusal names (the 409 error code).
WEAPON_LIMIT = "weapon_limit"
ARMOR_SLOT_TAKEN = "armor_slot_taken"
POTION_LIMIT = "potion_limit"
WEIGHT_LIMIT = "weight_limit"


@dataclass(frozen=True)
class CarryRules:
    """The balancing numbers (players.models.CarrySettings) as a plain value."""

    max_weapons: int = 2
    max_potions: int = 3
    potions_per_belt_level: int = 1
    capacity_base: int = 40
    capacity_per_strength: int = 5


@dataclass(frozen=True)
class CarryLimits:
    """What one player may carry: the rules applied to their strength and potion belt."""

    max_weapons: int
    max_potions: int
    capacity: int


@dataclass(frozen=True)
class Carried:
    """One carried item as the rules see it: what it is, what it weighs, whether it is worn or in hand."""

    category: str
    sub_kind: str
    weight: int
    equipped: bool = False


@dataclass(frozen=True)
class CarryViolation:
    """A refused pickup or equip: the limit's code, the limit, and the value it would have exceeded."""

    code: str
    limit: int
    current: int
    sub_kind: str = ""

    def details(self) -> dict[str, int | str]:
        details: dict[str, int | str] = {"limit": self.limit, "current": self.current}
        if self.sub_kind:
            details["slot"] = self.sub_kind
        return details


@dataclass(frozen=True)
class CarrySummary:
    """Totals for the player's screen (/me/): what is carried against each limit."""

    weight: int
    capacity: int
    weapons: int
    weapon_limit: int
    potions: int
    potion_limit: int


def carry_limits(*, rules: CarryRules, strength: int, belt_level: int) -> CarryLimits:
    """Limits for a player: capacity grows with strength, the potion limit with the belt level."""
    if strength < 0 or belt_level < 0:
        raise ValueError("strength and belt level are never negative")
    return CarryLimits(
        max_weapons=rules.max_weapons,
        max_potions=rules.max_potions + rules.potions_per_belt_level * belt_level,
        capacity=rules.capacity_base + rules.capacity_per_strength * strength,
    )


def _weapons(items: Iterable[Carried]) -> int:
    return sum(1 for item in items if item.category in WEAPON_SLOT_CATEGORIES)


def _potions(items: Iterable[Carried]) -> int:
    return sum(1 for item in items if item.category == POTION)


def _weight(items: Iterable[Carried]) -> int:
    return sum(item.weight for item in items)


def pickup_violation(
    *, carried: Iterable[Carried], candidate: Carried, limits: CarryLimits
) -> CarryViolation | None:
    """The limit that taking ``candidate`` would break, or None if it may be taken.

    Slot rules come before weight: a player told "no room for a third weapon" learns the rule
    that dropping some other light thing would not fix. ``current`` is the count or weight
    already carried (the candidate excluded), so a client can show "3 of 3 potions".
    """
    items = tuple(carried)
    if candidate.category in WEAPON_SLOT_CATEGORIES:
        weapons = _weapons(items)
        if weapons + 1 > limits.max_weapons:
            return CarryViolation(WEAPON_LIMIT, limits.max_weapons, weapons)
    elif candidate.category == ARMOR:
        taken = sum(1 for item in items if item.category == ARMOR and item.sub_kind == candidate.sub_kind)
        if taken:
            return CarryViolation(ARMOR_SLOT_TAKEN, 1, taken, candidate.sub_kind)
    elif candidate.category == POTION:
        potions = _potions(items)
        if potions + 1 > limits.max_potions:
            return CarryViolation(POTION_LIMIT, limits.max_potions, potions)
    weight = _weight(items)
    if weight + candidate.weight > limits.capacity:
        return CarryViolation(WEIGHT_LIMIT, limits.capacity, weight)
    return None


def equip_violation(
    *, carried: Iterable[Carried], candidate: Carried, limits: CarryLimits
) -> CarryViolation | None:
    """The slot rule that equipping ``candidate`` would break, or None.

    ``carried`` is everything else the player carries (the candidate left out); only its
    equipped items count, so re-equipping an equipped item is never refused. Pickups already
    keep the carried set within these limits; equip checks them again because a designer may
    lower the limits after a pickup.
    """
    others = tuple(item for item in carried if item.equipped)
    if candidate.category in WEAPON_SLOT_CATEGORIES:
        weapons = _weapons(others)
        if weapons + 1 > limits.max_weapons:
            return CarryViolation(WEAPON_LIMIT, limits.max_weapons, weapons)
    elif candidate.category == ARMOR:
        taken = sum(1 for item in others if item.category == ARMOR and item.sub_kind == candidate.sub_kind)
        if taken:
            return CarryViolation(ARMOR_SLOT_TAKEN, 1, taken, candidate.sub_kind)
    else:
        raise ValueError(f"{candidate.category} items are not equipped")
    return None


def carry_summary(*, carried: Iterable[Carried], limits: CarryLimits) -> CarrySummary:
    items = tuple(carried)
    return CarrySummary(
        weight=_weight(items), capacity=limits.capacity,
        weapons=_weapons(items), weapon_limit=limits.max_weapons,
        potions=_potions(items), potion_limit=limits.max_potions,
    )
