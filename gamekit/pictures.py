"""The legend of an admin picture: which mark (a letter, a colour) means what.

A game that draws its board or map for the admin (a mode's ``picture``, a designer map's drawing)
lists its marks here; the admin shows them as a table next to the picture (``backend.admin.legend_html``).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LegendEntry:
    """One mark of a picture: its text (``mark``, may be empty for a colour only), the text's
    ``colour``, the swatch's ``fill`` (the cell's colour in the picture) and what it means (in the
    reader's language: built at request time)."""

    mark: str
    meaning: str
    colour: str = "#222"
    fill: str = "#fff"
