"""Choosing the map of a hosted paper Labyrinth match (seed 002): a designer's map or a generated one.

``paper_map_for_match(design_id, rng, players, variant)`` is what the mode calls when a match
starts: with a design id, that active design, which must pass the validator for the match's
variant (and river mode); with None, a map generated from ``rng`` (the match's seeded generator)
in the seed's usual size for the number of players (``default_size``) or the given one.
"""
from __future__ import annotations

import random

from paper_labyrinth.engine import PaperMap, RiverMode, generate_paper_map, validate_paper_map
from paper_labyrinth.models import PaperMapDesign

# The seed's usual sizes (C§6: 4x4, 3x6, 4x5, 4x6, 5x5; "4x5 for 3-4 players is played in 1-1.5 hours").
USUAL_SIZES: dict[int, tuple[int, int]] = {2: (4, 4), 3: (4, 5), 4: (4, 6), 5: (5, 5)}


class PaperMapUnavailable(LookupError):
    """The design cannot host this match: ``code`` "unknown_map" (no such active design) or
    "map_invalid_for_variant" (it breaks a map rule of the match's variant; ``rules`` lists them)."""

    def __init__(self, code: str, message: str, *, design_id: int, rules: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.design_id = design_id
        self.rules = rules


def default_size(players: int) -> tuple[int, int]:
    """The generated map's (rows, cols) for 2-5 players."""
    if players not in USUAL_SIZES:
        raise ValueError(f"the seed's game has 2 to 5 players, not {players}")
    return USUAL_SIZES[players]


def design_map(design_id: int, variant: str, *, river_mode: RiverMode | None = None) -> PaperMap:
    """An active design's map, checked for ``variant``; PaperMapUnavailable otherwise."""
    row = PaperMapDesign.objects.active().filter(pk=design_id).first()
    if row is None:
        raise PaperMapUnavailable("unknown_map", "No such active paper labyrinth map.", design_id=design_id)
    m: PaperMap = row.to_map()
    result = validate_paper_map(m, variant, river_mode=river_mode)
    if not result.ok:
        broken = ", ".join(result.rules())
        raise PaperMapUnavailable("map_invalid_for_variant",
                                  f"The map breaks the {variant} game's map rules: {broken}.",
                                  design_id=design_id, rules=result.rules())
    return m


def paper_map_for_match(design_id: int | None, rng: random.Random, players: int, variant: str, *,
                        size: tuple[int, int] | None = None, river_mode: RiverMode | None = None,
                        cut_corners: bool = False) -> PaperMap:
    """The match's map: the design ``design_id`` (see ``design_map``), or with None a map generated
    from ``rng`` (``size`` or ``default_size(players)``) that passes the validator for ``variant``."""
    if design_id is not None:
        return design_map(design_id, variant, river_mode=river_mode)
    rows, cols = size or default_size(players)
    return generate_paper_map(rng, rows, cols, players, variant, river_mode=river_mode,
                              cut_corners=cut_corners)
