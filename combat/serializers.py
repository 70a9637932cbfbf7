"""Input and output serializers of the battle API (outputs declare combat.selectors.BattleView's fields;
the kinds of actions, combatants and outcomes are the engine's own lists)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from combat.engine import PLAYER_ACTION_TYPES, Kind, Outcome


class BattleQuery(serializers.Serializer):
    since = serializers.IntegerField(required=False, default=0, min_value=0,
                                     help_text="Return the events numbered after this one.")


class ActionBody(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(PLAYER_ACTION_TYPES))
    target = serializers.CharField(required=False, max_length=32, help_text="attack: an enemy's combatant id.")
    potion = serializers.CharField(required=False, max_length=32, help_text="drink: a carried potion's id.")
    slot = serializers.IntegerField(required=False, min_value=0, max_value=7, help_text="switch_weapon: 0 or 1.")


class BattleActInput(serializers.Serializer):
    turn = serializers.IntegerField(min_value=0, help_text="The battle's turn number the action answers.")
    action = ActionBody()
    idempotency_key = serializers.CharField(required=False, default="", allow_blank=True, max_length=64,
                                            help_text="A retry with the same key gets the original answer.")


#: ActionBody's and BattleActInput's fields, in their declared order (a test keeps them in step).
ACTION_FIELDS = ("kind", "target", "potion", "slot")
ACT_FIELDS = ("turn", "action", "idempotency_key")


def _plain_int(value: Any, low: int, high: int | None = None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def _plain_text(value: Any, max_length: int, *, blank: bool = False) -> bool:
    """A string DRF's CharField keeps as it is: printable ASCII, no surrounding space, short enough."""
    return (type(value) is str and len(value) <= max_length and (blank or value != "")
            and (value == "" or (value.isascii() and value.isprintable() and value.strip() == value)))


def act_input(data: Any) -> dict[str, Any] | None:
    """The usual action body as ``BattleActInput`` validates it, checked without DRF's field machinery
    (issue 13: a serializer costs a battle action more than its engine step); None for anything else,
    which ``BattleActInput`` then judges and words the errors of. Accepts only what the serializer
    accepts unchanged: JSON ints, plain strings, the declared keys."""
    if type(data) is not dict or not data.keys() <= set(ACT_FIELDS):
        return None
    action, turn, key = data.get("action"), data.get("turn"), data.get("idempotency_key", "")
    if not (_plain_int(turn, 0) and _plain_text(key, 64, blank=True)):
        return None
    if type(action) is not dict or not action.keys() <= set(ACTION_FIELDS):
        return None
    if type(action.get("kind")) is not str or action["kind"] not in PLAYER_ACTION_TYPES:
        return None
    if not all(_plain_text(action[name], 32) for name in ("target", "potion") if name in action):
        return None
    if "slot" in action and not _plain_int(action["slot"], 0, 7):
        return None
    return {"turn": turn, "action": {name: action[name] for name in ACTION_FIELDS if name in action},
            "idempotency_key": key}


class EffectOutput(serializers.Serializer):
    name = serializers.CharField()
    turns = serializers.IntegerField(allow_null=True)
    magnitude = serializers.FloatField()
    permanent = serializers.BooleanField()


class PotionOutput(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.CharField()


class CombatantOutput(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=[kind.value for kind in Kind])
    name = serializers.CharField()
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()
    is_boss = serializers.BooleanField()
    fled = serializers.BooleanField()
    weapons = serializers.ListField(child=serializers.CharField())
    active_weapon = serializers.IntegerField()
    potions = PotionOutput(many=True)
    effects = EffectOutput(many=True)


class AllowedActionOutput(serializers.Serializer):
    kind = serializers.CharField()
    target = serializers.CharField(required=False)
    potion = serializers.CharField(required=False)
    slot = serializers.IntegerField(required=False)


class BattleOutput(serializers.Serializer):
    id = serializers.IntegerField()
    run = serializers.IntegerField()
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=[outcome.value for outcome in Outcome])
    round = serializers.IntegerField()
    turn = serializers.IntegerField(help_text="The turn number an action must name.")
    order = serializers.ListField(child=serializers.CharField(), help_text="Turn order, repeated every round.")
    awaiting = serializers.IntegerField(allow_null=True, help_text="The player whose turn it is.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the awaited turn is skipped.")
    combatants = CombatantOutput(many=True)
    allowed_actions = AllowedActionOutput(many=True, help_text="The caller's actions now (empty if not their turn).")
    events = serializers.ListField(child=serializers.DictField(), help_text="Events after ?since=, oldest first.")
    last_event = serializers.IntegerField()


class ActOutput(serializers.Serializer):
    turn = serializers.IntegerField(help_text="The turn the action answered.")
    next_turn = serializers.IntegerField()
    first_event = serializers.IntegerField(help_text="Number of the first event the action produced.")
    events = serializers.ListField(child=serializers.DictField())
    outcome = serializers.CharField()
    replayed = serializers.BooleanField(help_text="True: an earlier answer to the same idempotency key.")


def act_output(response: Mapping[str, Any], *, replayed: bool) -> dict[str, Any]:
    """``ActOutput``'s representation of an action's answer (fresh or stored), built directly: the
    values are already the declared types (ints, strings, event objects), only the key order is set."""
    return {"turn": response["turn"], "next_turn": response["next_turn"], "first_event": response["first_event"],
            "events": response["events"], "outcome": response["outcome"], "replayed": replayed}


def _or_none(value: Any, cast: Any) -> Any:
    return None if value is None else cast(value)


def _boolean(value: Any) -> Any:
    """What DRF's BooleanField makes of a value."""
    if value is None:
        return None
    if value in serializers.BooleanField.TRUE_VALUES:
        return True
    if value in serializers.BooleanField.FALSE_VALUES:
        return False
    return bool(value)


_DEADLINE = serializers.DateTimeField()


def _combatant_output(c: Any) -> dict[str, Any]:
    return {
        "id": _or_none(c.id, str), "kind": c.kind, "name": _or_none(c.name, str), "hp": _or_none(c.hp, int),
        "max_hp": _or_none(c.max_hp, int), "is_boss": _boolean(c.is_boss), "fled": _boolean(c.fled),
        "weapons": [str(w) for w in c.weapons], "active_weapon": _or_none(c.active_weapon, int),
        "potions": [{"id": _or_none(p.id, str), "kind": _or_none(p.kind, str)} for p in c.potions],
        "effects": [{"name": _or_none(e["name"], str), "turns": _or_none(e["turns"], int),
                     "magnitude": _or_none(e["magnitude"], float), "permanent": _boolean(e["permanent"])}
                    for e in c.effects],
    }


def battle_output(view: Any) -> dict[str, Any]:
    """``BattleOutput``'s representation of a ``combat.selectors.BattleView``, built directly (issue 13:
    DRF's per-field copying of the combatants cost a poll more than its SQL); a test keeps them equal."""
    return {
        "id": view.id, "run": view.run, "floor": view.floor, "room": view.room, "outcome": view.outcome,
        "round": view.round, "turn": view.turn, "order": [str(cid) for cid in view.order],
        "awaiting": view.awaiting, "deadline": _DEADLINE.to_representation(view.deadline),
        "combatants": [_combatant_output(c) for c in view.combatants],
        "allowed_actions": [{name: (int if name == "slot" else str)(action[name]) for name in ACTION_FIELDS
                             if name in action} for action in view.allowed_actions],
        "events": view.events, "last_event": view.last_event,
    }
