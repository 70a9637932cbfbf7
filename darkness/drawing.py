"""SVG drawings of a guild maze for the admin: walls, what the guild explored, a run's path."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from darkness.engine import GuildMaze as MazeLayout
from darkness.engine import Pos
from labyrinth.engine.grid import Direction, has_wall

CELL = 28
MARGIN = 6
LETTERS = {"entrance": "E", "camp": "C", "heart": "H", "teleport": "T", "rubber": "R", "stun": "S"}
SECTION_TINTS = ("#f3f6ff", "#f4fff1", "#fff8ee", "#fbf0ff", "#eefcfc", "#fff0f0")


def maze_svg(layout: MazeLayout, explored: set[Pos], path: Sequence[Pos] = ()) -> str:
    """The whole maze (the admin sees everything): unexplored rooms grey, explored ones tinted by section,
    room kinds as letters, walls as black lines, and ``path`` as a red line through room centres."""
    width, height = layout.cols * CELL + 2 * MARGIN, layout.rows * CELL + 2 * MARGIN
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="guild maze">')]
    for r in range(layout.rows):
        for c in range(layout.cols):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            tint = SECTION_TINTS[layout.section((r, c)) % len(SECTION_TINTS)]
            fill = tint if (r, c) in explored else "#c8c8c8"
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>')
            letter = LETTERS.get(layout.room_kind((r, c)))
            if letter:
                out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 5}" font-size="13" '
                           f'text-anchor="middle" font-family="monospace">{escape(letter)}</text>')
    for r in range(layout.rows):
        for c in range(layout.cols):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            cell = (0, r, c)
            if has_wall(layout.map, cell, Direction.UP):
                out.append(_line(x, y, x + CELL, y))
            if has_wall(layout.map, cell, Direction.LEFT):
                out.append(_line(x, y, x, y + CELL))
            if r == layout.rows - 1:
                out.append(_line(x, y + CELL, x + CELL, y + CELL))
            if c == layout.cols - 1:
                out.append(_line(x + CELL, y, x + CELL, y + CELL))
    if path:
        points = " ".join(f"{MARGIN + c * CELL + CELL // 2},{MARGIN + r * CELL + CELL // 2}" for r, c in path)
        out.append(f'<polyline points="{points}" fill="none" stroke="#d0021b" stroke-width="2" '
                   'stroke-opacity="0.7"/>')
    out.append("</svg>")
    return "".join(out)


def _line(x1: int, y1: int, x2: int, y2: int) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" stroke-width="2"/>'
