"""Serializers of the Labyrinth of Darkness's own routes (they document the JSON shape in the schema).

The run view's ``darkness`` state (DarknessStateOutput and its parts) is declared in
dungeons/serializers.py: RunOutput owns its schema (dungeons imports nothing from darkness)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from dungeons.serializers import DarknessMapOutput

DIRECTIONS = ["UP", "LEFT", "DOWN", "RIGHT"]


class DarknessMoveInput(serializers.Serializer[Any]):
    step = serializers.IntegerField(min_value=0, help_text="The run's step as the client last saw it.")
    direction = serializers.ChoiceField(choices=DIRECTIONS)


class GuildLabyrinthOutput(DarknessMapOutput):
    guild = serializers.IntegerField()
