"""Admin of the NPC economy: kinds and rank points, shop offers and buy rates, warlock buffs, shaman stone
values, bounty quests, structures and jeweler recipes with their materials, plus what guilds and players
hold and the read-only ledgers of rescues and trades."""
from __future__ import annotations

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from backend.admin import ReadOnlyAdmin, SingletonAdmin
from npcs import rules
from npcs.models import (
    BountyQuest,
    BuyRate,
    GuildNpc,
    GuildStructure,
    JewelerMaterial,
    JewelerRecipe,
    JunkDealerTier,
    NpcKind,
    NpcRescue,
    NpcSettings,
    NpcTrade,
    OfferStockDay,
    PlayerBounty,
    PlayerBuff,
    ShopOffer,
    StoneValue,
    Structure,
    StructureMaterial,
    WarlockBuff,
)


@admin.register(NpcSettings)
class NpcSettingsAdmin(SingletonAdmin):
    fieldsets = (
        ("Junk dealer", {"fields": ("junk_dealer_offer_base",)}),
        ("Potion seller's belts", {"fields": ("first_belt_price", "second_belt_price")}),
        ("Shaman: stone points for the next level = base + per level x level - structure discount (>= 1)",
         {"fields": ("shaman_stones_base", "shaman_stones_per_level", "shaman_max_level")}),
        ("Inquisitor", {"fields": ("max_open_bounties",)}),
    )


@admin.register(NpcKind)
class NpcKindAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "rank_points", "initial", "service_list")
    list_editable = ("rank_points",)
    search_fields = ("name", "slug", "description")
    readonly_fields = ("slug", "service_list")
    fields = ("slug", "name", "description", "rank_points", "service_list")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # what a kind does is code (npcs.rules.SERVICES); the migration made every row

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(boolean=True, description="initial")
    def initial(self, kind: NpcKind) -> bool:
        return kind.is_initial

    @admin.display(description="services")
    def service_list(self, kind: NpcKind) -> str:
        return ", ".join(kind.services) or "-"


@admin.register(GuildNpc)
class GuildNpcAdmin(ReadOnlyAdmin):
    """Read-only: a guild's NPCs and its rank move together, through npcs.services.npc_rescue."""

    list_display = ("guild", "kind", "count", "rank_points", "first_rescued_at", "last_rescued_at")
    list_filter = ("kind",)
    search_fields = ("guild__name",)
    list_select_related = ("guild", "kind")


@admin.register(NpcRescue)
class NpcRescueAdmin(ReadOnlyAdmin):
    list_display = ("rescued_at", "guild", "kind", "rank_points", "run_id")
    list_filter = ("kind",)
    search_fields = ("guild__name", "=run_id")
    list_select_related = ("guild", "kind")
    date_hierarchy = "rescued_at"


class NpcFilter(admin.SimpleListFilter):
    """The NPCs of one service only (a plain FK filter would list all fourteen)."""

    title = "NPC"
    parameter_name = "npc"
    service = ""

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(kind, kind.replace("_", " ")) for kind in rules.kinds_with(self.service)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(npc__slug=self.value()) if self.value() else queryset


class ShopFilter(NpcFilter):
    service = rules.SHOP


class BuyerFilter(NpcFilter):
    service = rules.SELL


@admin.register(ShopOffer)
class ShopOfferAdmin(admin.ModelAdmin):
    list_display = ("item_kind", "npc", "price", "catalog_price", "daily_stock", "is_active")
    list_editable = ("price", "daily_stock", "is_active")
    list_filter = (ShopFilter, "is_active", "item_kind__category", "item_kind__rarity")
    search_fields = ("item_kind__name",)
    list_select_related = ("npc", "item_kind")
    ordering = ("npc", "price")

    @admin.display(description="catalog price", ordering="item_kind__price")
    def catalog_price(self, offer: ShopOffer) -> int:
        return offer.item_kind.price


@admin.register(OfferStockDay)
class OfferStockDayAdmin(ReadOnlyAdmin):
    list_display = ("day", "guild", "offer", "sold")
    list_filter = ("day",)
    search_fields = ("guild__name", "offer__item_kind__name")
    list_select_related = ("guild", "offer__npc", "offer__item_kind")


@admin.register(BuyRate)
class BuyRateAdmin(admin.ModelAdmin):
    list_display = ("npc", "category", "sub_kind", "rate_percent")
    list_editable = ("rate_percent",)
    list_filter = (BuyerFilter, "category")
    search_fields = ("category", "sub_kind")
    list_select_related = ("npc",)


@admin.register(WarlockBuff)
class WarlockBuffAdmin(admin.ModelAdmin):
    list_display = ("name", "effect", "turns", "magnitude", "price", "is_active")
    list_editable = ("price", "is_active")
    list_filter = ("is_active", "effect")
    search_fields = ("name", "description")


@admin.register(PlayerBuff)
class PlayerBuffAdmin(ReadOnlyAdmin):
    list_display = ("bought_at", "player", "buff", "price_paid", "pending", "claimed_run_id")
    list_filter = (("claimed_run_id", admin.EmptyFieldListFilter), "buff")
    search_fields = ("player__display_name", "buff__name", "=claimed_run_id")
    list_select_related = ("player", "buff")

    @admin.display(boolean=True, description="pending")
    def pending(self, bought: PlayerBuff) -> bool:
        return bought.is_pending


@admin.register(StoneValue)
class StoneValueAdmin(admin.ModelAdmin):
    list_display = ("item_kind", "points")
    list_editable = ("points",)
    search_fields = ("item_kind__name",)


@admin.register(BountyQuest)
class BountyQuestAdmin(admin.ModelAdmin):
    list_display = ("title", "enemy_kind", "kills", "reward", "is_active")
    list_editable = ("kills", "reward", "is_active")
    list_filter = ("is_active", "enemy_kind__is_boss", "enemy_kind")
    search_fields = ("title", "description", "enemy_kind__name", "enemy_kind__slug")
    list_select_related = ("enemy_kind",)


@admin.register(PlayerBounty)
class PlayerBountyAdmin(ReadOnlyAdmin):
    list_display = ("accepted_at", "player", "quest", "progress", "kills_required", "status", "reward_paid")
    list_filter = ("status", "quest")
    search_fields = ("player__display_name", "quest__title", "enemy_slug")
    list_select_related = ("player", "quest")


@admin.register(JunkDealerTier)
class JunkDealerTierAdmin(admin.ModelAdmin):
    list_display = ("name", "min_rank", "weapon_list")
    list_editable = ("min_rank",)
    search_fields = ("name", "weapons__name")
    filter_horizontal = ("weapons",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("weapons")

    @admin.display(description="weapons")
    def weapon_list(self, tier: JunkDealerTier) -> str:
        return ", ".join(f"{w.name} ({w.damage})" for w in tier.weapons.all())


class StructureMaterialInline(admin.TabularInline):
    model = StructureMaterial
    extra = 0


class RecipeAdmin(admin.ModelAdmin):
    """A row with ``materials`` (structures, jeweler recipes): listed with what it consumes."""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("materials__item_kind")

    @admin.display(description="materials")
    def material_list(self, row: Structure | JewelerRecipe) -> str:
        return ", ".join(str(line) for line in row.materials.all())


@admin.register(Structure)
class StructureAdmin(RecipeAdmin):
    list_display = ("name", "effect", "amount", "coins", "material_list", "is_active")
    list_editable = ("amount", "coins", "is_active")
    list_filter = ("effect", "is_active")
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    inlines = (StructureMaterialInline,)


@admin.register(GuildStructure)
class GuildStructureAdmin(admin.ModelAdmin):
    list_display = ("guild", "structure", "built_by", "built_at")
    list_filter = ("structure",)
    search_fields = ("guild__name", "structure__name", "built_by__display_name")
    list_select_related = ("guild", "structure", "built_by")
    raw_id_fields = ("guild", "built_by")


class JewelerMaterialInline(admin.TabularInline):
    model = JewelerMaterial
    extra = 0


@admin.register(JewelerRecipe)
class JewelerRecipeAdmin(RecipeAdmin):
    list_display = ("amulet", "fee", "material_list", "is_active")
    list_editable = ("fee", "is_active")
    list_filter = ("is_active",)
    search_fields = ("amulet__name",)
    list_select_related = ("amulet",)
    inlines = (JewelerMaterialInline,)


@admin.register(NpcTrade)
class NpcTradeAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "player", "guild", "npc", "action", "item_kind", "coins", "note")
    list_filter = ("action", "npc")
    search_fields = ("player__display_name", "guild__name", "item_kind__name", "note")
    list_select_related = ("player", "guild", "npc", "item_kind")
    date_hierarchy = "created_at"
