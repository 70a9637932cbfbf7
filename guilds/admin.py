"""Admin for guilds: members inline, requests, the activity ledger and the guild rules."""
from __future__ import annotations

from typing import ClassVar

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from backend.admin import ReadOnlyInline, SingletonAdmin
from guilds.models import Application, DisbandVote, Guild, GuildRules, Invitation, Membership, PersonRunDay
from guilds.selectors import with_activity_slot
from guilds.services import guild_activity_recompute_all


class CurrentMemberInline(ReadOnlyInline):
    """Joining and leaving go through the rules (applications, invitations, leave, kick)."""

    model = Membership
    verbose_name_plural = "members (current and past)"
    fields = ("player", "joined_at", "left_at", "left_reason", "members_at_leave")
    readonly_fields = fields
    ordering = ("left_at", "joined_at")


class DisbandVoteInline(ReadOnlyInline):
    model = DisbandVote
    fields = ("player", "voted_at")
    readonly_fields = fields


class FormingFilter(admin.SimpleListFilter):
    title = "size"
    parameter_name = "size"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("forming", "forming (below minimum)"), ("full", "full")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        rules = GuildRules.load()
        if self.value() == "forming":
            return queryset.filter(members_count__lt=rules.min_members)
        if self.value() == "full":
            return queryset.filter(members_count__gte=rules.max_members)
        return queryset


class DisbandedFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("alive", "alive"), ("disbanded", "disbanded")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "alive":
            return queryset.filter(disbanded_at__isnull=True)
        if self.value() == "disbanded":
            return queryset.filter(disbanded_at__isnull=False)
        return queryset


@admin.register(Guild)
class GuildAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "leader", "members_count", "activity", "rank", "is_open", "created_at",
                    "disbanded_at")
    list_filter = (DisbandedFilter, "is_open", FormingFilter)
    search_fields = ("name", "leader__user__username")
    list_select_related = ("leader", "activity_row")
    raw_id_fields = ("leader",)
    readonly_fields = ("members_count", "activity", "activity_computed_at", "created_at", "disbanded_at")
    inlines = (CurrentMemberInline, DisbandVoteInline)
    actions = ("recompute_activity",)
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return with_activity_slot(super().get_queryset(request))  # Guild.activity reads no slot of its own

    @admin.action(description="Recompute activity of all guilds now")
    def recompute_activity(self, request: HttpRequest, queryset: QuerySet) -> None:
        updated = guild_activity_recompute_all()
        self.message_user(request, f"Activity recomputed: {updated} guilds changed.", messages.SUCCESS)


class RequestAdmin(admin.ModelAdmin):
    list_display: tuple[str, ...] = ("id", "guild", "player", "status", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("guild__name", "player__user__username")
    list_select_related = ("guild", "player")
    raw_id_fields: ClassVar[tuple[str, ...]] = ("guild", "player")
    date_hierarchy = "created_at"


@admin.register(Application)
class ApplicationAdmin(RequestAdmin):
    list_display = (*RequestAdmin.list_display, "reject_reason")


@admin.register(Invitation)
class InvitationAdmin(RequestAdmin):
    raw_id_fields = ("guild", "player", "invited_by")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("id", "guild", "player", "joined_at", "left_at", "left_reason", "members_at_leave")
    list_filter = ("left_reason",)
    search_fields = ("guild__name", "player__user__username")
    list_select_related = ("guild", "player")
    raw_id_fields = ("guild", "player")


@admin.register(PersonRunDay)
class PersonRunDayAdmin(admin.ModelAdmin):
    list_display = ("guild", "day", "person_runs")
    search_fields = ("guild__name",)
    list_select_related = ("guild",)
    raw_id_fields = ("guild",)
    date_hierarchy = "day"
    show_full_result_count = False


@admin.register(GuildRules)
class GuildRulesAdmin(SingletonAdmin):
    pass
