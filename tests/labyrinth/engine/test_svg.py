"""map_svg draws valid SVG with walls, special cells, highlighted cells and a path."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from random import Random

from labyrinth.engine import generate_map, map_svg, parse_map
from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE
from tests.labyrinth.engine.test_generate_map import RICH

NS = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_seed_example_is_drawn_with_its_letters_and_walls():
    root = parsed(map_svg(parse_map(FIRST_EXAMPLE), size=20))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert texts == ["field 0", "S2", "E\u2191", "S2", "R\u2190", "A", "R\u2192"]
    walls = root.find(f"{NS}path").get("d")
    # the two inner walls: right of (0, 0) and below (0, 2); cells start at x = 20, y = 20
    assert "M40 20v20" in walls and "M60 40h20" in walls
    # the outer side above the exit (0, 2) is open, the one above (0, 1) is not
    assert "M60 20h20" not in walls and "M40 20h20" in walls


def test_highlighted_cells_and_the_path_are_drawn():
    root = parsed(map_svg(parse_map(FIRST_EXAMPLE), size=20, highlight=[(0, 1, 1)],
                          path=[(0, 2, 2), (0, 1, 2)]))
    red = [r for r in root.iter(f"{NS}rect") if r.get("fill") == "#ff8a8a"]
    assert [(r.get("x"), r.get("y")) for r in red] == [("40", "40")]
    assert root.find(f"{NS}polyline").get("points") == "70.0,70.0 70.0,50.0"


def test_every_field_is_drawn_side_by_side():
    root = parsed(map_svg(parse_map(SLEEP_EXAMPLE)))
    assert [t.text for t in root.iter(f"{NS}text") if t.text.startswith("field")] == ["field 0", "field 1"]


def test_a_large_generated_map_is_valid_svg_with_every_teleport_line():
    m = generate_map(40, 40, Random(2), RICH)
    root = parsed(map_svg(m, size=8))
    teleports = sum(1 for _, s in m.specials() if type(s).__name__ == "Teleport")
    assert len(list(root.iter(f"{NS}line"))) == teleports > 0
