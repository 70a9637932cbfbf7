"""Who may be attacked (provocation, camouflage) and the enemies' simple targeting AI."""
from __future__ import annotations

import random
from collections.abc import Iterable

from combat.engine.rules import CombatRules
from combat.engine.state import Combatant


def valid_targets(attacker: Combatant, combatants: Iterable[Combatant]) -> tuple[Combatant, ...]:
    """The opponents the attacker may hit, in battle order.

    Provocation: if any opponent provokes, only provokers may be attacked.
    Camouflage: camouflaged opponents cannot be attacked, unless every opponent is
    camouflaged; then camouflage is ignored, so a battle can never deadlock on it.
    """
    opponents = tuple(c for c in combatants if c.side is not attacker.side and c.in_battle)
    provokers = tuple(c for c in opponents if c.has("provocation"))
    if provokers:
        return provokers
    visible = tuple(c for c in opponents if not c.has("camouflage"))
    return visible or opponents


def choose_target(
    attacker: Combatant, combatants: Iterable[Combatant], rules: CombatRules, rng: random.Random
) -> Combatant | None:
    """Enemy AI: usually focus the valid target with the least HP, sometimes pick at random.

    Focusing the weakest is what a player expects from a monster; the random share keeps
    the tank-and-heal pattern from being a solved puzzle. Ties go to the earlier combatant.
    """
    targets = valid_targets(attacker, combatants)
    if not targets:
        return None
    if rng.random() < rules.ai_focus_weakest_chance:
        return min(targets, key=lambda c: c.hp)
    return rng.choice(targets)
