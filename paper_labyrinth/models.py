"""The paper Labyrinth's table: the maps designers upload or generate (seed 002's text format)."""
from __future__ import annotations

from random import Random

from django.core.exceptions import ValidationError
from django.db import models

from labyrinth.models import MapDesign, format_error
from paper_labyrinth.engine import (
    PAPER_GENERATOR_VERSION,
    Finding,
    PaperMap,
    PaperMapFormatError,
    format_paper_map,
    generate_paper_map,
    parse_paper_map,
    validate_paper_map,
)
from paper_labyrinth.engine.generator import MAX_SIDE as PAPER_LOBBY_MAX_SIDE

PAPER_VARIANTS = (("classic", "classic"), ("quantum", "quantum"))


class PaperMapDesign(MapDesign):
    """A map of seed 002's paper Labyrinth in the designers' text format (docs/paper-labyrinth-maps.md),
    validated for one variant: the list shows the size and the validator's errors and warnings
    (each: rule, cells, message); a map with errors cannot be active."""

    MAX_SIDE = PAPER_LOBBY_MAX_SIDE
    MAX_CELLS = PAPER_LOBBY_MAX_SIDE * PAPER_LOBBY_MAX_SIDE

    text = models.TextField(help_text="The paper map format: 'map R C', the picture, then holes, treasures "
                                      "and items (docs/paper-labyrinth-maps.md).")
    variant = models.CharField(max_length=10, choices=PAPER_VARIANTS, default="classic",
                               help_text="The variant the map is validated for (quantum needs an open exit, "
                                         "classic forbids exits next to sources; rivers move differently).")
    errors = models.JSONField(editable=False, default=list, blank=True,
                              help_text="The broken map rules: {rule, cells, message}.")
    error_count = models.PositiveIntegerField(editable=False, default=0)
    warnings = models.JSONField(editable=False, default=list, blank=True,
                                help_text="The recommendations not followed: {rule, cells, message}.")
    warning_count = models.PositiveIntegerField(editable=False, default=0)
    generator_players = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)

    class Meta(MapDesign.Meta):
        # The table keeps the name it had while the model lived in the labyrinth app: the move is
        # then a change of Django's state only (no copy, no rename), and so are its constraints' names.
        db_table = "labyrinth_papermapdesign"
        verbose_name = "paper labyrinth map"
        constraints = [
            models.CheckConstraint(condition=~models.Q(is_active=True, error_count__gt=0),
                                   name="labyrinth_active_paper_maps_are_valid"),
            models.CheckConstraint(
                condition=models.Q(is_active=False) | models.Q(
                    rows__lte=PAPER_LOBBY_MAX_SIDE, cols__lte=PAPER_LOBBY_MAX_SIDE),
                name="labyrinth_active_paper_maps_fit_a_lobby"),
        ]

    @property
    def is_valid(self) -> bool:
        return not self.errors

    def to_map(self) -> PaperMap:
        """The parsed map (the text was readable when saved)."""
        return parse_paper_map(self.text)

    def check_problem(self) -> str | None:
        if not self.errors:
            return None
        return (f"the map breaks {len(self.errors)} map rule(s) of the {self.variant} game: keep it inactive "
                "until it passes")

    def _derive(self) -> None:
        if self.variant not in dict(PAPER_VARIANTS):
            raise ValidationError({"variant": "classic or quantum"})
        try:
            m = parse_paper_map(self.text)
        except PaperMapFormatError as error:
            raise ValidationError({"text": format_error(self.text, error)}) from error
        result = validate_paper_map(m, self.variant)
        self.rows, self.cols, self.cell_count = m.rows, m.cols, len(m.cells)
        self.errors = [_finding(f) for f in result.errors]
        self.warnings = [_finding(f) for f in result.warnings]
        self.error_count, self.warning_count = len(self.errors), len(self.warnings)

    @classmethod
    def generated(cls, *, name: str, rows: int, cols: int, players: int, variant: str, seed: int,
                  cut_corners: bool = False) -> PaperMapDesign:
        """An unsaved design holding a freshly generated map (ValueError on bad sizes, players or variant)."""
        m = generate_paper_map(Random(seed), rows, cols, players, variant, cut_corners=cut_corners)
        return cls(name=name, text=format_paper_map(m), variant=variant, seed=seed,
                   generator_version=PAPER_GENERATOR_VERSION, generator_players=players)


def _finding(f: Finding) -> dict[str, object]:
    return {"rule": f.rule, "cells": [list(p) for p in f.cells], "message": f.message}
