"""The damage formula: miss and critical rolls, multipliers, armor, and the curse roll."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from combat.engine.effects import magnitude_of
from combat.engine.rules import CombatRules
from combat.engine.state import Combatant


def clamp(lo: float, x: float, hi: float) -> float:
    return max(lo, min(x, hi))


def round_half_up(x: float) -> int:
    # Python's round() is banker's rounding; designers expect 2.5 -> 3.
    return math.floor(x + 0.5)


def miss_chance(attacker: Combatant, rules: CombatRules) -> float:
    chance = (
        rules.base_miss_chance
        + magnitude_of(attacker.effects, "distraction")
        - magnitude_of(attacker.effects, "concentration")
        - attacker.stats.attentiveness * rules.attentiveness_miss_reduction
    )
    return clamp(rules.min_miss_chance, chance, rules.max_miss_chance)


def crit_chance(attacker: Combatant, rules: CombatRules) -> float:
    chance = (
        rules.base_crit_chance
        + attacker.stats.luck * rules.luck_crit_per_point
        + magnitude_of(attacker.effects, "fearlessness")
        - magnitude_of(attacker.effects, "fear")
    )
    return clamp(0.0, chance, rules.max_crit_chance)


def attack_multiplier(attacker: Combatant, rules: CombatRules) -> float:
    # weakness and vigor never coexist (opposites), so at most one term is non-zero.
    factor = 1.0 - magnitude_of(attacker.effects, "weakness") + magnitude_of(attacker.effects, "vigor")
    return max(rules.min_attack_multiplier, factor)


def defense_multiplier(defender: Combatant, rules: CombatRules) -> float:
    factor = 1.0 - magnitude_of(defender.effects, "fragility") + magnitude_of(defender.effects, "resilience")
    return max(rules.min_defense_multiplier, factor)


def base_damage(attacker: Combatant, rules: CombatRules) -> float:
    weapon_damage = attacker.weapon.damage if attacker.weapons else rules.fist_damage
    return weapon_damage + attacker.stats.strength * rules.strength_damage_per_point


def hit_damage(attacker: Combatant, defender: Combatant, critical: bool, rules: CombatRules) -> int:
    """HP a landed hit takes: the formula of docs/combat.md, at least rules.min_damage."""
    raw = base_damage(attacker, rules) * attack_multiplier(attacker, rules)
    if critical:
        raw *= rules.crit_multiplier
    # Armor has diminishing returns: armor_constant points of armor halve the damage.
    after_armor = raw * rules.armor_constant / (rules.armor_constant + max(0, defender.armor))
    return max(rules.min_damage, round_half_up(after_armor / defense_multiplier(defender, rules)))


@dataclass(frozen=True)
class AttackRoll:
    """What the seeded rolls decided for one attack."""

    hit: bool
    critical: bool
    damage: int
    curse_kills: bool


def roll_attack(
    attacker: Combatant, defender: Combatant, rules: CombatRules, rng: random.Random
) -> AttackRoll:
    """Roll miss, then critical, then (cursed target that survives) the curse, in that order."""
    if rng.random() < miss_chance(attacker, rules):
        return AttackRoll(hit=False, critical=False, damage=0, curse_kills=False)
    critical = rng.random() < crit_chance(attacker, rules)
    damage = hit_damage(attacker, defender, critical, rules)
    curse = magnitude_of(defender.effects, "curse")
    # Blessing replaces curse, so a blessed creature is never cursed; the check keeps it explicit.
    curse_kills = (
        damage < defender.hp
        and curse > 0
        and not defender.has("blessing")
        and rng.random() < curse
    )
    return AttackRoll(hit=True, critical=critical, damage=damage, curse_kills=curse_kills)
