"""Player actions and their results: Success with new state and events, or Impossible(code).

The results are gamekit's, the shape every engine answers with: ``Impossible`` is gamekit's own
(its ``reason`` is the code under this engine's older name), ``Success`` gamekit's for a battle.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from combat.engine.events import Event
from combat.engine.state import BattleState
from combat.engine.values import quick_init
from gamekit import results
from gamekit.results import Impossible


@dataclass(frozen=True)
class Action:
    """Base of the actions a player's turn accepts; `kind` names it in JSON."""

    kind: ClassVar[str] = "action"
    # Whether the action ends the player's turn (drinking and switching do not).
    passes_turn: ClassVar[bool] = True
    actor: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}}


@dataclass(frozen=True)
class AttackAction(Action):
    kind: ClassVar[str] = "attack"
    target: str


@dataclass(frozen=True)
class DrinkPotion(Action):
    """Drink the carried potion with this id; free: the turn goes on."""

    kind: ClassVar[str] = "drink"
    passes_turn: ClassVar[bool] = False
    potion: str


@dataclass(frozen=True)
class SwitchWeapon(Action):
    """Take the weapon in this slot (0 or 1) in hand; free: the turn goes on."""

    kind: ClassVar[str] = "switch_weapon"
    passes_turn: ClassVar[bool] = False
    slot: int


@dataclass(frozen=True)
class Skip(Action):
    kind: ClassVar[str] = "skip"


@dataclass(frozen=True)
class Flee(Action):
    kind: ClassVar[str] = "flee"


@dataclass(frozen=True)
class Timeout(Action):
    """The server applies this when a player's turn deadline passes: the turn is skipped."""

    kind: ClassVar[str] = "timeout"


ACTION_TYPES: Mapping[str, type[Action]] = {
    cls.kind: cls for cls in (AttackAction, DrinkPotion, SwitchWeapon, Skip, Flee, Timeout)
}
# allowed_actions builds a handful per engine call: the quicker constructor (values.py).
for _action_type in ACTION_TYPES.values():
    quick_init(_action_type)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    cls = ACTION_TYPES[data["kind"]]
    return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls)})


@dataclass(frozen=True)
class Success(results.Success[BattleState, Event]):
    """The action applied: the new state and the events it produced, in order."""


ActionResult = Success | Impossible

# Refusal codes (stable: the API turns them into 409 error codes; a refusal is of kind "rule").
BATTLE_OVER = "battle_over"
NOT_YOUR_TURN = "not_your_turn"
UNKNOWN_TARGET = "unknown_target"
NOT_AN_ENEMY = "not_an_enemy"
TARGET_DOWN = "target_down"
TARGET_CAMOUFLAGED = "target_camouflaged"
MUST_TARGET_PROVOKER = "must_target_provoker"
NO_SUCH_POTION = "no_such_potion"
NO_SUCH_WEAPON = "no_such_weapon"
WEAPON_IN_HAND = "weapon_already_in_hand"
CANNOT_FLEE_BOSS = "cannot_flee_boss"
FLIGHT_ALREADY_TAKEN = "flight_already_taken"
