"""Input and output shapes of the player endpoints."""
from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from players.models import STAT_NAMES


class RegisterInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


class RegisterOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player id that every other route uses.")
    username = serializers.CharField()
    access = serializers.CharField()
    refresh = serializers.CharField()


class GuildRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class Stats(serializers.Serializer):
    strength = serializers.IntegerField()
    stamina = serializers.IntegerField()
    metabolism = serializers.IntegerField()
    luck = serializers.IntegerField()
    attentiveness = serializers.IntegerField()


assert tuple(Stats().fields) == STAT_NAMES


class MeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField()
    guild = GuildRef(allow_null=True)
    money = serializers.IntegerField()
    stats = Stats()
    completed_dungeons = serializers.IntegerField()
