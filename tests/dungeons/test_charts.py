"""Inline SVG pictures: well-formed, escaped, one rect per room."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from dungeons.charts import bar_chart, dungeon_svg, line_chart
from dungeons.generation import GenerationParams, generate_dungeon


def test_dungeon_picture_has_one_room_square_per_room_and_marks_the_npc() -> None:
    d = generate_dungeon(kind="ordinary", n=4, rank=0.0, completed=300.0, same_guild=True,
                         params=GenerationParams(), rng=random.Random(2))
    svg = dungeon_svg(d)
    root = ET.fromstring(svg)
    rooms = [g for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert len(rooms) == d.room_total
    assert ("NPC: " in svg) == (d.npc is not None)


def test_charts_are_well_formed_and_escape_their_text() -> None:
    line = line_chart(title="a <b> & c", x_label="x", y_label="y",
                      series=[("s<1>", [(0, 0), (1, 2), (2, 3)])], step=True)
    bars = bar_chart(title="t", bars=[("k&k", 0.5, "#000")], expected=[0.4])
    for svg in (line, bars):
        ET.fromstring(svg)  # parses: every text is escaped
    assert "a &lt;b&gt; &amp; c" in line and "<polyline" in line
