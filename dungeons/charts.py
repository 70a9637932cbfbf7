"""Inline SVG pictures for the designers' admin pages: a dungeon's floors, line charts, bar charts."""
from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from dungeons import generation

#: One colour and letter per room kind, used by every picture so they read alike.
ROOM_STYLE: dict[str, tuple[str, str]] = {
    "enemy": ("#c0392b", "E"),
    "trap": ("#8e44ad", "T"),
    "treasure": ("#d4a017", "$"),
    "story": ("#16a085", "S"),
    "rest": ("#2e86c1", "R"),
    "boss": ("#222222", "B"),
}
SERIES_COLORS = ("#2e86c1", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#7f8c8d")
_FONT = 'font-family="sans-serif"'


def _text(x: float, y: float, content: object, size: int = 11, anchor: str = "start", **attrs: str) -> str:
    extra = "".join(f' {key.replace("_", "-")}="{escape(value)}"' for key, value in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" {_FONT}{extra}>'
        f"{escape(str(content))}</text>"
    )


def dungeon_svg(dungeon: generation.Dungeon, cell: int = 30) -> str:
    """The dungeon floor by floor: one row of coloured rooms per floor, in the order they are passed."""
    label_width, gap, legend_item = 64, 4, 82
    widest = max((len(floor.rooms) for floor in dungeon.floors), default=1)
    width = max(label_width + widest * (cell + gap) + 10, legend_item * 3 + 8)
    legend_per_row = max(1, (width - 8) // legend_item)
    legend_rows = -(-len(ROOM_STYLE) // legend_per_row)
    height = len(dungeon.floors) * (cell + gap) + 10 + legend_rows * 18
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
              f'aria-label="dungeon layout">')]
    for floor in dungeon.floors:
        y = floor.index * (cell + gap) + 4
        parts.append(_text(4, y + cell * 0.65, f"Floor {floor.index}", 12))
        for j, room in enumerate(floor.rooms):
            x = label_width + j * (cell + gap)
            color, letter = ROOM_STYLE[str(room.kind)]
            tip = f"floor {floor.index}, room {j}: {room.kind}"
            if room.npc_kind:
                tip += f" (NPC: {room.npc_kind})"
            if room.story_item:
                tip += f" (story items: {room.story_item})"
            if room.seal:
                tip += f" (sealed: opens with {room.seal})"
            stroke = ' stroke="#f1c40f" stroke-width="4"' if room.npc_kind else ""
            parts.append(
                f'<g><title>{escape(tip)}</title><rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="4" '
                f'fill="{color}"{stroke}/>'
                + _text(x + cell / 2, y + cell * 0.66, letter, 14, "middle", fill="#ffffff",
                        font_weight="bold")
                + "</g>"
            )
    for i, (kind, (color, letter)) in enumerate(ROOM_STYLE.items()):
        row, column = divmod(i, legend_per_row)
        x = 4 + column * legend_item
        legend_y = len(dungeon.floors) * (cell + gap) + 20 + row * 18
        parts.append(f'<rect x="{x}" y="{legend_y - 10}" width="12" height="12" fill="{color}"/>')
        parts.append(_text(x + 16, legend_y, f"{letter} {kind}", 11))
    parts.append("</svg>")
    return "".join(parts)


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
        if value <= step:
            return float(step)
    return value


def line_chart(
    *,
    title: str,
    x_label: str,
    y_label: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    y_min: float = 0.0,
    y_max: float | None = None,
    step: bool = False,
    whole_x: bool = False,
    width: int = 460,
    height: int = 250,
) -> str:
    """Polylines of (x, y) points with axes, ticks and a legend; ``step`` draws integer-valued curves as
    steps; ``whole_x`` (implied by ``step``) ticks whole-number x values only (party sizes, floors)."""
    left, right, top, bottom = 46, 12, 44, 40
    xs = [x for _, points in series for x, _ in points]
    ys = [y for _, points in series for _, y in points]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    x_hi = x_hi if x_hi > x_lo else x_lo + 1
    top_value = y_max if y_max is not None else _nice_max(max(ys, default=1.0))
    top_value = top_value if top_value > y_min else y_min + 1
    tick_step = (top_value - y_min) / 4
    if step:  # integer-valued curves (floors, rooms) get whole-number ticks
        tick_step = float(max(1, math.ceil((top_value - y_min) / 5)))
        top_value = y_min + tick_step * math.ceil((top_value - y_min) / tick_step)
    ticks = round((top_value - y_min) / tick_step)
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (x - x_lo) / (x_hi - x_lo) * plot_w

    def py(y: float) -> float:
        return top + plot_h - (y - y_min) / (top_value - y_min) * plot_h

    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
              f'aria-label="{escape(title)}">'),
             _text(width / 2, 16, title, 13, "middle", font_weight="bold")]
    for i in range(ticks + 1):  # horizontal grid with y ticks
        value = y_min + tick_step * i
        y = py(value)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        tick_label = f"{value:g}" if value == int(value) else f"{value:.2f}"
        parts.append(_text(left - 4, y + 4, tick_label, 10, "end"))
    x_step = (x_hi - x_lo) / 4
    if (step or whole_x) and float(x_lo).is_integer() and float(x_hi).is_integer():  # e.g. floor indices
        x_step = float(max(1, math.ceil((x_hi - x_lo) / 6)))
    value = x_lo
    while value <= x_hi + 1e-9:
        parts.append(_text(px(value), top + plot_h + 14, f"{value:g}", 10, "middle"))
        value += x_step
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" '
                 'stroke="#555"/>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#555"/>')
    parts.append(_text(left + plot_w / 2, height - 6, x_label, 11, "middle"))
    parts.append(_text(12, top + plot_h / 2, y_label, 11, "middle",
                       transform=f"rotate(-90 12 {top + plot_h / 2})"))
    for i, (name, points) in enumerate(series):
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        coords: list[tuple[float, float]] = []
        for j, (x, y) in enumerate(points):
            if step and j:
                coords.append((px(x), py(points[j - 1][1])))
            coords.append((px(x), py(y)))
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{path}"><title>'
                     f"{escape(name)}</title></polyline>")
        legend_x = left + 8 + i * (plot_w / max(len(series), 1))
        parts.append(f'<rect x="{legend_x:.1f}" y="{top - 16}" width="10" height="3" fill="{color}"/>')
        parts.append(_text(legend_x + 13, top - 11, name, 10))
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(
    *,
    title: str,
    bars: Sequence[tuple[str, float, str]],
    value_format: str = "{:.1%}",
    expected: Sequence[float | None] | None = None,
    width: int = 460,
    bar_height: int = 22,
) -> str:
    """Horizontal bars ``(label, value, colour)``; optional ``expected`` values are drawn as tick marks."""
    left, right, top = 110, 70, 28
    height = top + len(bars) * (bar_height + 6) + 10
    plot_w = width - left - right
    top_value = max([value for _, value, _ in bars] + [e for e in (expected or []) if e is not None] + [1e-9])
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
              f'aria-label="{escape(title)}">'),
             _text(width / 2, 16, title, 13, "middle", font_weight="bold")]
    for i, (label, value, color) in enumerate(bars):
        y = top + i * (bar_height + 6)
        length = value / top_value * plot_w
        parts.append(_text(left - 6, y + bar_height * 0.7, label, 11, "end"))
        parts.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar_height}" fill="{color}">'
                     f"<title>{escape(label)}: {escape(value_format.format(value))}</title></rect>")
        parts.append(_text(left + length + 4, y + bar_height * 0.7, value_format.format(value), 10))
        if expected is not None and i < len(expected) and expected[i] is not None:
            ex = left + expected[i] / top_value * plot_w  # type: ignore[operator]
            parts.append(f'<line x1="{ex:.1f}" y1="{y - 2}" x2="{ex:.1f}" y2="{y + bar_height + 2}" '
                         'stroke="#000" stroke-width="2" stroke-dasharray="3,2">'
                         '<title>expected</title></line>')
    parts.append("</svg>")
    return "".join(parts)
