"""Admin for players and the new-player balancing numbers."""
from django.contrib import admin

from backend.admin import SingletonAdmin
from players.models import Player, PlayerSettings


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "display_name", "user", "money", "strength", "stamina", "metabolism", "luck",
                    "attentiveness", "completed_dungeons", "created_at")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)
    readonly_fields = ("created_at", "last_transfer_at")
    raw_id_fields = ("user",)
    fieldsets = (
        (None, {"fields": ("user", "display_name", "created_at")}),
        ("Purse and progress", {"fields": ("money", "completed_dungeons", "last_transfer_at")}),
        ("Stats", {"fields": ("strength", "stamina", "metabolism", "luck", "attentiveness")}),
    )


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(SingletonAdmin):
    pass
