"""Input and output serializers of the run API (explicit fields; outputs document the JSON shape)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from dungeons.models import DungeonKind, MemberStatus, RoomKind, RunStatus, StoryItem, WeaponChoice


class RunOpenInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[(DungeonKind.ORDINARY, "Ordinary"), (DungeonKind.FRENZY, "Frenzy"),
                                            (DungeonKind.DARKNESS, "Labyrinth of Darkness")])


class RunStepInput(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, help_text="The run's step as the client last saw it.")


class RunDrinkInput(serializers.Serializer):
    potion = serializers.IntegerField(
        min_value=1, max_value=MAX_DB_ID,
        help_text="The id of a carried healing or stat potion (an inventory item).")


class RunWeaponInput(serializers.Serializer):
    item_kind = serializers.IntegerField(
        allow_null=True, min_value=1, help_text="An item kind of the junk dealer's offer, or null to refuse.")


class RunFormationInput(serializers.Serializer):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=64,
                                    help_text="Every party member's player id once, first in front.")


class RunListQuery(serializers.Serializer):
    cursor = serializers.CharField(required=False, default="", max_length=200, trim_whitespace=False)
    page_size = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)


class RunListItem(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    host = serializers.IntegerField()
    host_username = serializers.CharField()
    created_at = serializers.DateTimeField()


class RunListOutput(serializers.Serializer):
    results = RunListItem(many=True)
    next = serializers.CharField(allow_null=True)


class RunFloorOutput(serializers.Serializer):
    floor = serializers.IntegerField()
    rooms = serializers.IntegerField(help_text="Rooms on this floor.")
    visited = serializers.ListField(child=serializers.ChoiceField(choices=RoomKind.choices),
                                    help_text="Kinds of the rooms entered so far, in order.")


class LootItemKindOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    category = serializers.CharField()
    weight = serializers.IntegerField()


class RunLootOutput(serializers.Serializer):
    id = serializers.IntegerField()
    item_kind = LootItemKindOutput()
    taken_by = serializers.IntegerField(allow_null=True)


class RunBattleRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    outcome = serializers.CharField()


class RunRoomOutput(serializers.Serializer):
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=RoomKind.choices)
    cleared = serializers.BooleanField(help_text="Done: the party may advance.")
    seal = serializers.ChoiceField(
        choices=StoryItem.choices, allow_null=True,
        help_text="A sealed story room: the story item that opens it (see the log).")
    battle = RunBattleRefOutput(allow_null=True)
    loot = RunLootOutput(many=True)


class RunNpcOutput(serializers.Serializer):
    kind = serializers.CharField()
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()


class RunMemberOutput(serializers.Serializer):
    player = serializers.IntegerField()
    username = serializers.CharField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MemberStatus.choices)
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()
    weapon_choice = serializers.ChoiceField(choices=WeaponChoice.choices)
    stat_boosts = serializers.DictField(child=serializers.IntegerField())
    pending_effects = serializers.ListField(child=serializers.DictField())
    kills = serializers.DictField(child=serializers.IntegerField())
    money_lost = serializers.IntegerField()
    items_lost = serializers.IntegerField()


# --- the run-kind state of the run view (kinds.py: RunKindHooks.run_view) ------------------------
# Only a Labyrinth of Darkness run has one (darkness/selectors.py: darkness_state); the shape is
# declared here because RunOutput's schema owns it.

MAZE_ROOM_KINDS = ["entrance", "camp", "heart", "teleport", "rubber", "stun", "room"]


class DarknessCellOutput(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()


class DarknessWallsOutput(serializers.Serializer):
    UP = serializers.BooleanField()
    LEFT = serializers.BooleanField()
    DOWN = serializers.BooleanField()
    RIGHT = serializers.BooleanField()


class DarknessRoomOutput(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS, help_text="What the room is as a place.")
    walls = DarknessWallsOutput(help_text="True: a wall on that side; False: an open passage.")


class DarknessMapOutput(serializers.Serializer):
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    sections = serializers.IntegerField()
    entrance = DarknessCellOutput()
    explored = serializers.IntegerField(help_text="Rooms described below.")
    rooms = DarknessRoomOutput(many=True, help_text="Only rooms already seen; nothing about the others.")


class DarknessPositionOutput(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS)


class DarknessTorchOutput(serializers.Serializer):
    left = serializers.IntegerField(help_text="Moves before it burns out.")
    length = serializers.IntegerField(help_text="Units when relit at a camp.")
    bearer = serializers.IntegerField(allow_null=True, help_text="The player carrying it.")


class DarknessStateOutput(DarknessMapOutput):
    position = DarknessPositionOutput()
    torch = DarknessTorchOutput()
    path = DarknessCellOutput(many=True, help_text="Every place this run stood on, in order.")


class RunOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    host = serializers.IntegerField()
    step = serializers.IntegerField(help_text="Run-level moves so far; advance and escape name it.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True, help_text="Revealed when the run is over.")
    dungeon = serializers.IntegerField(allow_null=True)
    floors = RunFloorOutput(many=True)
    current_room = RunRoomOutput(allow_null=True)
    npc = RunNpcOutput(allow_null=True)
    members = RunMemberOutput(many=True)
    log = serializers.ListField(child=serializers.DictField(), help_text="What happened, room by room.")
    is_member = serializers.BooleanField()
    darkness = DarknessStateOutput(allow_null=True, help_text="A darkness run's place, torch and known map.")


class OfferItemOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    sub_kind = serializers.CharField()
    damage = serializers.IntegerField()
    weight = serializers.IntegerField()


# --- the run view, built directly ------------------------------------------------------------------
# What ``RunOutput(view).data`` gives, without instantiating a serializer per nested object (issue 13:
# DRF's copying of the fields cost a run start more than most of its statements); a test keeps the two
# equal. The leaf fields are RunOutput's own (bound once), so the conversions are the declared ones.

_RUN = RunOutput().fields
_ROOM = _RUN["current_room"].fields
_MEMBER = _RUN["members"].child.fields


def _or_none(field: serializers.Field, value: Any) -> Any:
    """What a serializer makes of one attribute: None stays None, anything else goes through the field."""
    return None if value is None else field.to_representation(value)


def _dicts(values: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """``ListField(child=DictField())``: each object with string keys (None stays None)."""
    return [None if value is None else {str(key): item for key, item in value.items()} for value in values]


def _ints(values: dict[Any, Any]) -> dict[str, int | None]:
    """``DictField(child=IntegerField())``."""
    return {str(key): None if value is None else int(value) for key, value in values.items()}


def _room_output(room: Any) -> dict[str, Any]:
    return {
        "floor": int(room.floor), "room": int(room.room), "kind": _or_none(_ROOM["kind"], room.kind),
        "cleared": _or_none(_ROOM["cleared"], room.cleared), "seal": _or_none(_ROOM["seal"], room.seal),
        "battle": None if room.battle is None else {"id": int(room.battle.id), "outcome": str(room.battle.outcome)},
        "loot": [{"id": int(loot.id),
                  "item_kind": {"id": int(loot.item_kind.id), "name": str(loot.item_kind.name),
                                "category": str(loot.item_kind.category), "weight": int(loot.item_kind.weight)},
                  "taken_by": _or_none(_ROOM["loot"].child.fields["taken_by"], loot.taken_by)}
                 for loot in room.loot],
    }


def _member_output(m: Any) -> dict[str, Any]:
    return {
        "player": int(m.player), "username": str(m.username), "position": int(m.position),
        "status": _or_none(_MEMBER["status"], m.status), "hp": int(m.hp), "max_hp": int(m.max_hp),
        "weapon_choice": _or_none(_MEMBER["weapon_choice"], m.weapon_choice),
        "stat_boosts": _ints(m.stat_boosts), "pending_effects": _dicts(m.pending_effects), "kills": _ints(m.kills),
        "money_lost": int(m.money_lost), "items_lost": int(m.items_lost),
    }


def run_output(view: Any) -> dict[str, Any]:
    """``RunOutput``'s representation of a ``dungeons.selectors.RunView``, built directly (a darkness run's
    state still goes through its serializer); a test keeps them equal."""
    return {
        "id": int(view.id), "kind": _or_none(_RUN["kind"], view.kind), "status": _or_none(_RUN["status"], view.status),
        "host": int(view.host), "step": int(view.step), "created_at": _or_none(_RUN["created_at"], view.created_at),
        "started_at": _or_none(_RUN["started_at"], view.started_at),
        "ended_at": _or_none(_RUN["ended_at"], view.ended_at), "seed": _or_none(_RUN["seed"], view.seed),
        "dungeon": _or_none(_RUN["dungeon"], view.dungeon),
        "floors": [{"floor": int(f.floor), "rooms": int(f.rooms),
                    "visited": [_or_none(_RUN["floors"].child.fields["visited"].child, kind) for kind in f.visited]}
                   for f in view.floors],
        "current_room": None if view.current_room is None else _room_output(view.current_room),
        "npc": None if view.npc is None else {"kind": str(view.npc.kind), "hp": int(view.npc.hp),
                                              "max_hp": int(view.npc.max_hp)},
        "members": [_member_output(m) for m in view.members],
        "log": _dicts(view.log),
        "is_member": _or_none(_RUN["is_member"], view.is_member),
        "darkness": None if view.darkness is None else DarknessStateOutput(view.darkness).data,
    }
