"""Designer maps are no larger than a lobby may ask the mode to generate (console: field 0 at most
50 x 50 and 5,000 cells over all fields; paper: 12 x 12): a larger one may only be a draft (model,
database, admin), so no lobby can name it."""
from __future__ import annotations

from random import Random

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client

from labyrinth.engine import GeneratorSettings, format_map, generate_map
from labyrinth.models import LabyrinthMapDesign, MapDesign
from paper_labyrinth.engine import format_paper_map
from paper_labyrinth.engine.generator import plain_paper_map
from paper_labyrinth.models import PaperMapDesign
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES

pytestmark = pytest.mark.django_db

CONSOLE_ADD = "/admin/labyrinth/labyrinthmapdesign/add/"
PAPER_ADD = "/admin/paper_labyrinth/papermapdesign/add/"
# field 0 of 10 x 10 and two dream fields of 50 x 50: 5,100 cells, each field within 50 x 50
PLAIN = GeneratorSettings()
DREAMS = GeneratorSettings(sleep_rate=0.05, dream_fields=2, dream_rows=50, dream_cols=50)


def console_text(rows: int, cols: int, settings: GeneratorSettings = PLAIN) -> str:
    return format_map(generate_map(rows, cols, Random(1), settings))


def paper_text(side: int) -> str:
    return format_paper_map(plain_paper_map(Random(1), side, side))


def assert_only_a_draft(design: MapDesign, problem: str) -> None:
    """Refused active by the model, kept as a draft, and refused active by the database too."""
    with pytest.raises(ValidationError) as refused:
        design.save()
    assert problem in str(refused.value.message_dict["is_active"])
    design.is_active = False
    design.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        type(design).objects.filter(pk=design.pk).update(is_active=True)


def lobby(settings: dict[str, object], mode: str) -> tuple[int, str]:
    reply = api_client(PlayerFactory()).post(MATCHES, {"mode": mode, "settings": settings}, format="json")
    return reply.status_code, reply.json().get("error", {}).get("code", "")


@pytest.mark.parametrize("rows, cols", [(51, 3), (3, 51)])
def test_a_console_map_wider_than_a_lobby_may_ask_for_is_only_a_draft(rows: int, cols: int) -> None:
    design = LabyrinthMapDesign(name="wide", text=console_text(rows, cols))
    assert_only_a_draft(design, "field 0 at most 50 x 50")
    assert lobby({"map": design.pk}, "labyrinth_console") == (400, "unknown_map")


def test_a_console_map_with_too_many_cells_over_its_fields_is_only_a_draft() -> None:
    design = LabyrinthMapDesign(name="dreamy", text=console_text(10, 10, DREAMS))
    assert_only_a_draft(design, "all fields together at most 5000 cells")
    assert design.cell_count == 5100 and (design.rows, design.cols) == (10, 10)
    assert lobby({"map": design.pk}, "labyrinth_console") == (400, "unknown_map")


def test_the_largest_console_map_a_lobby_may_ask_for_may_be_active() -> None:
    design = LabyrinthMapDesign.objects.create(name="largest", text=console_text(50, 50))
    assert design.is_active and design.cell_count == 2500 + 25  # field 0 and the default dream field
    assert lobby({"map": design.pk}, "labyrinth_console")[0] == 201


def test_a_paper_map_larger_than_a_lobby_may_ask_for_is_only_a_draft() -> None:
    design = PaperMapDesign(name="wide", text=paper_text(13))
    assert_only_a_draft(design, "at most 12 x 12")
    assert lobby({"map": design.pk}, "labyrinth_paper") == (400, "unknown_map")
    largest = PaperMapDesign.objects.create(name="largest", text=paper_text(12))
    assert largest.is_active and lobby({"map": largest.pk}, "labyrinth_paper")[0] == 201


def test_the_admin_refuses_to_activate_an_oversize_map_and_keeps_it_as_a_draft(admin_client: Client) -> None:
    for add, data in ((CONSOLE_ADD, {"text": console_text(51, 3)}),
                      (PAPER_ADD, {"text": paper_text(13), "variant": "classic"})):
        refused = admin_client.post(add, {"name": "big", "is_active": "on", **data})
        assert refused.status_code == 200 and "larger than a lobby may ask for" in refused.content.decode()
        assert admin_client.post(add, {"name": "big", **data}).status_code == 302
    assert not LabyrinthMapDesign.objects.get(name="big").is_active
    assert not PaperMapDesign.objects.get(name="big").is_active


def test_the_admin_generates_maps_no_larger_than_a_lobby_may_ask_for(admin_client: Client) -> None:
    refused = admin_client.post(CONSOLE_ADD, {"name": "big", "generate_rows": 51, "generate_cols": 5})
    assert "less than or equal to 50" in refused.content.decode()
    refused = admin_client.post(PAPER_ADD, {"name": "big", "variant": "classic", "generate_rows": 13,
                                            "generate_cols": 5})
    assert "less than or equal to 12" in refused.content.decode()
    assert admin_client.post(CONSOLE_ADD, {"name": "big", "is_active": "on", "generate_rows": 50,
                                           "generate_cols": 50, "generate_seed": 1}).status_code == 302
    assert LabyrinthMapDesign.objects.get(name="big").is_active
