"""The admin's SVG picture of a paper map."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from paper_labyrinth.engine import paper_map_svg
from paper_labyrinth.engine.examples import CUT_CORNERS, SMALL_CLASSIC

NS = "{http://www.w3.org/2000/svg}"


def parts(svg: str, tag: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def test_the_picture_is_well_formed_and_draws_every_part():
    svg = paper_map_svg(SMALL_CLASSIC)
    assert len(parts(svg, "g", "cell")) == 20
    assert len(parts(svg, "g", "river")) == 2 and len(parts(svg, "g", "mouth")) == 1
    assert len(parts(svg, "line", "wall")) == len(SMALL_CLASSIC.walls) == 4
    assert len(parts(svg, "line", "outer")) == 2 * (4 + 5) - 2  # every outer side but the two exits
    assert len(parts(svg, "line", "closed-exit")) == 1
    assert len(parts(svg, "line", "open-exit")) == 1
    assert len(parts(svg, "line", "flow")) == 2
    assert sorted(t.text for t in parts(svg, "text", "treasure")) == ["F", "T"]
    assert sorted(t.text for t in parts(svg, "text", "items")) == ["b2", "g1", "m1"]
    labels = [t.text for t in ET.fromstring(svg).iter(NS + "text")]
    assert {"Я1", "Я2", "Я3", "Э", "А", "М", "Р", "У", "С"} <= set(labels)


def test_hidden_secrets_stay_hidden_without_reveal():
    svg = paper_map_svg(CUT_CORNERS, reveal=False)
    assert sorted(t.text for t in parts(svg, "text", "treasure")) == ["$", "$$"]
    labels = [t.text for t in ET.fromstring(svg).iter(NS + "text")]
    assert "Я" in labels and not any(label.startswith("Я") and label != "Я" for label in labels)
    revealed = paper_map_svg(CUT_CORNERS)
    assert sorted(t.text for t in parts(revealed, "text", "treasure")) == ["F", "FT"]


def test_cells_outside_an_irregular_outline_are_not_drawn():
    svg = paper_map_svg(CUT_CORNERS)
    titles = [t.text for t in ET.fromstring(svg).iter(NS + "title")]
    assert "(0,0) Суша" not in titles and not any(t.startswith("(0,0)") for t in titles)
    assert len(parts(svg, "g", "cell")) == 21
    assert len(parts(svg, "line", "open-exit")) == 2
