"""Admin: designers upload or generate maps, see format errors by line, the check and the SVG."""
from __future__ import annotations

from random import Random

import pytest
from django.test import Client

from labyrinth.engine import GeneratorSettings, format_map, generate_map, unreachable_cells
from labyrinth.engine.examples import FIRST_EXAMPLE
from labyrinth.models import LabyrinthGeneratorSettings, LabyrinthMapDesign

ADD = "/admin/labyrinth/labyrinthmapdesign/add/"
LIST = "/admin/labyrinth/labyrinthmapdesign/"
TRAPPED = "1 3\n. R E\nR RubberRoom(LEFT)\nE Exit(RIGHT)\n"

pytestmark = pytest.mark.django_db


def change_url(design: LabyrinthMapDesign) -> str:
    return f"/admin/labyrinth/labyrinthmapdesign/{design.pk}/change/"


def test_the_list_add_and_change_pages_render(admin_client: Client):
    assert admin_client.get(LIST).status_code == 200
    assert admin_client.get(ADD).status_code == 200
    design = LabyrinthMapDesign.objects.get(name="Seed 003: first example")
    response = admin_client.get(change_url(design))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'aria-label="labyrinth map"' in html and "<svg" in html
    assert "Passes: an exit can be reached from every cell of field 0." in html


def test_uploading_a_map_saves_it_and_draws_it(admin_client: Client):
    response = admin_client.post(ADD, {"name": "uploaded", "text": FIRST_EXAMPLE, "is_active": "on"})
    assert response.status_code == 302
    design = LabyrinthMapDesign.objects.get(name="uploaded")
    assert design.text == FIRST_EXAMPLE and design.passes_check and design.seed is None
    html = admin_client.get(change_url(design)).content.decode()
    assert "S2" in html and "R\u2190" in html


def test_bad_text_is_refused_with_the_line_shown(admin_client: Client):
    bad = FIRST_EXAMPLE.replace("E Exit(UP)", "E Exit(NORTH)")
    response = admin_client.post(ADD, {"name": "bad", "text": bad, "is_active": "on"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "line 7: bad direction &#x27;NORTH&#x27;: UP, LEFT, DOWN or RIGHT" in html
    assert "line 7 reads: &#x27;E Exit(NORTH)&#x27;" in html
    assert not LabyrinthMapDesign.objects.filter(name="bad").exists()


def test_a_failing_map_shows_its_unreachable_cells_and_may_only_be_a_draft(admin_client: Client):
    response = admin_client.post(ADD, {"name": "trap", "text": TRAPPED, "is_active": "on"})
    assert response.status_code == 200 and "fails the check (2 cells" in response.content.decode()
    response = admin_client.post(ADD, {"name": "trap", "text": TRAPPED})
    assert response.status_code == 302
    design = LabyrinthMapDesign.objects.get(name="trap")
    html = admin_client.get(change_url(design)).content.decode()
    assert "Fails: 2 cells cannot reach an exit (red in the drawing): (0, 0, 0), (0, 0, 1)" in html
    assert html.count('fill="#ff8a8a"') == 2


def test_generating_a_map_with_seed_and_rates(admin_client: Client):
    response = admin_client.post(ADD, {"name": "generated", "generate_rows": 15, "generate_cols": 20,
                                       "generate_seed": 9, "gen_teleport_rate": 0.1, "is_active": "on"})
    assert response.status_code == 302
    design = LabyrinthMapDesign.objects.get(name="generated")
    settings = GeneratorSettings(teleport_rate=0.1)
    assert design.text == format_map(generate_map(15, 20, Random(9), settings))
    assert design.seed == 9 and design.generator_settings["teleport_rate"] == 0.1
    assert unreachable_cells(design.to_map()) == [] and design.is_active
    assert admin_client.get(change_url(design)).status_code == 200


def test_generation_uses_the_saved_default_rates(admin_client: Client):
    LabyrinthGeneratorSettings.objects.filter(pk=1).update(stun_rate=0.5, keys=0, sleep_rate=0.0)
    admin_client.post(ADD, {"name": "stunned", "generate_rows": 10, "generate_cols": 10, "generate_seed": 1})
    design = LabyrinthMapDesign.objects.get(name="stunned")
    defaults = LabyrinthGeneratorSettings.load().to_settings()
    assert design.to_map() == generate_map(10, 10, Random(1), defaults)
    assert design.generator_settings["stun_rate"] == 0.5


def test_generation_without_a_seed_stores_the_fresh_one(admin_client: Client):
    admin_client.post(ADD, {"name": "fresh", "generate_rows": 5, "generate_cols": 5})
    design = LabyrinthMapDesign.objects.get(name="fresh")
    assert design.seed is not None
    assert design.to_map() == generate_map(5, 5, Random(design.seed), GeneratorSettings())


def test_bad_generator_input_is_refused(admin_client: Client):
    response = admin_client.post(ADD, {"name": "x", "generate_rows": 5, "generate_cols": 5,
                                       "gen_stun_rate": 0.9, "gen_armory_rate": 0.5})
    assert response.status_code == 200 and "Cannot generate: the special cells&#x27; rates add up" in \
        response.content.decode()
    response = admin_client.post(ADD, {"name": "x", "generate_rows": 5})
    assert "Give both rows and columns" in response.content.decode()
    response = admin_client.post(ADD, {"name": "x", "generate_rows": 500, "generate_cols": 5})
    assert "less than or equal to 50" in response.content.decode()
    response = admin_client.post(ADD, {"name": "x", "text": ""})
    assert "Write or paste a map" in response.content.decode()
    assert not LabyrinthMapDesign.objects.filter(name="x").exists()


def test_editing_the_text_forgets_the_generator_origin(admin_client: Client):
    design = LabyrinthMapDesign.generated(name="gen", rows=4, cols=4, seed=3, settings=GeneratorSettings())
    design.save()
    response = admin_client.post(change_url(design),
                                 {"name": "gen", "text": FIRST_EXAMPLE, "is_active": "on"})
    assert response.status_code == 302
    design.refresh_from_db()
    assert design.seed is None and design.generator_settings is None and design.rows == 3


def test_the_generator_settings_singleton_page(admin_client: Client):
    response = admin_client.get("/admin/labyrinth/labyrinthgeneratorsettings/")
    assert response.status_code == 302
    page = admin_client.get(response.url)
    assert page.status_code == 200 and "teleport_rate" in page.content.decode()


def test_a_large_draft_map_renders(admin_client: Client):
    # larger than a lobby may ask for, so only a draft (docs/labyrinth.md, "Designer map sizes")
    text = format_map(generate_map(120, 120, Random(1)))
    design = LabyrinthMapDesign(name="big", text=text, is_active=False)
    design.save()
    response = admin_client.get(change_url(design))
    assert response.status_code == 200 and 'aria-label="labyrinth map"' in response.content.decode()
