"""Balancing data of combat: every number the engine uses, with defaults, as one frozen value."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from combat.engine.effects import DEFAULT_MAGNITUDES


def _default_magnitudes() -> Mapping[str, float]:
    return MappingProxyType(dict(DEFAULT_MAGNITUDES))


@dataclass(frozen=True)
class CombatRules:
    """Combat balancing numbers; the Django side fills this from admin data (docs/combat.md)."""

    # to-hit: chance to miss = base + distraction - concentration - attentiveness * per_point
    base_miss_chance: float = 0.10
    attentiveness_miss_reduction: float = 0.01
    min_miss_chance: float = 0.0
    max_miss_chance: float = 0.90
    # criticals: chance = base + luck * per_point + fearlessness - fear
    base_crit_chance: float = 0.05
    luck_crit_per_point: float = 0.02
    max_crit_chance: float = 0.75
    crit_multiplier: float = 2.0
    # damage: (weapon + strength * per_point) * attack mult * crit, reduced by armor, / defense mult
    strength_damage_per_point: float = 0.5
    fist_damage: int = 1
    armor_constant: float = 10.0
    min_damage: int = 1
    min_attack_multiplier: float = 0.0
    min_defense_multiplier: float = 0.1
    # regeneration heals magnitude * (1 + metabolism * per_point)
    metabolism_regen_per_point: float = 0.1
    # stamina: max HP = base_hp + stamina * hp_per_stamina (also what a stamina potion adds)
    base_hp: int = 20
    hp_per_stamina: int = 5
    # enemy AI: chance to focus the weakest valid target instead of a random one
    ai_focus_weakest_chance: float = 0.7
    # a battle that reaches this round ends as a draw, so no battle can run forever
    max_rounds: int = 100
    effect_magnitudes: Mapping[str, float] = field(default_factory=_default_magnitudes)

    def __post_init__(self) -> None:
        if not isinstance(self.effect_magnitudes, MappingProxyType):
            # Read-only so the frozen rules cannot be changed through the mapping.
            merged = dict(DEFAULT_MAGNITUDES)
            merged.update(self.effect_magnitudes)
            object.__setattr__(self, "effect_magnitudes", MappingProxyType(merged))
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")

    def __hash__(self) -> int:
        # The magnitudes mapping is unhashable; hash it as sorted items.
        names = [f.name for f in dataclasses.fields(self) if f.name != "effect_magnitudes"]
        plain = tuple(getattr(self, name) for name in names)
        return hash((plain, tuple(sorted(self.effect_magnitudes.items()))))

    def max_hp_for(self, stamina: int) -> int:
        """Maximum HP a creature with this stamina has (the server uses it to build players)."""
        return self.base_hp + stamina * self.hp_per_stamina

    def to_dict(self) -> dict[str, object]:
        values = self.__dict__
        data: dict[str, object] = {name: values[name] for name in _FIELD_NAMES}
        data["effect_magnitudes"] = dict(self.effect_magnitudes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> CombatRules:
        return cls(**{k: v for k, v in data.items() if k in _FIELD_NAMES})  # type: ignore[arg-type]


#: The fields in their order (to_dict's keys; from_dict ignores any other key).
_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(CombatRules))
