"""Labyrinth tables: the generator's default rates (singleton), seed 003's maps designers upload or
generate, and the abstract ``MapDesign`` the game apps' designer maps share."""
from __future__ import annotations

import dataclasses
from random import Random
from typing import Any, Protocol, Self

from django.core.exceptions import ValidationError
from django.db import models

from backend.models import SingletonSettings
from labyrinth.engine import (
    GENERATOR_VERSION,
    GeneratorSettings,
    LabyrinthMap,
    MapFormatError,
    format_map,
    generate_map,
    parse_map,
    unreachable_cells,
)
from labyrinth.mode import MAX_SIDE as CONSOLE_LOBBY_MAX_SIDE

_DEFAULTS = GeneratorSettings()
GENERATOR_FIELDS = tuple(f.name for f in dataclasses.fields(GeneratorSettings))
# Designer maps are no larger than what a lobby may ask the mode to generate: every request of a
# match reads its map, so a larger one would cost its players more than any game they can open.
MAX_GENERATED_SIDE = CONSOLE_LOBBY_MAX_SIDE
#: a seed 003 map's cells over all its fields: a full field 0 and as many again for the dream fields
MAX_CONSOLE_CELLS = 2 * CONSOLE_LOBBY_MAX_SIDE * CONSOLE_LOBBY_MAX_SIDE


class LabyrinthGeneratorSettings(SingletonSettings):
    """The generator's defaults (labyrinth.engine.GeneratorSettings, same field names), tuned in the admin."""

    stun_rate = models.FloatField(default=_DEFAULTS.stun_rate, help_text="Chance per cell of a Stun cell.")
    rubber_room_rate = models.FloatField(
        default=_DEFAULTS.rubber_room_rate,
        help_text="Chance per cell of a rubber room (an upper bound: none is placed where it would trap).")
    teleport_rate = models.FloatField(
        default=_DEFAULTS.teleport_rate,
        help_text="Chance per cell of a teleport (an upper bound: each lands nearer the way out).")
    armory_rate = models.FloatField(default=_DEFAULTS.armory_rate, help_text="Chance per cell of an Armory.")
    sleep_rate = models.FloatField(default=_DEFAULTS.sleep_rate,
                                   help_text="Chance per cell of a Sleep cell (needs dream fields).")
    loop_rate = models.FloatField(
        default=_DEFAULTS.loop_rate,
        help_text="Chance that each wall left by the perfect maze is removed "
                  "(0: exactly one way between two cells).")
    exits = models.PositiveSmallIntegerField(default=_DEFAULTS.exits,
                                             help_text="Exits on field 0's outer sides.")
    keys = models.PositiveSmallIntegerField(default=_DEFAULTS.keys,
                                            help_text="Keys on field 0 (0: no key is needed to leave).")
    stun_min = models.PositiveSmallIntegerField(default=_DEFAULTS.stun_min,
                                                help_text="Fewest turns a Stun takes.")
    stun_max = models.PositiveSmallIntegerField(default=_DEFAULTS.stun_max,
                                                help_text="Most turns a Stun takes.")
    sleep_min = models.PositiveSmallIntegerField(default=_DEFAULTS.sleep_min,
                                                 help_text="Shortest dream (moves).")
    sleep_max = models.PositiveSmallIntegerField(default=_DEFAULTS.sleep_max,
                                                 help_text="Longest dream (moves).")
    dream_fields = models.PositiveSmallIntegerField(
        default=_DEFAULTS.dream_fields,
        help_text="Dream fields after field 0, each reached from the one before.")
    dream_rows = models.PositiveSmallIntegerField(default=_DEFAULTS.dream_rows)
    dream_cols = models.PositiveSmallIntegerField(default=_DEFAULTS.dream_cols)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "labyrinth generator settings"
        verbose_name_plural = "labyrinth generator settings"

    def __str__(self) -> str:
        return "Labyrinth generator settings"

    def to_settings(self) -> GeneratorSettings:
        return self.as_value(GeneratorSettings)

    def clean(self) -> None:
        problems = self.to_settings().problems()
        if problems:
            raise ValidationError(problems)


class MapDesignQuerySet(models.QuerySet[Any]):
    def active(self) -> Self:
        """Maps the hosted games may pick: active ones (which always pass their checks)."""
        return self.filter(is_active=True)


class MapDesign(models.Model):
    """A map a designer uploaded or generated, in its seed's text format (the abstract base of
    ``LabyrinthMapDesign`` here and of the game apps' maps, e.g. paper_labyrinth's ``PaperMapDesign``).

    Saving parses the text (a format error -> ValidationError naming the line) and stores what the
    list shows (``_derive``: the size, the checks' findings). A map that fails its checks
    (``activation_problem``) can be kept as a draft but not be active (the subclass's database
    constraint says so too)."""

    name = models.CharField(max_length=100, unique=True)
    text = models.TextField()
    is_active = models.BooleanField(default=True, help_text="Offered to the hosted games (only while the map "
                                                            "passes its checks).")
    rows = models.PositiveIntegerField(editable=False, default=0, help_text="Of field 0 in a seed 003 map.")
    cols = models.PositiveIntegerField(editable=False, default=0, help_text="Of field 0 in a seed 003 map.")
    cell_count = models.PositiveIntegerField(editable=False, default=0,
                                             help_text="Cells of the map (of all fields in a seed 003 map).")
    seed = models.BigIntegerField(null=True, blank=True, editable=False, help_text="When generated.")
    generator_version = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = MapDesignQuerySet.as_manager()

    #: the largest map the hosted game lets a lobby generate: a designer map may be no larger
    MAX_SIDE: int
    MAX_CELLS: int

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return str(self.name)

    def clean(self) -> None:
        self._derive()
        problem = self.activation_problem()
        if self.is_active and problem:
            raise ValidationError({"is_active": problem})

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.clean()
        super().save(*args, **kwargs)

    def _derive(self) -> None:
        """Parse the text and store the derived fields; ValidationError({"text": ...}) when unreadable."""
        raise NotImplementedError

    def activation_problem(self) -> str | None:
        """Why the derived findings keep the map inactive (too large for a lobby, or failing the
        checks), or None when it may be active."""
        if self.rows > self.MAX_SIDE or self.cols > self.MAX_SIDE or self.cell_count > self.MAX_CELLS:
            return (f"the map is larger than a lobby may ask for ({self.size_rule()}): keep it inactive "
                    "until it is cut down")
        return self.check_problem()

    @classmethod
    def size_rule(cls) -> str:
        return f"at most {cls.MAX_SIDE} x {cls.MAX_SIDE}"

    def check_problem(self) -> str | None:
        """Why the map's checks keep it inactive, or None when it passes them."""
        raise NotImplementedError

    @classmethod
    def in_pool(cls, design_id: int | None) -> bool:
        """Whether a lobby may still name this design: its hidden content must stay hidden until then."""
        return design_id is not None and cls.objects.active().filter(pk=design_id).exists()


class LabyrinthMapDesign(MapDesign):
    """A map in seed 003's text format: the list shows the size of field 0, the fields, the special
    cells and the check's unreachable cells."""

    MAX_SIDE = CONSOLE_LOBBY_MAX_SIDE
    MAX_CELLS = MAX_CONSOLE_CELLS

    text = models.TextField(help_text="Seed 003's format: 'R C', the rows and wall lines, then the legend.")
    field_count = models.PositiveSmallIntegerField(editable=False, default=1)
    special_count = models.PositiveIntegerField(editable=False, default=0)
    unreachable = models.JSONField(editable=False, default=list, blank=True,
                                   help_text="Field-0 cells [f, r, c] from which no way leads out.")
    unreachable_count = models.PositiveIntegerField(editable=False, default=0)
    generator_settings = models.JSONField(null=True, blank=True, editable=False)

    class Meta(MapDesign.Meta):
        verbose_name = "labyrinth map"
        constraints = [
            models.CheckConstraint(condition=~models.Q(is_active=True, unreachable_count__gt=0),
                                   name="labyrinth_active_maps_pass_check"),
            models.CheckConstraint(
                condition=models.Q(is_active=False) | models.Q(
                    rows__lte=CONSOLE_LOBBY_MAX_SIDE, cols__lte=CONSOLE_LOBBY_MAX_SIDE,
                    cell_count__lte=MAX_CONSOLE_CELLS),
                name="labyrinth_active_maps_fit_a_lobby"),
        ]

    @property
    def passes_check(self) -> bool:
        return not self.unreachable

    def to_map(self) -> LabyrinthMap:
        """The parsed map (the text was valid when saved)."""
        return parse_map(self.text)

    @classmethod
    def size_rule(cls) -> str:
        return (f"field 0 at most {cls.MAX_SIDE} x {cls.MAX_SIDE}, all fields together at most "
                f"{cls.MAX_CELLS} cells")

    def check_problem(self) -> str | None:
        if not self.unreachable:
            return None
        return (f"the map fails the check ({len(self.unreachable)} cells cannot reach an exit): keep it "
                "inactive until it passes")

    def _derive(self) -> None:
        try:
            m = parse_map(self.text)
        except MapFormatError as error:
            raise ValidationError({"text": format_error(self.text, error)}) from error
        self.rows, self.cols = m.fields[0].rows, m.fields[0].cols
        self.cell_count = sum(f.rows * f.cols for f in m.fields)
        self.field_count = len(m.fields)
        self.special_count = len(m.specials())
        self.unreachable = [list(cell) for cell in unreachable_cells(m)]
        self.unreachable_count = len(self.unreachable)

    @classmethod
    def generated(cls, *, name: str, rows: int, cols: int, seed: int,
                  settings: GeneratorSettings) -> LabyrinthMapDesign:
        """An unsaved design holding a freshly generated map (ValueError on bad rows, cols or settings)."""
        if not (2 <= rows <= MAX_GENERATED_SIDE and 2 <= cols <= MAX_GENERATED_SIDE):
            raise ValueError(f"rows and columns must be between 2 and {MAX_GENERATED_SIDE}")
        m = generate_map(rows, cols, Random(seed), settings)
        return cls(name=name, text=format_map(m), seed=seed, generator_version=GENERATOR_VERSION,
                   generator_settings=dataclasses.asdict(settings))


class LineError(Protocol):
    """A map format's parse error (``MapFormatError``, the paper format's ``PaperMapFormatError``, ...)."""

    line: int


def format_error(text: str, error: LineError) -> str:
    """The parser's message with the offending line quoted, for designers."""
    lines = text.removeprefix("\ufeff").split("\n")
    if 1 <= error.line <= len(lines) and lines[error.line - 1].strip():
        return f"{error} (line {error.line} reads: {lines[error.line - 1].rstrip()!r})"
    return str(error)
