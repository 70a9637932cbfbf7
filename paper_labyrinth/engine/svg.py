"""A seed 002 map drawn as SVG for the admin: cells coloured and lettered, walls, exits, hole
numbers, river arrows, treasures and loose items.

``reveal=True`` (the designer's view) marks each treasure true (T) or false (F) and numbers the
holes of each cycle; ``reveal=False`` draws treasures as "$" and holes unnumbered, for showing a
map where those secrets must stay hidden.
"""
from __future__ import annotations

from html import escape

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine.mapformat import LETTERS
from paper_labyrinth.engine.model import CellType, Outer, PaperMap, Pos, neighbour, outer_kind

COLOURS: dict[CellType, str] = {
    CellType.LAND: "#f3ead2", CellType.HOSPITAL: "#f7b2b2", CellType.ARSENAL: "#c4c4c4",
    CellType.HOLE: "#8d6e63", CellType.RIVER: "#90caf9", CellType.MOUTH: "#1e88e5",
    CellType.ENCEPHALITIS: "#c5e1a5",
}
NAMES: dict[CellType, str] = {
    CellType.LAND: "Суша", CellType.HOSPITAL: "Медсанбат", CellType.ARSENAL: "Арсенал", CellType.HOLE: "Яма",
    CellType.RIVER: "Река", CellType.MOUTH: "Устье", CellType.ENCEPHALITIS: "Энцефалит",
}
WALL = "#222"
OPEN_EXIT = "#2e7d32"
CLOSED_EXIT = "#e65100"
ARROWS = {Direction.UP: "\u2191", Direction.LEFT: "\u2190", Direction.DOWN: "\u2193",
          Direction.RIGHT: "\u2192"}


def _side_line(r: int, c: int, d: Direction, size: int, margin: int) -> tuple[int, int, int, int]:
    x0, y0 = margin + c * size, margin + r * size
    x1, y1 = x0 + size, y0 + size
    return {Direction.UP: (x0, y0, x1, y0), Direction.DOWN: (x0, y1, x1, y1),
            Direction.LEFT: (x0, y0, x0, y1), Direction.RIGHT: (x1, y0, x1, y1)}[d]


def paper_map_svg(m: PaperMap, *, reveal: bool = True, size: int = 44) -> str:
    """The map as a standalone SVG document, ``size`` pixels per cell."""
    margin = size // 2
    width, height = m.cols * size + 2 * margin, m.rows * size + 2 * margin
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="{size * 0.3:.1f}" role="img" '
           'aria-label="paper labyrinth map" style="max-width:100%;height:auto;background:#fff">'),
           ('<defs><marker id="flow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
           'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#0d47a1"/></marker></defs>')]
    hole_labels: dict[Pos, str] = {}
    for k, cycle in enumerate(m.holes):
        for i, pos in enumerate(cycle):
            hole_labels[pos] = f"{i + 1}" if len(m.holes) == 1 else f"{k + 1}.{i + 1}"

    for pos in sorted(m.cells):
        kind = m.cells[pos]
        r, c = pos
        x, y = margin + c * size, margin + r * size
        tip = f"({r},{c}) {NAMES[kind]}"
        out.append(f'<g class="cell {kind.value}"><title>{escape(tip)}</title>'
                   f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{COLOURS[kind]}" '
                   'stroke="#ddd"/>')
        colour = "#fff" if kind in (CellType.HOLE, CellType.MOUTH) else "#333"
        label = LETTERS[kind] + (hole_labels.get(pos, "") if reveal else "")
        out.append(f'<text x="{x + size * 0.08:.1f}" y="{y + size * 0.32:.1f}" fill="{colour}">'
                   f'{escape(label)}</text>')
        stack = m.treasures.get(pos, ())
        if stack:
            text = "".join("T" if t else "F" for t in stack) if reveal else "$" * len(stack)
            out.append(f'<text class="treasure" x="{x + size * 0.08:.1f}" y="{y + size * 0.9:.1f}" '
                       f'fill="#b8860b" font-weight="bold">{text}</text>')
        items = [f"{what}{n}" for what, n in (("b", m.bullets.get(pos, 0)), ("g", m.grenades.get(pos, 0)),
                                                 ("m", m.mines.get(pos, 0))) if n]
        if items:
            out.append(f'<text class="items" x="{x + size * 0.95:.1f}" y="{y + size * 0.32:.1f}" '
                       f'text-anchor="end" font-size="{size * 0.22:.1f}" fill="{colour}">'
                       f'{" ".join(items)}</text>')
        out.append("</g>")

    for src, dst in sorted(m.flow.items()):
        x1, y1 = margin + (src[1] + 0.5) * size, margin + (src[0] + 0.5) * size
        x2, y2 = margin + (dst[1] + 0.5) * size, margin + (dst[0] + 0.5) * size
        out.append(f'<line class="flow" x1="{x1:.1f}" y1="{y1:.1f}" x2="{(x1 + x2 * 2) / 3:.1f}" '
                   f'y2="{(y1 + y2 * 2) / 3:.1f}" stroke="#0d47a1" stroke-width="2" '
                   'marker-end="url(#flow)"/>')

    for wall in sorted(m.walls, key=sorted):
        a, b = sorted(wall)
        d = Direction.RIGHT if a[0] == b[0] else Direction.DOWN
        x1, y1, x2, y2 = _side_line(a[0], a[1], d, size, margin)
        out.append(f'<line class="wall" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{WALL}" '
                   'stroke-width="4" stroke-linecap="round"/>')
    for pos in sorted(m.cells):
        for d in DIRECTIONS:
            if neighbour(m, pos, d) is not None:
                continue
            sort = outer_kind(m, pos, d)
            x1, y1, x2, y2 = _side_line(pos[0], pos[1], d, size, margin)
            if sort is Outer.WALL:
                out.append(f'<line class="outer" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{WALL}" '
                           'stroke-width="5" stroke-linecap="square"/>')
            elif sort is Outer.CLOSED_EXIT:
                out.append(f'<line class="closed-exit" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                           f'stroke="{CLOSED_EXIT}" stroke-width="5" stroke-dasharray="4 3">'
                           '<title>closed exit</title></line>')
            else:
                out.append(f'<line class="open-exit" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                           f'stroke="{OPEN_EXIT}" stroke-width="2" stroke-dasharray="1 5"><title>open exit'
                           '</title></line>')
                dr, dc = d.delta
                cx, cy = (x1 + x2) / 2 + dc * margin * 0.5, (y1 + y2) / 2 + dr * margin * 0.5
                out.append(f'<text class="open-exit" x="{cx:.1f}" y="{cy + size * 0.1:.1f}" '
                           f'text-anchor="middle" fill="{OPEN_EXIT}" font-weight="bold">{ARROWS[d]}</text>')
    out.append("</svg>")
    return "\n".join(out)
