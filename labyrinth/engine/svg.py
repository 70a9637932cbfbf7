"""A labyrinth map drawn as SVG (for the admin): walls, special cells, highlighted cells, a path."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from labyrinth.engine.grid import (
    Armory,
    Cell,
    Direction,
    Exit,
    Field,
    Key,
    LabyrinthMap,
    RubberRoom,
    Sleep,
    Special,
    Stun,
    Teleport,
)
from labyrinth.engine.mapformat import describe_special

ARROWS = {Direction.UP: "\u2191", Direction.LEFT: "\u2190", Direction.DOWN: "\u2193",
          Direction.RIGHT: "\u2192"}
COLOURS: dict[type, str] = {Stun: "#f6d365", RubberRoom: "#c3aed6", Teleport: "#9ad0f5",
                            Armory: "#b8b8b8", Exit: "#8fd694", Key: "#ffd700", Sleep: "#f4a6c1"}
GAP = 2  # cells between two fields


@dataclass(frozen=True)
class Mark:
    """A short text drawn in a cell over the map (a game's building, item or creature): ``top`` marks go
    on the cell's upper line, the others on its lower one; ``fill`` (optional) tints the cell."""

    text: str
    colour: str
    title: str
    top: bool = False
    fill: str | None = None


def label(special: Special) -> str:
    """The short text drawn in a special cell."""
    if isinstance(special, Stun):
        return f"S{special.turns}"
    if isinstance(special, RubberRoom):
        return "R" + ARROWS[special.direction]
    if isinstance(special, Teleport):
        return "T"
    if isinstance(special, Armory):
        return "A"
    if isinstance(special, Exit):
        return "E" + ARROWS[special.direction]
    if isinstance(special, Key):
        return "K"
    return f"Z{special.turns}"


def title(cell: Cell, special: Special | None) -> str:
    """The hover text of a cell: its coordinates and its legend class."""
    return f"{cell}" if special is None else f"{cell} {describe_special(special)}"


def map_svg(m: LabyrinthMap, *, size: int = 24, highlight: Iterable[Cell] = (),
            path: Iterable[Cell] = (), teleport_lines: bool = True,
            marks: Mapping[Cell, Sequence[Mark]] | None = None) -> str:
    """The whole map, fields side by side (field 0 on the left), `size` pixels per cell; `highlight`
    cells are tinted red, `path` is drawn as a line through cell centres; `marks` are texts a game
    draws in its cells (see ``Mark``)."""
    lefts = []
    x = 1
    for fld in m.fields:
        lefts.append(x)
        x += fld.cols + GAP
    width = (x - GAP + 1) * size
    height = (max(fld.rows for fld in m.fields) + 2) * size
    top = size  # one row for the field labels
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="{size * 0.45:.1f}" '
           'role="img" aria-label="labyrinth map" style="max-width:100%;height:auto;background:#fff">')]

    def corner(f: int, r: int, c: int) -> tuple[int, int]:
        return (lefts[f] + c) * size, top + r * size

    def centre(cell: Cell) -> tuple[float, float]:
        x0, y0 = corner(*cell)
        return x0 + size / 2, y0 + size / 2

    marked = set(highlight)
    for f, fld in enumerate(m.fields):
        x0, y0 = corner(f, 0, 0)
        out.append(f'<text x="{x0}" y="{y0 - size * 0.3:.1f}">field {f}</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{fld.cols * size}" height="{fld.rows * size}" '
                   'fill="#fafafa" stroke="#eee"/>')
        for r in range(fld.rows):
            for c in range(fld.cols):
                special = fld.cells[r][c]
                cx, cy = corner(f, r, c)
                fill = "#ff8a8a" if (f, r, c) in marked else (COLOURS[type(special)] if special else None)
                if fill is not None:
                    out.append(f'<rect x="{cx}" y="{cy}" width="{size}" height="{size}" fill="{fill}">'
                               f'<title>{escape(title((f, r, c), special))}</title></rect>')
                cell_marks = (marks or {}).get((f, r, c), ())
                tint = next((mark.fill for mark in cell_marks if mark.fill), None)
                if tint is not None and fill is None:
                    out.append(f'<rect x="{cx}" y="{cy}" width="{size}" height="{size}" fill="{tint}"/>')
                if special is not None:
                    y = cy + size * (0.45 if cell_marks else 0.65)
                    out.append(f'<text x="{cx + size / 2:.1f}" y="{y:.1f}" '
                               f'text-anchor="middle">{escape(label(special))}</text>')
                out.extend(_marks(cell_marks, cx, cy, size))
        walls = []
        for r in range(fld.rows):
            for c in range(fld.cols - 1):
                if fld.right[r][c]:
                    cx, cy = corner(f, r, c + 1)
                    walls.append(f"M{cx} {cy}v{size}")
        for r in range(fld.rows - 1):
            for c in range(fld.cols):
                if fld.down[r][c]:
                    cx, cy = corner(f, r + 1, c)
                    walls.append(f"M{cx} {cy}h{size}")
        walls.extend(_outline(fld, x0, y0, size))
        out.append(f'<path d="{"".join(walls)}" stroke="#222" stroke-width="{max(2, size // 8)}" '
                   'stroke-linecap="square" fill="none"/>')
        if teleport_lines:
            for r in range(fld.rows):
                for c in range(fld.cols):
                    special = fld.cells[r][c]
                    if isinstance(special, Teleport):
                        (ax, ay), (bx, by) = centre((f, r, c)), centre((f, *special.destination))
                        out.append(f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#1f77b4" '
                                   'stroke-dasharray="3 3" opacity="0.6"/>')
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(centre, path))
    if points:
        out.append(f'<polyline points="{points}" fill="none" stroke="#d62728" '
                   f'stroke-width="{max(2, size // 10)}" opacity="0.8"/>')
    out.append("</svg>")
    return "\n".join(out)


def _marks(marks: Sequence[Mark], x: int, y: int, size: int) -> list[str]:
    """A cell's marks as two lines of coloured texts, each with its hover title."""
    out = []
    for top, baseline in ((True, 0.4), (False, 0.88)):
        line = [m for m in marks if m.top is top]
        if line:
            spans = " ".join(f'<tspan class="mark" fill="{escape(m.colour)}"><title>{escape(m.title)}</title>'
                             f'{escape(m.text)}</tspan>' for m in line)
            out.append(f'<text x="{x + size / 2:.1f}" y="{y + size * baseline:.1f}" text-anchor="middle" '
                       f'font-weight="bold">{spans}</text>')
    return out


def _outline(fld: Field, x0: int, y0: int, size: int) -> list[str]:
    """The outer sides of a field whose top left corner is at (x0, y0), each cell side drawn unless
    an exit opens it."""
    segments = []
    for r in range(fld.rows):
        for c in range(fld.cols):
            special = fld.cells[r][c]
            opened = special.direction if isinstance(special, Exit) else None
            x, y = x0 + c * size, y0 + r * size
            if r == 0 and opened is not Direction.UP:
                segments.append(f"M{x} {y}h{size}")
            if r == fld.rows - 1 and opened is not Direction.DOWN:
                segments.append(f"M{x} {y + size}h{size}")
            if c == 0 and opened is not Direction.LEFT:
                segments.append(f"M{x} {y}v{size}")
            if c == fld.cols - 1 and opened is not Direction.RIGHT:
                segments.append(f"M{x + size} {y}v{size}")
    return segments
