"""Admin of the dungeons app: generation settings with the designers' preview page, stored dungeons."""
from __future__ import annotations

import random
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from dungeons import generation
from dungeons.charts import ROOM_STYLE, dungeon_svg
from dungeons.generation.sampling import sample_dungeons
from dungeons.models import Dungeon, DungeonKind, DungeonRoom, GenerationSettings
from dungeons.previews import formula_charts, frequency_charts
from dungeons.selectors import dungeon_replay
from dungeons.services import MAX_SEED, new_seed

PARAM_FIELDS = generation.GenerationParams.field_names()


class PreviewForm(forms.Form):
    """Inputs of the preview page; parameter fields start at the saved settings and may be tried out."""

    kind = forms.ChoiceField(choices=[(k, label) for k, label in DungeonKind.choices if k != DungeonKind.DARKNESS])
    players = forms.IntegerField(label="N (players)", min_value=1, max_value=100, initial=4)
    rank = forms.FloatField(label="R (guild rank)", min_value=0, max_value=10_000, initial=0)
    completed = forms.FloatField(label="C (completed)", min_value=0, max_value=100_000, initial=0)
    same_guild = forms.BooleanField(label="one-guild party", required=False, initial=True)
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False, help_text="empty: a fresh seed")
    samples = forms.IntegerField(
        label="seeds for frequencies", min_value=10, max_value=5_000, initial=400,
        help_text="dungeons generated for the bar charts",
    )

    def __init__(self, *args: Any, settings: GenerationSettings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in PARAM_FIELDS:
            model_field = GenerationSettings._meta.get_field(name)
            form_field = model_field.formfield()
            form_field.initial = getattr(settings, name)
            form_field.required = False
            form_field.help_text = "saved value: " + str(getattr(settings, name))
            self.fields[f"p_{name}"] = form_field

    def params(self, saved: generation.GenerationParams) -> generation.GenerationParams:
        values = saved.as_dict()
        for name in PARAM_FIELDS:
            value = self.cleaned_data.get(f"p_{name}")
            if value is not None:
                values[name] = value
        return generation.GenerationParams(**values)


@admin.register(GenerationSettings)
class GenerationSettingsAdmin(admin.ModelAdmin):
    change_form_template = "admin/dungeons/generationsettings/change_form.html"
    readonly_fields = ("updated_at",)
    fieldsets = (
        ("Floors: F = [lerp(F_min, F_max, tanh(k (N/N_opt + R/R_opt + C/C_opt)))]", {"fields": ("f_min", "f_max", "k")}),
        ("Rooms: R_i = [lerp(R_min, R_max, log2(1 + i/2 + 2N/N_opt + R/R_opt + C/C_opt) / 3)]",
         {"fields": ("r_min", "r_max")}),
        ("Normalisation (also NPC chance x = max(0, C/C_opt - R/R_opt) / 3)", {"fields": ("n_opt", "r_opt", "c_opt")}),
        ("Room lottery", {"fields": (("treasure_base", "treasure_cap"), ("trap_base", "trap_cap"),
                                     ("enemy_base", "enemy_cap"))}),
        ("Story rooms", {"fields": ("story_item_chance",)}),
        (None, {"fields": ("updated_at",)}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not GenerationSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: GenerationSettings | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # One row only: the list is pointless, go straight to it.
        settings = GenerationSettings.load()
        return HttpResponseRedirect(reverse("admin:dungeons_generationsettings_change", args=[settings.pk]))

    def get_urls(self) -> list[URLPattern]:
        preview = path(
            "preview/", self.admin_site.admin_view(self.preview_view), name="dungeons_generationsettings_preview"
        )
        return [preview, *super().get_urls()]

    def preview_view(self, request: HttpRequest) -> TemplateResponse:
        """Generate a dungeon from the designer's N, R, C, kind and seed and draw it with the formulas."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        settings = GenerationSettings.load()
        saved = settings.to_params()
        form = PreviewForm(request.GET or None, settings=settings)
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": "Dungeon generation preview",
            "opts": self.model._meta,
            "form": form,
            "legend": ROOM_STYLE,
        }
        if not request.GET:
            form = PreviewForm(
                {"kind": "ordinary", "players": 4, "rank": 0, "completed": 0, "same_guild": "on", "samples": 400},
                settings=settings,
            )
            context["form"] = form
        if form.is_valid():
            data = form.cleaned_data
            try:
                params = form.params(saved)
            except ValueError as exc:
                form.add_error(None, str(exc))
            else:
                seed = data["seed"] if data["seed"] is not None else new_seed()
                dungeon = generation.generate_dungeon(
                    kind=data["kind"], n=data["players"], rank=data["rank"], completed=data["completed"],
                    same_guild=data["same_guild"], params=params, rng=random.Random(seed),
                )
                stats = sample_dungeons(
                    kind=data["kind"], n=data["players"], rank=data["rank"], completed=data["completed"],
                    same_guild=data["same_guild"], params=params, samples=data["samples"], seed=seed,
                )
                context.update(
                    seed=seed,
                    dungeon=dungeon,
                    params_changed=params != saved,
                    dungeon_svg=mark_safe(dungeon_svg(dungeon)),  # noqa: S308 - built by charts, text escaped
                    formula_svgs=[mark_safe(svg) for svg in formula_charts(  # noqa: S308
                        n=data["players"], rank=data["rank"], completed=data["completed"], params=params)],
                    frequency_svgs=[mark_safe(svg) for svg in frequency_charts(stats)],  # noqa: S308
                    stats=stats,
                )
        return TemplateResponse(request, "admin/dungeons/generation_preview.html", context)


class DungeonRoomInline(admin.TabularInline):
    model = DungeonRoom
    fields = ("floor", "index", "kind", "npc_kind", "story_item")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Dungeon | None = None) -> bool:
        return False


@admin.register(Dungeon)
class DungeonAdmin(admin.ModelAdmin):
    """Generated dungeons are records: viewable, drawn, never edited (they must match their seed)."""

    list_display = ("id", "kind", "party_size", "rank", "completed", "same_guild", "floor_count", "npc_kind",
                    "generator_version", "created_at")
    list_filter = ("kind", "same_guild", "generator_version", "npc_kind")
    search_fields = ("=id", "=seed")
    date_hierarchy = "created_at"
    inlines = [DungeonRoomInline]
    fields = ("layout", "kind", "seed", "generator_version", "party_size", "rank", "completed", "same_guild",
              "floor_count", "npc_chance", "npc_floor", "npc_room", "npc_kind", "npc_candidates", "params",
              "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Dungeon | None = None) -> bool:
        return False

    @admin.display(description="layout")
    def layout(self, obj: Dungeon) -> SafeString | str:
        try:
            return mark_safe(dungeon_svg(dungeon_replay(dungeon=obj)))  # noqa: S308 - built by charts
        except ValueError as exc:  # an older generator version: the rooms below still tell
            return format_html("<em>{}</em>", str(exc))
