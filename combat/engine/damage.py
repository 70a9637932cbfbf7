"""The damage formula: miss and critical rolls, multipliers, armor, and the curse roll."""
from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from combat.engine.effects import NO_EFFECT, ActiveEffect, magnitude_of
from combat.engine.rules import CombatRules
from combat.engine.state import Combatant, Stats, Weapon
from combat.engine.values import quick_init


def clamp(lo: float, x: float, hi: float) -> float:
    return max(lo, min(x, hi))


def round_half_up(x: float) -> int:
    # Python's round() is banker's rounding; designers expect 2.5 -> 3.
    return math.floor(x + 0.5)


# The formula's steps as plain arithmetic on numbers (the one implementation); the functions on
# Combatants below and the battle loop (battle.py, on its working copies) both feed them.


def miss_from(rules: CombatRules, attentiveness: int, distraction: float, concentration: float) -> float:
    chance = (
        rules.base_miss_chance
        + distraction
        - concentration
        - attentiveness * rules.attentiveness_miss_reduction
    )
    return max(rules.min_miss_chance, min(chance, rules.max_miss_chance))  # clamp, inlined


def crit_from(rules: CombatRules, luck: int, fearlessness: float, fear: float) -> float:
    chance = rules.base_crit_chance + luck * rules.luck_crit_per_point + fearlessness - fear
    return max(0.0, min(chance, rules.max_crit_chance))  # clamp, inlined


def attack_multiplier_from(rules: CombatRules, weakness: float, vigor: float) -> float:
    # weakness and vigor never coexist (opposites), so at most one term is non-zero.
    return max(rules.min_attack_multiplier, 1.0 - weakness + vigor)


def defense_multiplier_from(rules: CombatRules, fragility: float, resilience: float) -> float:
    return max(rules.min_defense_multiplier, 1.0 - fragility + resilience)


def damage_from(
    rules: CombatRules, base: float, attack_mult: float, critical: bool, armor: int, defense_mult: float
) -> int:
    """HP a landed hit takes from the base damage and the multipliers, at least rules.min_damage."""
    raw = base * attack_mult
    if critical:
        raw *= rules.crit_multiplier
    # Armor has diminishing returns: armor_constant points of armor halve the damage.
    after_armor = raw * rules.armor_constant / (rules.armor_constant + max(0, armor))
    return max(rules.min_damage, round_half_up(after_armor / defense_mult))


def miss_chance(attacker: Combatant, rules: CombatRules) -> float:
    effects = attacker.effects
    return miss_from(rules, attacker.stats.attentiveness, magnitude_of(effects, "distraction"),
                     magnitude_of(effects, "concentration"))


def crit_chance(attacker: Combatant, rules: CombatRules) -> float:
    effects = attacker.effects
    return crit_from(rules, attacker.stats.luck, magnitude_of(effects, "fearlessness"),
                     magnitude_of(effects, "fear"))


def attack_multiplier(attacker: Combatant, rules: CombatRules) -> float:
    effects = attacker.effects
    return attack_multiplier_from(rules, magnitude_of(effects, "weakness"), magnitude_of(effects, "vigor"))


def defense_multiplier(defender: Combatant, rules: CombatRules) -> float:
    effects = defender.effects
    return defense_multiplier_from(
        rules, magnitude_of(effects, "fragility"), magnitude_of(effects, "resilience")
    )


def base_damage_from(
    rules: CombatRules, weapons: tuple[Weapon, ...], active_weapon: int, strength: int
) -> float:
    weapon_damage = weapons[active_weapon].damage if weapons else rules.fist_damage
    return weapon_damage + strength * rules.strength_damage_per_point


def base_damage(attacker: Combatant, rules: CombatRules) -> float:
    return base_damage_from(rules, attacker.weapons, attacker.active_weapon, attacker.stats.strength)


def hit_damage(attacker: Combatant, defender: Combatant, critical: bool, rules: CombatRules) -> int:
    """HP a landed hit takes: the formula of docs/combat.md, at least rules.min_damage."""
    return damage_from(rules, base_damage(attacker, rules), attack_multiplier(attacker, rules), critical,
                       defender.armor, defense_multiplier(defender, rules))


@quick_init
@dataclass(frozen=True)
class AttackRoll:
    """What the seeded rolls decided for one attack."""

    hit: bool
    critical: bool
    damage: int
    curse_kills: bool


MISSED = AttackRoll(hit=False, critical=False, damage=0, curse_kills=False)


def roll_from(
    rng: random.Random,
    rules: CombatRules,
    stats: Stats,
    base: float,
    mine: Mapping[str, ActiveEffect],
    armor: int,
    theirs: Mapping[str, ActiveEffect],
    defender_hp: int,
) -> tuple[bool, int, bool] | None:
    """Roll miss, then critical, then (cursed target that survives) the curse, in that order.

    The attacker's stats, base damage and effects (by name), the defender's armor, effects and
    HP; the one implementation of the attack, for roll_attack and the battle loop. None for a
    miss, else (critical, damage, curse_kills): plain values, the battle loop builds no AttackRoll.
    """
    get = mine.get
    miss = miss_from(rules, stats.attentiveness, (get("distraction") or NO_EFFECT).magnitude,
                     (get("concentration") or NO_EFFECT).magnitude)
    if rng.random() < miss:
        return None
    crit = crit_from(rules, stats.luck, (get("fearlessness") or NO_EFFECT).magnitude,
                     (get("fear") or NO_EFFECT).magnitude)
    critical = rng.random() < crit
    attack_mult = attack_multiplier_from(rules, (get("weakness") or NO_EFFECT).magnitude,
                                         (get("vigor") or NO_EFFECT).magnitude)
    get = theirs.get
    defense_mult = defense_multiplier_from(rules, (get("fragility") or NO_EFFECT).magnitude,
                                           (get("resilience") or NO_EFFECT).magnitude)
    damage = damage_from(rules, base, attack_mult, critical, armor, defense_mult)
    curse = (get("curse") or NO_EFFECT).magnitude
    # Blessing replaces curse, so a blessed creature is never cursed; the check keeps it explicit.
    curse_kills = damage < defender_hp and curse > 0 and "blessing" not in theirs and rng.random() < curse
    return critical, damage, curse_kills


def roll_attack(
    attacker: Combatant, defender: Combatant, rules: CombatRules, rng: random.Random
) -> AttackRoll:
    """Roll miss, then critical, then (cursed target that survives) the curse, in that order."""
    rolled = roll_from(
        rng,
        rules,
        attacker.stats,
        base_damage(attacker, rules),
        {effect.name: effect for effect in attacker.effects},
        defender.armor,
        {effect.name: effect for effect in defender.effects},
        defender.hp,
    )
    if rolled is None:
        return MISSED
    critical, damage, curse_kills = rolled
    return AttackRoll(hit=True, critical=critical, damage=damage, curse_kills=curse_kills)
