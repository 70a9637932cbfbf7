"""Admin of the paper Labyrinth's designer maps (seed 002): upload or generate one for a variant, see
format errors by line, the validator's errors and warnings and the map drawn as SVG."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from backend.admin import legend_html
from labyrinth.admin import MAX_SEED, MapDesignAdmin, TextOrGeneratedForm
from labyrinth.models import MapDesign
from paper_labyrinth.engine import PaperMapFormatError, paper_map_svg, parse_paper_map
from paper_labyrinth.engine.generator import MAX_SIDE as MAX_PAPER_SIDE
from paper_labyrinth.engine.generator import MIN_SIDE as MIN_PAPER_SIDE
from paper_labyrinth.legend import map_legend
from paper_labyrinth.models import PaperMapDesign


class PaperMapDesignForm(TextOrGeneratedForm):
    """Seed 002's paper maps: generated for the chosen variant and number of players."""

    ORIGIN_FIELDS = ("seed", "generator_version", "generator_players")
    generate_rows = forms.IntegerField(min_value=MIN_PAPER_SIDE, max_value=MAX_PAPER_SIDE, required=False,
                                       label="rows", help_text="Fill rows and columns to generate a map.")
    generate_cols = forms.IntegerField(min_value=MIN_PAPER_SIDE, max_value=MAX_PAPER_SIDE, required=False,
                                       label="columns")
    generate_players = forms.IntegerField(min_value=2, max_value=5, required=False, initial=3,
                                          label="players",
                                          help_text="2-5: the number of false treasures is at most this.")
    generate_seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False, label="seed",
                                       help_text="Blank: a fresh seed (stored with the map).")
    generate_cut_corners = forms.BooleanField(required=False, label="cut corners",
                                              help_text="A square with its corners cut off (from 4x4).")

    class Meta:
        model = PaperMapDesign
        fields = ("name", "variant", "text", "is_active")
        widgets = {"text": forms.Textarea(attrs={"rows": 24, "cols": 60, "spellcheck": "false",
                                                 "style": "font-family: monospace; white-space: pre"})}

    def generated_design(self, data: dict[str, Any], rows: int, cols: int, seed: int) -> PaperMapDesign:
        return PaperMapDesign.generated(name=data.get("name", ""), rows=rows, cols=cols,
                                        players=data.get("generate_players") or 3,
                                        variant=data.get("variant") or "classic", seed=seed,
                                        cut_corners=bool(data.get("generate_cut_corners")))


@admin.register(PaperMapDesign)
class PaperMapDesignAdmin(MapDesignAdmin):
    form = PaperMapDesignForm
    FORMAT_ERROR = PaperMapFormatError
    SAVED_ONLY = ("Validation and drawing", "Origin")
    list_display = ("name", "variant", "size", "cell_count", "valid", "warning_count", "is_active",
                    "updated_at")
    list_filter = ("is_active", "variant")
    readonly_fields = ("validation", "drawing", "size", "cell_count", "seed", "generator_version",
                       "generator_players", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "variant", "is_active", "text")}),
        ("Validation and drawing", {"fields": ("validation", "drawing")}),
        ("Generate (overwrites the text)", {
            "classes": ("collapse",),
            "fields": (("generate_rows", "generate_cols"), ("generate_players", "generate_seed"),
                       "generate_cut_corners"),
        }),
        ("Origin", {"fields": ("size", "cell_count", "seed", "generator_version", "generator_players",
                               "created_at", "updated_at")}),
    )

    @admin.display(description="valid", boolean=True)
    def valid(self, obj: PaperMapDesign) -> bool:
        return obj.is_valid

    @admin.display(description="validation")
    def validation(self, obj: PaperMapDesign) -> SafeString | str:
        if obj.pk is None:
            return "-"

        def items(findings: list[dict[str, Any]]) -> SafeString:
            return format_html_join(
                "", "<li><b>{}</b>: {}{}</li>",
                [(f["rule"], f["message"],
                  " [" + ", ".join(f"({r},{c})" for r, c in f["cells"]) + "]" if f["cells"] else "")
                 for f in findings])

        head = format_html("Passes every map rule of the {} game.", obj.variant) if obj.is_valid else \
            format_html("Breaks {} map rule(s) of the {} game (errors):", len(obj.errors), obj.variant)
        parts = [format_html("<p>{}</p>", head)]
        if obj.errors:
            parts.append(format_html('<ul class="errorlist">{}</ul>', items(obj.errors)))
        if obj.warnings:
            parts.append(format_html("<p>Recommendations not followed (warnings, C§8):</p><ul>{}</ul>",
                                     items(obj.warnings)))
        else:
            parts.append(format_html("<p>{}</p>", "Every recommendation of C§8 is followed."))
        return mark_safe("".join(parts))  # every part was built by format_html (escaped)

    def svg(self, obj: PaperMapDesign) -> str:
        return paper_map_svg(parse_paper_map(obj.text), reveal=True)

    @admin.display(description="drawing")
    def drawing(self, obj: MapDesign) -> SafeString | str:
        """The drawing with the legend of its letters and marks."""
        drawn = super().drawing(obj)
        return format_html("{}{}", drawn, legend_html(map_legend())) if obj.pk is not None else drawn
