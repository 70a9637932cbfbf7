"""Input and output shapes of the guild endpoints (explicit fields only)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from guilds.models import Guild, Membership
from guilds.selectors import DEFAULT_GUILD_ORDERING, GUILD_ORDERINGS


class GuildListQuery(serializers.Serializer[Any]):
    ordering = serializers.ChoiceField(choices=list(GUILD_ORDERINGS), default=DEFAULT_GUILD_ORDERING)
    search = serializers.CharField(max_length=64, required=False, default="", allow_blank=True)
    cursor = serializers.CharField(max_length=512, required=False, allow_blank=True, default="",
                                   trim_whitespace=False)
    page_size = serializers.IntegerField(min_value=1, max_value=100, default=20)


class GuildCreateInput(serializers.Serializer[Any]):
    name = serializers.CharField(min_length=3, max_length=64)
    description = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class GuildUpdateInput(serializers.Serializer[Any]):
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    is_open = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("Give description and/or is_open.")
        return attrs


class PlayerIdInput(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1, max_value=MAX_DB_ID, help_text="A player id.")


class GuildListItem(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    leader = serializers.IntegerField(source="leader_id", help_text="The leader's player id.")
    leader_username = serializers.CharField(source="leader.user.username")
    members_count = serializers.IntegerField()
    activity = serializers.FloatField(help_text="Average person-runs per day over the last 14 days.")
    activity_computed_at = serializers.DateTimeField(allow_null=True)
    rank = serializers.IntegerField()
    is_open = serializers.BooleanField()
    is_forming = serializers.SerializerMethodField()

    def get_is_forming(self, guild: Guild) -> bool:
        return bool(guild.members_count < self.context["min_members"])


class GuildListOutput(serializers.Serializer[Any]):
    results = GuildListItem(many=True)
    next = serializers.CharField(allow_null=True, help_text="Cursor of the next page, or null on the last.")


class MemberOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    username = serializers.CharField(source="player.user.username")
    joined_at = serializers.DateTimeField()
    is_leader = serializers.SerializerMethodField()

    def get_is_leader(self, membership: Membership) -> bool:
        return bool(membership.player_id == membership.guild.leader_id)


class GuildDetailOutput(GuildListItem):
    description = serializers.CharField()
    created_at = serializers.DateTimeField()
    members = MemberOutput(many=True, source="current_memberships")


class ApplicationOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    guild = serializers.IntegerField(source="guild_id")
    player = serializers.IntegerField(source="player_id")
    username = serializers.CharField(source="player.user.username")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    reject_reason = serializers.CharField(
        help_text="The leader's reason for a rejection; empty if none given.")


class RejectInput(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True,
                                   help_text="Optional; shown to the applicant in GET me/applications/.")


class InvitationOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    guild = serializers.IntegerField(source="guild_id")
    guild_name = serializers.CharField(source="guild.name")
    player = serializers.IntegerField(source="player_id")
    invited_by = serializers.IntegerField(source="invited_by_id")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class LeaveOutput(serializers.Serializer[Any]):
    guild = serializers.IntegerField()
    disbanded = serializers.BooleanField()


class DisbandStateOutput(serializers.Serializer[Any]):
    guild = serializers.IntegerField(source="guild_id")
    votes = serializers.IntegerField()
    members = serializers.IntegerField()
    disbanded = serializers.BooleanField()
