"""Reads of the combat app: the combat rules in force, the bestiary, and seeded encounters for rooms."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q

from combat.engine import CombatRules, Combatant, Kind
from combat.models import CombatSettings, EnemyKind


class NoEnemyForFloor(LookupError):
    """The bestiary holds no drawable kind for a floor: a data gap a designer must fill."""


@dataclass(frozen=True)
class EncounterRules:
    """The encounter numbers of CombatSettings as a plain value (see ``encounter_size``)."""

    base: int
    party_divisor: int
    floor_divisor: int
    maximum: int
    boss_escort_party_divisor: int
    boss_hp_per_extra_player: float

    @classmethod
    def from_settings(cls, settings: CombatSettings) -> EncounterRules:
        return cls(
            base=settings.encounter_base,
            party_divisor=settings.encounter_party_divisor,
            floor_divisor=settings.encounter_floor_divisor,
            maximum=settings.encounter_max,
            boss_escort_party_divisor=settings.boss_escort_party_divisor,
            boss_hp_per_extra_player=settings.boss_hp_per_extra_player,
        )


def combat_rules_get() -> CombatRules:
    """The rules the server fights with: the admin-edited row (created with defaults if missing)."""
    return CombatSettings.load().to_rules()


def encounter_rules_get() -> EncounterRules:
    return EncounterRules.from_settings(CombatSettings.load())


def enemy_kinds_for_floor(floor: int, *, boss: bool | None = None) -> list[EnemyKind]:
    """Drawable kinds (weight > 0) whose floor range holds ``floor``, in slug order, effects prefetched.

    ``boss`` None returns both ordinary enemies and bosses; True or False only those.
    """
    kinds = EnemyKind.objects.filter(
        Q(min_floor__lte=floor) & (Q(max_floor__isnull=True) | Q(max_floor__gte=floor)), weight__gt=0
    )
    if boss is not None:
        kinds = kinds.filter(is_boss=boss)
    return list(kinds.prefetch_related("effects").order_by("slug"))


def enemy_combatant(
    kind: EnemyKind, *, combatant_id: str, name: str | None = None, hp: int | None = None
) -> Combatant:
    """An engine Combatant for one creature of ``kind`` at full health (``hp`` overrides its max HP)."""
    max_hp = kind.hp if hp is None else hp
    return Combatant(
        id=combatant_id,
        kind=Kind.ENEMY,
        name=name or kind.name,
        hp=max_hp,
        max_hp=max_hp,
        stats=kind.stats(),
        weapons=(kind.weapon(),),
        armor=kind.armor,
        amulets=kind.innate_effects(),
        is_boss=kind.is_boss,
    )


def encounter_size(*, floor: int, party_size: int, rules: EncounterRules) -> int:
    """Enemies in an ordinary enemy room.

    ``min(maximum, base + party_size // party_divisor + floor // floor_divisor)``
    """
    return min(rules.maximum, rules.base + party_size // rules.party_divisor + floor // rules.floor_divisor)


def boss_escort_size(*, party_size: int, rules: EncounterRules) -> int:
    """Ordinary enemies beside the boss: ``min(maximum - 1, party_size // boss_escort_party_divisor)``."""
    return max(0, min(rules.maximum - 1, party_size // rules.boss_escort_party_divisor))


def boss_hp(kind: EnemyKind, *, party_size: int, rules: EncounterRules) -> int:
    """A boss's max HP for a party: ``round(hp * (1 + boss_hp_per_extra_player * (party_size - 1)))``."""
    factor = 1 + rules.boss_hp_per_extra_player * max(0, party_size - 1)
    return max(1, int(kind.hp * factor + 0.5))


def _draw(kinds: Sequence[EnemyKind], count: int, rng: random.Random) -> list[EnemyKind]:
    return rng.choices(list(kinds), weights=[k.weight for k in kinds], k=count) if count else []


def encounter_choose(
    *,
    ordinary: Sequence[EnemyKind],
    bosses: Sequence[EnemyKind],
    floor: int,
    is_boss: bool,
    party_size: int,
    rules: EncounterRules,
    rng: random.Random,
    slugs: dict[str, str] | None = None,
) -> list[Combatant]:
    """The pure part of ``encounter_for_room``: draw from already loaded kinds (in a stable order).

    Ordinary room: ``encounter_size`` weighted draws (with replacement) from ``ordinary``.
    Boss room: one weighted draw from ``bosses`` (HP scaled by party size), then
    ``boss_escort_size`` ordinary draws. Ids are e1, e2, ... in draw order, the boss first;
    repeated kinds are named "Giant Rat 1", "Giant Rat 2" so the battle log tells them apart.
    """
    if party_size < 1:
        raise ValueError("party_size must be at least 1")
    slugs = {} if slugs is None else slugs  # filled with combatant id -> EnemyKind slug
    picked: list[EnemyKind] = []
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
        hp = boss_hp(kind, party_size=party_size, rules=rules) if kind.is_boss else None
        combatants.append(enemy_combatant(kind, combatant_id=f"e{index}", name=name, hp=hp))
        slugs[f"e{index}"] = kind.slug
    return combatants


def encounter_for_room(
    *, floor: int, is_boss: bool, party_size: int, rng: random.Random, slugs: dict[str, str] | None = None
) -> list[Combatant]:
    """The enemies of an enemy or boss room on ``floor`` (0-based) for a party, drawn with ``rng``.

    Same bestiary, settings and seed give the same encounter. Three queries: the settings row,
    the kinds of the floor and their effects. Raises NoEnemyForFloor when the bestiary has a gap.
    """
    rules = encounter_rules_get()
    kinds = enemy_kinds_for_floor(floor)
    return encounter_choose(
        ordinary=[k for k in kinds if not k.is_boss],
        bosses=[k for k in kinds if k.is_boss],
        floor=floor,
        is_boss=is_boss,
        party_size=party_size,
        rules=rules,
        rng=rng,
        slugs=slugs,
    )
