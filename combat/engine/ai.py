"""Who may be attacked (provocation, camouflage) and the enemies' simple targeting AI."""
from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from operator import attrgetter
from typing import Any, Protocol, TypeVar

from combat.engine.rules import CombatRules
from combat.engine.state import Kind

_ENEMY = Kind.ENEMY


class Fighter(Protocol):
    """What targeting reads of a creature: a Combatant, or the battle loop's working copy of one."""

    @property
    def kind(self) -> Kind: ...

    @property
    def hp(self) -> int: ...

    @property
    def fled(self) -> bool: ...

    @property
    def effects(self) -> Collection[Any]:
        """A Combatant's tuple of ActiveEffect, or a working copy's dict of them by name."""


F = TypeVar("F", bound=Fighter)
_HP = attrgetter("hp")


def valid_targets(attacker: Fighter, combatants: Iterable[F]) -> tuple[F, ...]:
    """The opponents the attacker may hit, in battle order.

    Provocation: if any opponent provokes, only provokers may be attacked.
    Camouflage: camouflaged opponents cannot be attacked, unless every opponent is
    camouflaged; then camouflage is ignored, so a battle can never deadlock on it.
    """
    # Sides: the enemies against the players and the NPC (Combatant.side). One pass; the effect
    # lookups only for creatures that carry effects.
    enemy = attacker.kind is _ENEMY
    opponents: list[F] = []
    provokers: list[F] = []
    visible: list[F] = []
    for c in combatants:
        if (c.kind is _ENEMY) is enemy or c.hp <= 0 or c.fled:
            continue
        opponents.append(c)
        effects = c.effects
        if effects:
            # A working copy's effects are a dict by name; a Combatant's a tuple, scanned once.
            if isinstance(effects, dict):
                if "provocation" in effects:
                    provokers.append(c)
                if "camouflage" in effects:
                    continue
            else:
                hidden = False
                for effect in effects:
                    name = effect.name
                    if name == "provocation":
                        provokers.append(c)
                    elif name == "camouflage":
                        hidden = True
                if hidden:
                    continue
        visible.append(c)
    if provokers:
        return tuple(provokers)
    return tuple(visible or opponents)


def choose_target(
    attacker: Fighter, combatants: Iterable[F], rules: CombatRules, rng: random.Random
) -> F | None:
    """Enemy AI: usually focus the valid target with the least HP, sometimes pick at random.

    Focusing the weakest is what a player expects from a monster; the random share keeps
    the tank-and-heal pattern from being a solved puzzle. Ties go to the earlier combatant.
    """
    targets = valid_targets(attacker, combatants)
    if not targets:
        return None
    if rng.random() < rules.ai_focus_weakest_chance:
        return min(targets, key=_HP)  # the first of the least
    return rng.choice(targets)
