"""Admin for players, the item catalog, carried items and the balancing numbers (new players, carrying)."""
from __future__ import annotations

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from backend.admin import SingletonAdmin
from players.models import CarrySettings, InventoryItem, ItemKind, Player, PlayerSettings


class InventoryInline(admin.TabularInline):
    model = InventoryItem
    verbose_name_plural = "inventory (carried items)"
    fields = ("item_kind", "category", "weight", "equipped", "acquired_in_run", "created_at")
    readonly_fields = ("item_kind", "category", "weight", "acquired_in_run", "created_at")
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # items enter through inventory_add, which checks the carry limits

    def get_queryset(self, request: HttpRequest) -> QuerySet[InventoryItem]:
        return super().get_queryset(request).select_related("item_kind")

    @admin.display(description="category")
    def category(self, item: InventoryItem) -> str:
        return f"{item.item_kind.category} / {item.item_kind.sub_kind}"

    @admin.display(description="weight")
    def weight(self, item: InventoryItem) -> int:
        return item.item_kind.weight


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "display_name", "user", "money", "strength", "stamina", "metabolism", "luck",
                    "attentiveness", "completed_dungeons", "created_at")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)
    readonly_fields = ("created_at", "last_transfer_at")
    raw_id_fields = ("user",)
    inlines = [InventoryInline]
    fieldsets = (
        (None, {"fields": ("user", "display_name", "created_at")}),
        ("Purse and progress", {"fields": ("money", "completed_dungeons", "last_transfer_at")}),
        ("Stats", {"fields": ("strength", "stamina", "metabolism", "luck", "attentiveness")}),
        ("Carrying", {"fields": ("potion_belt_level",)}),
    )


@admin.register(ItemKind)
class ItemKindAdmin(admin.ModelAdmin):
    list_display = ("name", "category", "sub_kind", "weight", "price", "rarity", "is_basic", "damage",
                    "armor", "heal", "effect", "effect_turns", "effect_magnitude", "effect_chance", "stat",
                    "stat_amount", "torch_moves")
    list_filter = ("category", "sub_kind", "rarity", "is_basic", "effect")
    list_editable = ("weight", "price", "is_basic")
    search_fields = ("name", "description")
    ordering = ("category", "sub_kind", "name")
    fieldsets = (
        (None, {"fields": ("name", "description", "category", "sub_kind")}),
        ("Trade", {"fields": ("weight", "price", "rarity", "is_basic")}),
        ("Weapons and armor", {"fields": ("damage", "armor")}),
        ("Potions", {"fields": ("heal", "stat", "stat_amount")}),
        ("Effect (effect potions, amulets, on-hit weapons)",
         {"fields": ("effect", "effect_turns", "effect_magnitude", "effect_chance")}),
        ("Torches", {"fields": ("torch_moves",)}),
    )


@admin.register(InventoryItem)
class InventoryItemAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "item_kind", "equipped", "acquired_in_run", "created_at")
    list_filter = ("item_kind__category", "equipped")
    search_fields = ("player__display_name", "item_kind__name")
    list_select_related = ("player", "item_kind")
    raw_id_fields = ("player",)
    readonly_fields = ("created_at",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # only inventory_add may add (carry limits)


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(SingletonAdmin):
    pass


@admin.register(CarrySettings)
class CarrySettingsAdmin(SingletonAdmin):
    fieldsets = (
        ("Slots", {"fields": ("max_weapons", "max_potions", "potions_per_belt_level")}),
        ("Weight capacity = base + per strength x strength",
         {"fields": ("capacity_base", "capacity_per_strength")}),
    )
