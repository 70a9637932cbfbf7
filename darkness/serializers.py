"""Output serializers of the Labyrinth of Darkness (they document the JSON shape in the schema)."""
from __future__ import annotations

from rest_framework import serializers

ROOM_KINDS = ["entrance", "camp", "heart", "teleport", "rubber", "stun", "room"]
DIRECTIONS = ["UP", "LEFT", "DOWN", "RIGHT"]


class DarknessMoveInput(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, help_text="The run's step as the client last saw it.")
    direction = serializers.ChoiceField(choices=DIRECTIONS)


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
    kind = serializers.ChoiceField(choices=ROOM_KINDS, help_text="What the room is as a place.")
    walls = DarknessWallsOutput(help_text="True: a wall on that side; False: an open passage.")


class DarknessMapOutput(serializers.Serializer):
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    sections = serializers.IntegerField()
    entrance = DarknessCellOutput()
    explored = serializers.IntegerField(help_text="Rooms described below.")
    rooms = DarknessRoomOutput(many=True, help_text="Only rooms already seen; nothing about the others.")


class GuildLabyrinthOutput(DarknessMapOutput):
    guild = serializers.IntegerField()


class DarknessPositionOutput(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ROOM_KINDS)


class DarknessTorchOutput(serializers.Serializer):
    left = serializers.IntegerField(help_text="Moves before it burns out.")
    length = serializers.IntegerField(help_text="Units when relit at a camp.")
    bearer = serializers.IntegerField(allow_null=True, help_text="The player carrying it.")


class DarknessStateOutput(DarknessMapOutput):
    position = DarknessPositionOutput()
    torch = DarknessTorchOutput()
    path = DarknessCellOutput(many=True, help_text="Every place this run stood on, in order.")
