"""Input and output serializers of the battle API (outputs declare combat.selectors.BattleView's fields;
the kinds of actions, combatants and outcomes are the engine's own lists). Each is the one declaration
of its shape: the OpenAPI schema and the compiled renderer or input check (backend/api/compiled.py)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from combat.engine import PLAYER_ACTION_TYPES, Kind, Outcome


class BattleQuery(serializers.Serializer[Any]):
    since = serializers.IntegerField(required=False, default=0, min_value=0,
                                     help_text="Return the events numbered after this one.")


class ActionBody(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=list(PLAYER_ACTION_TYPES))
    target = serializers.CharField(
        required=False, max_length=32, help_text="attack: an enemy's combatant id."
    )
    potion = serializers.CharField(required=False, max_length=32, help_text="drink: a carried potion's id.")
    slot = serializers.IntegerField(
        required=False, min_value=0, max_value=7, help_text="switch_weapon: 0 or 1."
    )


class BattleActInput(serializers.Serializer[Any]):
    turn = serializers.IntegerField(min_value=0, help_text="The battle's turn number the action answers.")
    action = ActionBody()
    idempotency_key = serializers.CharField(required=False, default="", allow_blank=True, max_length=64,
                                            help_text="A retry with the same key gets the original answer.")


class EffectOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    turns = serializers.IntegerField(allow_null=True)
    magnitude = serializers.FloatField()
    permanent = serializers.BooleanField()


class PotionOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    kind = serializers.CharField()


class CombatantOutput(serializers.Serializer[Any]):
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


class AllowedActionOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    target = serializers.CharField(required=False)
    potion = serializers.CharField(required=False)
    slot = serializers.IntegerField(required=False)


class BattleOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    run = serializers.IntegerField()
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=[outcome.value for outcome in Outcome])
    round = serializers.IntegerField()
    turn = serializers.IntegerField(help_text="The turn number an action must name.")
    order = serializers.ListField(
        child=serializers.CharField(), help_text="Turn order, repeated every round."
    )
    awaiting = serializers.IntegerField(allow_null=True, help_text="The player whose turn it is.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the awaited turn is skipped.")
    combatants = CombatantOutput(many=True)
    allowed_actions = AllowedActionOutput(
        many=True, help_text="The caller's actions now (empty if not their turn)."
    )
    events = serializers.ListField(
        child=serializers.DictField(), help_text="Events after ?since=, oldest first."
    )
    last_event = serializers.IntegerField()


class ActOutput(serializers.Serializer[Any]):
    turn = serializers.IntegerField(help_text="The turn the action answered.")
    next_turn = serializers.IntegerField()
    first_event = serializers.IntegerField(help_text="Number of the first event the action produced.")
    events = serializers.ListField(child=serializers.DictField())
    outcome = serializers.CharField()
    replayed = serializers.BooleanField(help_text="True: an earlier answer to the same idempotency key.")
