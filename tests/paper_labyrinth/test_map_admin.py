"""Admin of paper maps: upload or generate, format errors by line, the validator's rules and warnings,
the SVG; the model's derived fields and the database constraint."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client

from paper_labyrinth.engine import format_paper_map, generate_paper_map, validate_paper_map
from paper_labyrinth.engine.examples import SMALL_CLASSIC_TEXT
from paper_labyrinth.models import PaperMapDesign

ADD = "/admin/paper_labyrinth/papermapdesign/add/"
LIST = "/admin/paper_labyrinth/papermapdesign/"
TWO_TRUE = SMALL_CLASSIC_TEXT.replace("treasure (1,3) false", "treasure (1,3) true")

pytestmark = pytest.mark.django_db


def change_url(design: PaperMapDesign) -> str:
    return f"/admin/paper_labyrinth/papermapdesign/{design.pk}/change/"


def test_the_examples_are_loaded_and_the_pages_render(admin_client: Client):
    assert admin_client.get(LIST).status_code == 200
    assert admin_client.get(ADD).status_code == 200
    design = PaperMapDesign.objects.get(name="Seed 002: small classic example")
    assert (
        design.is_active and design.is_valid and (design.rows, design.cols, design.cell_count) == (4, 5, 20)
    )
    html = admin_client.get(change_url(design)).content.decode()
    assert 'aria-label="paper labyrinth map"' in html and "<svg" in html
    assert "Passes every map rule of the classic game." in html
    assert "Every recommendation of C§8 is followed." in html
    assert PaperMapDesign.objects.get(name="Seed 002: cut corners example").is_valid


def test_uploading_a_map_saves_and_draws_it(admin_client: Client):
    response = admin_client.post(
        ADD, {"name": "mine", "variant": "quantum", "text": SMALL_CLASSIC_TEXT, "is_active": "on"}
    )
    assert response.status_code == 302
    design = PaperMapDesign.objects.get(name="mine")
    assert design.text == SMALL_CLASSIC_TEXT and design.variant == "quantum" and design.seed is None
    html = admin_client.get(change_url(design)).content.decode()
    assert "Passes every map rule of the quantum game." in html
    assert "Я1" in html and 'class="flow"' in html


def test_bad_text_is_refused_with_the_line_shown(admin_client: Client):
    bad = SMALL_CLASSIC_TEXT.replace("|Я С А С М|", "|Я С Q С М|")
    response = admin_client.post(ADD, {"name": "bad", "variant": "classic", "text": bad, "is_active": "on"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "line 7: character 6 (cell (1, 2)) must be a cell letter" in html
    assert "line 7 reads: &#x27;|Я С Q С М|  # 1&#x27;" in html  # the line quoted as written
    assert not PaperMapDesign.objects.filter(name="bad").exists()


def test_a_map_breaking_a_rule_may_only_be_a_draft_and_shows_rule_and_cells(admin_client: Client):
    response = admin_client.post(
        ADD, {"name": "two", "variant": "classic", "text": TWO_TRUE, "is_active": "on"}
    )
    assert (
        response.status_code == 200
        and "breaks 1 map rule(s) of the classic game" in response.content.decode()
    )
    response = admin_client.post(ADD, {"name": "two", "variant": "classic", "text": TWO_TRUE})
    assert response.status_code == 302
    design = PaperMapDesign.objects.get(name="two")
    assert design.error_count == 1 and design.errors[0]["rule"] == "C8.3"
    assert design.errors[0]["cells"] == [[1, 3], [2, 2]]
    html = admin_client.get(change_url(design)).content.decode()
    assert "<b>C8.3</b>: exactly one true treasure is required, the map has 2 [(1,3), (2,2)]" in html
    assert (
        "Recommendations not followed (warnings, C§8)" in html and "<b>C8.в</b>" in html
    )  # no false one left


def test_generating_a_map(admin_client: Client):
    response = admin_client.post(
        ADD,
        {
            "name": "gen",
            "variant": "quantum",
            "generate_rows": 5,
            "generate_cols": 6,
            "generate_players": 4,
            "generate_seed": 11,
            "is_active": "on",
        },
    )
    assert response.status_code == 302
    design = PaperMapDesign.objects.get(name="gen")
    expected = generate_paper_map(random.Random(11), 5, 6, 4, "quantum")
    assert design.text == format_paper_map(expected) and design.to_map() == expected
    assert (design.seed, design.generator_players, design.generator_version) == (11, 4, 1)
    assert design.is_valid and design.is_active
    assert admin_client.get(change_url(design)).status_code == 200


def test_generating_with_cut_corners_and_a_fresh_seed(admin_client: Client):
    admin_client.post(
        ADD,
        {
            "name": "cut",
            "variant": "classic",
            "generate_rows": 6,
            "generate_cols": 6,
            "generate_cut_corners": "on",
            "is_active": "on",
        },
    )
    design = PaperMapDesign.objects.get(name="cut")
    assert design.seed is not None and design.cell_count == 32


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"generate_rows": 5}, "Give both rows and columns"),
        ({"generate_rows": 2, "generate_cols": 5}, "greater than or equal to 3"),
        ({"generate_rows": 5, "generate_cols": 5, "generate_players": 6}, "less than or equal to 5"),
        ({}, "Write or paste a map, or fill rows and columns"),
    ],
)
def test_bad_generator_inputs(admin_client: Client, data, words):
    response = admin_client.post(ADD, {"name": "x", "variant": "classic", **data})
    assert response.status_code == 200 and words in response.content.decode()
    assert not PaperMapDesign.objects.filter(name="x").exists()


def test_editing_the_text_forgets_the_seed(admin_client: Client):
    admin_client.post(
        ADD,
        {
            "name": "g",
            "variant": "classic",
            "generate_rows": 4,
            "generate_cols": 4,
            "generate_seed": 3,
            "is_active": "on",
        },
    )
    design = PaperMapDesign.objects.get(name="g")
    response = admin_client.post(
        change_url(design), {"name": "g", "variant": "classic", "text": SMALL_CLASSIC_TEXT, "is_active": "on"}
    )
    assert response.status_code == 302
    design.refresh_from_db()
    assert design.seed is None and design.generator_version is None and design.text == SMALL_CLASSIC_TEXT


def test_the_model_refuses_an_active_invalid_map_and_the_database_too():
    with pytest.raises(ValidationError, match="keep it inactive"):
        PaperMapDesign(name="a", text=TWO_TRUE, variant="classic").save()
    with pytest.raises(ValidationError, match="line 1"):
        PaperMapDesign(name="b", text="size 4 5\n", variant="classic", is_active=False).save()
    draft = PaperMapDesign.objects.create(name="c", text=TWO_TRUE, variant="classic", is_active=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        PaperMapDesign.objects.filter(pk=draft.pk).update(is_active=True)


def test_the_stored_findings_are_the_validators():
    design = PaperMapDesign.objects.create(name="d", text=TWO_TRUE, variant="quantum", is_active=False)
    result = validate_paper_map(design.to_map(), "quantum")
    assert [f["rule"] for f in design.errors] == list(result.rules())
    assert [f["rule"] for f in design.warnings] == [f.rule for f in result.warnings]
    assert design.warning_count == len(result.warnings)


def test_the_drawing_carries_the_legend_of_every_letter_it_uses(admin_client: Client):
    import re

    from paper_labyrinth.engine.mapformat import LETTERS
    from paper_labyrinth.engine.model import CellType

    design = PaperMapDesign.objects.get(name="Seed 002: small classic example")
    html = admin_client.get(change_url(design)).content.decode()
    svg = re.search(r'<svg[^>]*aria-label="paper labyrinth map".*?</svg>', html, re.DOTALL).group(0)
    legend = re.search(r'<table class="picture-legend">.*?</table>', html, re.DOTALL).group(0)
    drawn = {CellType(kind) for kind in re.findall(r'<g class="cell (\w+)">', svg)}
    assert len(drawn) >= 5  # the example uses most kinds of cell
    rows = dict(re.findall(r">([^<]*)</span></td><td>([^<]*)</td>", legend))
    for kind in drawn:
        assert re.search(rf'<g class="cell {kind.value}">.*?>{LETTERS[kind]}', svg, re.DOTALL)
        assert rows[LETTERS[kind]]  # every letter drawn is explained
    assert rows["С"] == "Land" and rows["Я"].startswith("Hole") and rows["Р"].startswith("River")
    assert "T" in rows and "F" in rows and "b2 g1 m1" in rows
    russian = admin_client.get(change_url(design), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert ">Я</span></td><td>Яма (число" in russian and ">М</span></td><td>Медсанбат<" in russian
