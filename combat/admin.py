"""Admin of the combat app: the combat rules and encounter numbers, and the bestiary with its effects."""
from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from backend.admin import SingletonAdmin
from combat.models import CombatSettings, EnemyKind, EnemyKindEffect


@admin.register(CombatSettings)
class CombatSettingsAdmin(SingletonAdmin):
    readonly_fields = ("updated_at",)
    fieldsets = (
        ("To hit: miss = clamp(min, base + distraction - concentration - attentiveness x per point, max)",
         {"fields": ("base_miss_chance", "attentiveness_miss_reduction",
                     ("min_miss_chance", "max_miss_chance"))}),
        ("Criticals: crit = clamp(0, base + luck x per point + fearlessness - fear, max)",
         {"fields": ("base_crit_chance", "luck_crit_per_point", "max_crit_chance", "crit_multiplier")}),
        ("Damage: (W + strength x per point) x attack mult x crit "
         "x armor_constant / (armor_constant + armor) / defense mult",
         {"fields": ("strength_damage_per_point", "fist_damage", "armor_constant", "min_damage",
                     ("min_attack_multiplier", "min_defense_multiplier"))}),
        ("HP and regeneration: max HP = base_hp + stamina x hp_per_stamina",
         {"fields": (("base_hp", "hp_per_stamina"), "metabolism_regen_per_point")}),
        ("Enemy AI and battle length",
         {"fields": ("ai_focus_weakest_chance", "max_rounds", "turn_deadline_seconds")}),
        ("Effect magnitudes", {"fields": ("effect_magnitudes",)}),
        ("Encounters: enemies = min(max, base + players // party divisor + floor // floor divisor)",
         {"fields": ("encounter_base", "encounter_party_divisor", "encounter_floor_divisor",
                     "encounter_max")}),
        ("Boss rooms: the boss (HP x (1 + per extra player x (players - 1))) and players // divisor escorts",
         {"fields": ("boss_hp_per_extra_player", "boss_escort_party_divisor")}),
        (None, {"fields": ("updated_at",)}),
    )


class EnemyKindEffectInline(admin.TabularInline):
    model = EnemyKindEffect
    fields = ("trigger", "name", "turns", "magnitude", "chance")
    extra = 0


@admin.register(EnemyKind)
class EnemyKindAdmin(admin.ModelAdmin):
    list_display = ("name", "is_boss", "hp", "armor", "damage", "floors", "weight", "effect_list")
    list_filter = ("is_boss", "weapon_kind")
    list_editable = ("weight",)
    search_fields = ("name", "slug", "description", "weapon_name")
    prepopulated_fields = {"slug": ("name",)}
    ordering = ("is_boss", "min_floor", "name")
    inlines = (EnemyKindEffectInline,)
    fieldsets = (
        (None, {"fields": ("name", "slug", "is_boss", "description")}),
        ("In battle", {"fields": ("hp", "armor", ("weapon_name", "weapon_kind", "weapon_damage"))}),
        ("Stats", {"fields": ("strength", "stamina", "metabolism", "luck", "attentiveness")}),
        ("Where and how often", {"fields": (("min_floor", "max_floor"), "weight")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[EnemyKind]:
        return super().get_queryset(request).prefetch_related("effects")

    @admin.display(description="damage", ordering="weapon_damage")
    def damage(self, kind: EnemyKind) -> str:
        extra = f" +{kind.strength}str" if kind.strength else ""
        return f"{kind.weapon_damage}{extra} ({kind.weapon_name})"

    @admin.display(description="floors", ordering="min_floor")
    def floors(self, kind: EnemyKind) -> str:
        return kind.floors_label

    @admin.display(description="effects")
    def effect_list(self, kind: EnemyKind) -> str:
        return ", ".join(
            e.name + (f" {e.chance:.0%}" if e.trigger == "on_hit" else " (innate)")
            for e in kind.effects.all()
        )
