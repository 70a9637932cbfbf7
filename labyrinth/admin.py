"""Admin of the labyrinth app: designers upload or generate seed 003's maps, see format errors by
line, the check's result and the map drawn as SVG; the generator's default rates as a singleton.
The form and admin bases here serve the game apps' designer maps too (paper_labyrinth/admin.py)."""
from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from backend.admin import SingletonAdmin
from backend.sql import concrete_field
from labyrinth.engine import MapFormatError, map_svg, parse_map
from labyrinth.models import (
    GENERATOR_FIELDS,
    MAX_GENERATED_SIDE,
    LabyrinthGeneratorSettings,
    LabyrinthMapDesign,
    MapDesign,
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
        text = self.fields["text"]
        if isinstance(text, forms.CharField):
            text.strip = False  # kept as written (the format is positional)

    def generating(self) -> bool:
        return self.cleaned_data.get("generate_rows") is not None or \
            self.cleaned_data.get("generate_cols") is not None

    def generated_design(self, data: dict[str, Any], rows: int, cols: int, seed: int) -> Any:
        """An unsaved design with the generated text and origin fields; ValueError when it cannot be."""
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # ModelForm.clean() returns the cleaned data (typed optional)
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
        super()._post_clean()  # type: ignore[misc]  # BaseModelForm's hook, absent from the stubs


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
    f"gen_{name}": concrete_field(LabyrinthGeneratorSettings, name).formfield(required=False)
    for name in GENERATOR_FIELDS})


class MapDesignAdmin(admin.ModelAdmin):
    """What the admins of every kind of map share: the sections shown only once a map is saved
    (``SAVED_ONLY``: its checks, drawing and origin), the size column and the drawing (``svg``;
    ``FORMAT_ERROR``: what its format's parser raises)."""

    SAVED_ONLY: tuple[str, ...] = ()
    FORMAT_ERROR: type[ValueError]
    search_fields = ("name",)

    def get_fieldsets(self, request: HttpRequest, obj: MapDesign | None = None) -> Any:
        if obj is None:
            return [fs for fs in self.fieldsets or () if fs[0] not in self.SAVED_ONLY]
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
        except self.FORMAT_ERROR as error:  # an old row may predate a format rule
            return format_html("cannot draw: {}", str(error))
        return mark_safe(svg)  # map_svg and paper_map_svg escape every text they write


@admin.register(LabyrinthMapDesign)
class LabyrinthMapDesignAdmin(MapDesignAdmin):
    form = MapDesignForm
    FORMAT_ERROR = MapFormatError
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
