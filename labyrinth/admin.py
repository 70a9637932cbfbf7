"""Admin of the labyrinth app: designers upload or generate maps (seed 003's and seed 002's paper
maps), see format errors by line, the check's or the validator's result and the map drawn as SVG;
the generator's default rates as a singleton."""
from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from backend.admin import SingletonAdmin
from labyrinth.engine import MapFormatError, map_svg, parse_map
from paper_labyrinth.engine import PaperMapFormatError, paper_map_svg, parse_paper_map
from paper_labyrinth.engine.generator import MAX_SIDE as MAX_PAPER_SIDE
from paper_labyrinth.engine.generator import MIN_SIDE as MIN_PAPER_SIDE
from labyrinth.models import (
    GENERATOR_FIELDS,
    MAX_GENERATED_SIDE,
    LabyrinthGeneratorSettings,
    LabyrinthMapDesign,
    MapDesign,
    PaperMapDesign,
)

MAX_SEED = 2**63 - 1
SHOWN_UNREACHABLE = 50


@admin.register(LabyrinthGeneratorSettings)
class LabyrinthGeneratorSettingsAdmin(SingletonAdmin):
    readonly_fields = ("updated_at",)
    fieldsets = (
        ("Special cells: chance per cell (their sum at most 1)",
         {"fields": ("stun_rate", "rubber_room_rate", "teleport_rate", "armory_rate", "sleep_rate")}),
        ("Maze", {"fields": ("loop_rate", "exits", "keys")}),
        ("Turns", {"fields": (("stun_min", "stun_max"), ("sleep_min", "sleep_max"))}),
        ("Dreams", {"fields": ("dream_fields", ("dream_rows", "dream_cols"))}),
        (None, {"fields": ("updated_at",)}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        # The row always exists (data migration, and load() on first use): no add button, and no
        # existence query on every admin page's app list.
        return False


class TextOrGeneratedForm(forms.ModelForm):
    """A designer map's text, or the generator's inputs: with rows and columns filled in, saving
    generates a new map (overwriting the text) from the seed (blank: a fresh one). Subclasses say
    how (``generated_design``) and which origin fields the generated design fills (``ORIGIN_FIELDS``,
    forgotten when the text is edited by hand)."""

    ORIGIN_FIELDS: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].required = False
        self.fields["text"].strip = False  # kept as written (the format is positional)

    def generating(self) -> bool:
        return self.cleaned_data.get("generate_rows") is not None or \
            self.cleaned_data.get("generate_cols") is not None

    def generated_design(self, data: dict[str, Any], rows: int, cols: int, seed: int) -> Any:
        """An unsaved design with the generated text and origin fields; ValueError when it cannot be."""
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.generating():
            if not data.get("text", "").strip():
                self.add_error("text", "Write or paste a map, or fill rows and columns to generate one.")
            return data
        rows, cols = data.get("generate_rows"), data.get("generate_cols")
        if rows is None or cols is None:
            self.add_error("generate_rows", "Give both rows and columns to generate a map.")
            return data
        seed = data.get("generate_seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            design = self.generated_design(data, rows, cols, seed)
        except ValueError as error:
            self.add_error(None, f"Cannot generate: {error}")
            return data
        for name in self.ORIGIN_FIELDS:
            setattr(self.instance, name, getattr(design, name))
        data["text"] = design.text
        return data

    def _post_clean(self) -> None:
        if not self.generating() and "text" in self.changed_data:
            for name in self.ORIGIN_FIELDS:
                setattr(self.instance, name, None)
        super()._post_clean()


class MapDesignFormBase(TextOrGeneratedForm):
    """Seed 003's maps: the generator also takes the rates (blank rates: the saved defaults)."""

    ORIGIN_FIELDS = ("seed", "generator_version", "generator_settings")
    generate_rows = forms.IntegerField(min_value=2, max_value=MAX_GENERATED_SIDE, required=False,
                                       label="rows", help_text="Fill rows and columns to generate a map.")
    generate_cols = forms.IntegerField(min_value=2, max_value=MAX_GENERATED_SIDE, required=False,
                                       label="columns")
    generate_seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False, label="seed",
                                       help_text="Blank: a fresh seed (stored with the map).")

    class Meta:
        model = LabyrinthMapDesign
        fields = ("name", "text", "is_active")
        widgets = {"text": forms.Textarea(attrs={"rows": 20, "cols": 80, "spellcheck": "false",
                                                 "style": "font-family: monospace; white-space: pre"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = LabyrinthGeneratorSettings.load()
        for name in GENERATOR_FIELDS:
            self.fields[f"gen_{name}"].help_text = f"blank: the saved default, {getattr(defaults, name)}"

    def generated_design(self, data: dict[str, Any], rows: int, cols: int, seed: int) -> LabyrinthMapDesign:
        defaults = LabyrinthGeneratorSettings.load().to_settings()
        overrides = {name: data[f"gen_{name}"] for name in GENERATOR_FIELDS
                     if data.get(f"gen_{name}") is not None}
        settings = dataclasses.replace(defaults, **overrides)
        return LabyrinthMapDesign.generated(name=data.get("name", ""), rows=rows, cols=cols, seed=seed,
                                            settings=settings)


# The generator's inputs, one optional form field per settings field (declared, so the admin's
# fieldsets may name them).
MapDesignForm = type("MapDesignForm", (MapDesignFormBase,), {
    f"gen_{name}": LabyrinthGeneratorSettings._meta.get_field(name).formfield(required=False)
    for name in GENERATOR_FIELDS})


class MapDesignAdmin(admin.ModelAdmin):
    """What the admins of both kinds of map share: the sections shown only once a map is saved
    (``SAVED_ONLY``: its checks, drawing and origin), the size column and the drawing (``svg``)."""

    SAVED_ONLY: tuple[str, ...] = ()
    search_fields = ("name",)

    def get_fieldsets(self, request: HttpRequest, obj: MapDesign | None = None) -> Any:
        if obj is None:
            return [fs for fs in self.fieldsets if fs[0] not in self.SAVED_ONLY]
        return self.fieldsets

    @admin.display(description="size")
    def size(self, obj: MapDesign) -> str:
        return f"{obj.rows} x {obj.cols}"

    def svg(self, obj: Any) -> str:
        """The saved map drawn (the format's error when its text no longer parses)."""
        raise NotImplementedError

    @admin.display(description="drawing")
    def drawing(self, obj: MapDesign) -> SafeString | str:
        if obj.pk is None:
            return "-"
        try:
            svg = self.svg(obj)
        except (MapFormatError, PaperMapFormatError) as error:  # an old row may predate a format rule
            return format_html("cannot draw: {}", str(error))
        return mark_safe(svg)  # map_svg and paper_map_svg escape every text they write


@admin.register(LabyrinthMapDesign)
class LabyrinthMapDesignAdmin(MapDesignAdmin):
    form = MapDesignForm
    SAVED_ONLY = ("Check and drawing", "Origin")
    list_display = ("name", "size", "field_count", "special_count", "passes", "is_active", "updated_at")
    list_filter = ("is_active", "field_count")
    readonly_fields = ("check_result", "drawing", "size", "field_count", "cell_count", "special_count",
                       "seed", "generator_version", "generator_settings", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "is_active", "text")}),
        ("Check and drawing", {"fields": ("check_result", "drawing")}),
        ("Generate (overwrites the text)", {
            "classes": ("collapse",),
            "fields": (("generate_rows", "generate_cols", "generate_seed"),
                       *[f"gen_{name}" for name in GENERATOR_FIELDS]),
        }),
        ("Origin", {"fields": ("size", "field_count", "cell_count", "special_count", "seed",
                               "generator_version", "generator_settings", "created_at", "updated_at")}),
    )

    @admin.display(description="size (field 0)")
    def size(self, obj: MapDesign) -> str:
        return super().size(obj)

    @admin.display(description="passes check", boolean=True)
    def passes(self, obj: LabyrinthMapDesign) -> bool:
        return obj.passes_check

    @admin.display(description="check")
    def check_result(self, obj: LabyrinthMapDesign) -> str:
        if obj.pk is None:
            return "-"
        if obj.passes_check:
            return "Passes: an exit can be reached from every cell of field 0."
        cells = ", ".join(str(tuple(cell)) for cell in obj.unreachable[:SHOWN_UNREACHABLE])
        hidden = len(obj.unreachable) - SHOWN_UNREACHABLE
        more = f" and {hidden} more" if hidden > 0 else ""
        return f"Fails: {len(obj.unreachable)} cells cannot reach an exit (red in the drawing): {cells}{more}"

    def svg(self, obj: LabyrinthMapDesign) -> str:
        m = parse_map(obj.text)
        largest = max(max(f.rows, f.cols) for f in m.fields)
        size = 24 if largest <= 30 else 12 if largest <= 80 else 6
        return map_svg(m, size=size, highlight=[tuple(cell) for cell in obj.unreachable])


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
