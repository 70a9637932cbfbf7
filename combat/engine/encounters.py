"""Seeded encounters: which creatures of the bestiary an enemy or boss room holds (pure, no Django).

The bestiary is admin data (``combat.models.EnemyKind``); the server turns each drawable row into an
``EnemyTemplate`` and draws here, and so does the balancing lab's simulator, so both meet the same
creatures for the same seed. docs/combat.md gives the formulas.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from combat.engine.state import Combatant, EffectSpec, Kind, Stats, Weapon


class NoEnemyForFloor(LookupError):
    """The bestiary holds no drawable kind for a floor: a data gap a designer must fill."""


class EncounterSettings(Protocol):
    """The encounter numbers as the combat settings row names them."""

    @property
    def encounter_base(self) -> int: ...

    @property
    def encounter_party_divisor(self) -> int: ...

    @property
    def encounter_floor_divisor(self) -> int: ...

    @property
    def encounter_max(self) -> int: ...

    @property
    def boss_escort_party_divisor(self) -> int: ...

    @property
    def boss_hp_per_extra_player(self) -> float: ...


@dataclass(frozen=True)
class EncounterRules:
    """The encounter numbers of the combat settings as a plain value (see ``encounter_size``)."""

    base: int = 1
    party_divisor: int = 2
    floor_divisor: int = 2
    maximum: int = 6
    boss_escort_party_divisor: int = 2
    boss_hp_per_extra_player: float = 0.5

    @classmethod
    def from_settings(cls, settings: EncounterSettings) -> EncounterRules:
        return cls(
            base=settings.encounter_base,
            party_divisor=settings.encounter_party_divisor,
            floor_divisor=settings.encounter_floor_divisor,
            maximum=settings.encounter_max,
            boss_escort_party_divisor=settings.boss_escort_party_divisor,
            boss_hp_per_extra_player=settings.boss_hp_per_extra_player,
        )


@dataclass(frozen=True)
class EnemyTemplate:
    """One creature of the bestiary as a battle needs it: its numbers, its weapon with the effects its
    hits apply, its innate (permanent) effects, the floors it haunts and its weight in the draw."""

    slug: str
    name: str
    hp: int
    weapon: Weapon
    armor: int = 0
    stats: Stats = field(default_factory=Stats)
    innate: tuple[EffectSpec, ...] = ()
    is_boss: bool = False
    weight: int = 10
    min_floor: int = 0
    max_floor: int | None = None

    def appears_on(self, floor: int) -> bool:
        return self.min_floor <= floor and (self.max_floor is None or floor <= self.max_floor)

    def combatant(self, *, combatant_id: str, name: str | None = None, hp: int | None = None) -> Combatant:
        """The creature at full health (``hp`` overrides its max HP)."""
        max_hp = self.hp if hp is None else hp
        return Combatant(id=combatant_id, kind=Kind.ENEMY, name=name or self.name, hp=max_hp, max_hp=max_hp,
                         stats=self.stats, weapons=(self.weapon,), armor=self.armor, amulets=self.innate,
                         is_boss=self.is_boss)


def drawable_on(templates: Sequence[EnemyTemplate], floor: int) -> list[EnemyTemplate]:
    """The kinds an encounter on ``floor`` draws from (weight > 0, the floor in range), in slug order."""
    return sorted((t for t in templates if t.weight > 0 and t.appears_on(floor)), key=lambda t: t.slug)


def encounter_size(*, floor: int, party_size: int, rules: EncounterRules) -> int:
    """Enemies in an ordinary enemy room.

    ``min(maximum, base + party_size // party_divisor + floor // floor_divisor)``
    """
    return min(rules.maximum, rules.base + party_size // rules.party_divisor + floor // rules.floor_divisor)


def boss_escort_size(*, party_size: int, rules: EncounterRules) -> int:
    """Ordinary enemies beside the boss: ``min(maximum - 1, party_size // boss_escort_party_divisor)``."""
    return max(0, min(rules.maximum - 1, party_size // rules.boss_escort_party_divisor))


def boss_hp(hp: int, *, party_size: int, rules: EncounterRules) -> int:
    """A boss's max HP for a party: ``round(hp * (1 + boss_hp_per_extra_player * (party_size - 1)))``."""
    factor = 1 + rules.boss_hp_per_extra_player * max(0, party_size - 1)
    return max(1, int(hp * factor + 0.5))


def _draw(kinds: Sequence[EnemyTemplate], count: int, rng: random.Random) -> list[EnemyTemplate]:
    return rng.choices(list(kinds), weights=[k.weight for k in kinds], k=count) if count else []


def encounter_draw(
    *,
    ordinary: Sequence[EnemyTemplate],
    bosses: Sequence[EnemyTemplate],
    floor: int,
    is_boss: bool,
    party_size: int,
    rules: EncounterRules,
    rng: random.Random,
    slugs: dict[str, str] | None = None,
) -> list[Combatant]:
    """Draw a room's creatures from the kinds of its floor (each list in slug order).

    Ordinary room: ``encounter_size`` weighted draws (with replacement) from ``ordinary``.
    Boss room: one weighted draw from ``bosses`` (HP scaled by party size), then
    ``boss_escort_size`` ordinary draws. Ids are e1, e2, ... in draw order, the boss first;
    repeated kinds are named "Giant Rat 1", "Giant Rat 2" so the battle log tells them apart.
    ``slugs`` is filled with combatant id -> the kind's slug.
    """
    if party_size < 1:
        raise ValueError("party_size must be at least 1")
    slugs = {} if slugs is None else slugs
    picked: list[EnemyTemplate] = []
    if is_boss:
        if not bosses:
            raise NoEnemyForFloor(f"no boss may appear on floor {floor}")
        picked.extend(_draw(bosses, 1, rng))
        escort = boss_escort_size(party_size=party_size, rules=rules)
    else:
        escort = encounter_size(floor=floor, party_size=party_size, rules=rules)
    if escort and not ordinary:
        raise NoEnemyForFloor(f"no ordinary enemy may appear on floor {floor}")
    picked.extend(_draw(ordinary, escort, rng))

    totals = Counter(kind.name for kind in picked)
    seen: Counter[str] = Counter()
    combatants = []
    for index, kind in enumerate(picked, start=1):
        seen[kind.name] += 1
        name = f"{kind.name} {seen[kind.name]}" if totals[kind.name] > 1 else kind.name
        hp = boss_hp(kind.hp, party_size=party_size, rules=rules) if kind.is_boss else None
        combatants.append(kind.combatant(combatant_id=f"e{index}", name=name, hp=hp))
        slugs[f"e{index}"] = kind.slug
    return combatants
