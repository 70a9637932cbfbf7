"""Input and output serializers of the run API (explicit fields; outputs document the JSON shape and are
rendered by their compiled renderer, backend/api/compiled.py)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from dungeons.models import DungeonKind, MemberStatus, RoomKind, RunStatus, StoryItem, WeaponChoice


class RunOpenInput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=[(DungeonKind.ORDINARY, "Ordinary"),
                                            (DungeonKind.FRENZY, "Frenzy"),
                                            (DungeonKind.DARKNESS, "Labyrinth of Darkness")])


class RunStepInput(serializers.Serializer[Any]):
    step = serializers.IntegerField(min_value=0, help_text="The run's step as the client last saw it.")


class RunDrinkInput(serializers.Serializer[Any]):
    potion = serializers.IntegerField(
        min_value=1, max_value=MAX_DB_ID,
        help_text="The id of a carried healing or stat potion (an inventory item).")


class RunWeaponInput(serializers.Serializer[Any]):
    item_kind = serializers.IntegerField(
        allow_null=True, min_value=1, help_text="An item kind of the junk dealer's offer, or null to refuse.")


class RunFormationInput(serializers.Serializer[Any]):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=64,
                                    help_text="Every party member's player id once, first in front.")


class RunQuery(serializers.Serializer[Any]):
    since = serializers.IntegerField(required=False, default=0, min_value=0,
                                     help_text="Show the run's events after this seq (default 0: all).")


class RunListQuery(serializers.Serializer[Any]):
    cursor = serializers.CharField(required=False, default="", max_length=200, trim_whitespace=False)
    page_size = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)


class RunListItem(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    host = serializers.IntegerField()
    host_username = serializers.CharField()
    created_at = serializers.DateTimeField()


class RunListOutput(serializers.Serializer[Any]):
    results = RunListItem(many=True)
    next = serializers.CharField(allow_null=True)


class RunFloorOutput(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    rooms = serializers.IntegerField(help_text="Rooms on this floor.")
    visited = serializers.ListField(child=serializers.ChoiceField(choices=RoomKind.choices),
                                    help_text="Kinds of the rooms entered so far, in order.")


class LootItemKindOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    category = serializers.CharField()
    weight = serializers.IntegerField()


class RunLootOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    item_kind = LootItemKindOutput()
    taken_by = serializers.IntegerField(allow_null=True)


class RunBattleRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    outcome = serializers.CharField()


class RunRoomOutput(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=RoomKind.choices)
    cleared = serializers.BooleanField(help_text="Done: the party may advance.")
    seal = serializers.ChoiceField(
        choices=StoryItem.choices, allow_null=True,
        help_text="A sealed story room: the story item that opens it (see the log).")
    battle = RunBattleRefOutput(allow_null=True)
    loot = RunLootOutput(many=True)


class RunNpcOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()


class PendingEffectOutput(serializers.Serializer[Any]):
    """A trap's effect waiting for the member's next battle."""

    name = serializers.CharField(help_text="The effect (docs/combat.md).")
    turns = serializers.IntegerField()


class RunMemberOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    username = serializers.CharField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MemberStatus.choices)
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()
    weapon_choice = serializers.ChoiceField(choices=WeaponChoice.choices)
    stat_boosts = serializers.DictField(child=serializers.IntegerField())
    pending_effects = PendingEffectOutput(many=True, help_text="Trap effects for the next battle.")
    kills = serializers.DictField(child=serializers.IntegerField())
    money_lost = serializers.IntegerField()
    items_lost = serializers.IntegerField()


# --- the run-kind state of the run view (kinds.py: RunKindHooks.run_view) ------------------------
# Only a Labyrinth of Darkness run has one (darkness/selectors.py: darkness_state); the shape is
# declared here because RunOutput's schema owns it.

MAZE_ROOM_KINDS = ["entrance", "camp", "heart", "teleport", "rubber", "stun", "room"]


class DarknessCellOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()


class DarknessWallsOutput(serializers.Serializer[Any]):
    UP = serializers.BooleanField()
    LEFT = serializers.BooleanField()
    DOWN = serializers.BooleanField()
    RIGHT = serializers.BooleanField()


class DarknessRoomOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS, help_text="What the room is as a place.")
    walls = DarknessWallsOutput(help_text="True: a wall on that side; False: an open passage.")


class DarknessMapOutput(serializers.Serializer[Any]):
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    sections = serializers.IntegerField()
    entrance = DarknessCellOutput()
    explored = serializers.IntegerField(help_text="Rooms described below.")
    rooms = DarknessRoomOutput(many=True, help_text="Only rooms already seen; nothing about the others.")


class DarknessPositionOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS)


class DarknessTorchOutput(serializers.Serializer[Any]):
    left = serializers.IntegerField(help_text="Moves before it burns out.")
    length = serializers.IntegerField(help_text="Units when relit at a camp.")
    bearer = serializers.IntegerField(allow_null=True, help_text="The player carrying it.")


class DarknessStateOutput(DarknessMapOutput):
    position = DarknessPositionOutput()
    torch = DarknessTorchOutput()
    path = DarknessCellOutput(many=True, help_text="Every place this run stood on, in order.")


RUN_ACTION_KINDS = ["advance", "escape", "drink", "take_loot", "move"]


class RunActionOutput(serializers.Serializer[Any]):
    """One thing the caller can do now that would succeed, in the shape its route takes back (docs/runs.md):
    advance and escape post ``{step}`` to runs/{id}/advance/ and escape/, drink posts ``{potion}`` to
    runs/{id}/drink/, take_loot posts to runs/{id}/loot/{loot}/take/, move (darkness) posts
    ``{step, direction}`` to runs/{id}/move/. Only the fields of its kind are present."""

    kind = serializers.ChoiceField(choices=RUN_ACTION_KINDS)
    step = serializers.IntegerField(required=False, help_text="advance, escape, move: the run's step.")
    direction = serializers.ChoiceField(choices=["UP", "LEFT", "DOWN", "RIGHT"], required=False,
                                        help_text="move: an open side of the room.")
    potion = serializers.IntegerField(required=False, help_text="drink: a carried healing or stat potion.")
    loot = serializers.IntegerField(required=False, help_text="take_loot: an item lying in the room.")


class RunOutput(serializers.Serializer[Any]):
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
    events = serializers.ListField(
        child=serializers.DictField(),
        help_text="The log's entries after ?since=, oldest first, each with its seq (its place in the log, "
        "from 1).")
    last_event = serializers.IntegerField(
        help_text="The seq of the log's last entry: pass it as ?since= next time.")
    awaiting = serializers.IntegerField(
        allow_null=True, help_text="The player the run waits for (its room's battle's turn); null otherwise.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the awaited turn times out.")
    allowed_actions = RunActionOutput(many=True, help_text="What the caller can do now, each sendable back.")


class OfferItemOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    sub_kind = serializers.CharField()
    damage = serializers.IntegerField()
    weight = serializers.IntegerField()
