"""Admin: the generation settings singleton, the designers' preview page with SVG pictures, dungeons."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dungeons.models import GenerationSettings
from dungeons.services import dungeon_generate

PREVIEW = "/admin/dungeons/generationsettings/preview/"


@pytest.mark.django_db
def test_preview_page_draws_the_dungeon_and_the_charts(admin_client: Client) -> None:
    response = admin_client.get(
        PREVIEW,
        {"kind": "ordinary", "players": 4, "rank": 3, "completed": 10, "same_guild": "on", "seed": 7,
         "samples": 50},
    )
    assert response.status_code == 200
    html = response.content.decode()
    # the dungeon, five formula curves, four frequency charts (the admin has its own icon sprite too)
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" width=') == 1 + 5 + 4
    assert "<polyline" in html and "Floor 5" in html and "seed 7" in html
    assert "Room kinds over 50 seeds" in html


@pytest.mark.django_db
def test_preview_page_opens_with_defaults(admin_client: Client) -> None:
    response = admin_client.get(PREVIEW)
    assert response.status_code == 200 and b'aria-label="dungeon layout"' in response.content


@pytest.mark.django_db
def test_preview_page_tries_unsaved_parameters_without_saving_them(admin_client: Client) -> None:
    response = admin_client.get(
        PREVIEW, {"kind": "frenzy", "players": 2, "rank": 0, "completed": 0, "seed": 1, "samples": 10,
                  "p_f_min": 1, "p_f_max": 1},
    )
    html = response.content.decode()
    assert "Floor 0" in html and "Floor 1" not in html and "differ from the saved settings" in html
    assert GenerationSettings.load().f_max == 6


@pytest.mark.django_db
def test_preview_page_shows_bad_parameters_as_form_errors(admin_client: Client) -> None:
    response = admin_client.get(PREVIEW,
                                {"kind": "ordinary", "players": 0, "rank": 0, "completed": 0, "samples": 10})
    assert response.status_code == 200 and b"errorlist" in response.content
    response = admin_client.get(
        PREVIEW, {"kind": "ordinary", "players": 1, "rank": 0, "completed": 0, "samples": 10, "p_f_min": 7}
    )
    assert response.status_code == 200 and b"f_max must not be below f_min" in response.content


@pytest.mark.django_db
def test_preview_page_is_for_staff_only(client: Client) -> None:
    user = User.objects.create_user(username="player", password="pw-not-used-123")
    client.force_login(user)
    response = client.get(PREVIEW)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_settings_list_goes_to_the_single_row_which_links_the_preview(admin_client: Client) -> None:
    response = admin_client.get("/admin/dungeons/generationsettings/")
    assert response.status_code == 302
    page = admin_client.get(response["Location"])
    assert page.status_code == 200 and PREVIEW.encode() in page.content


@pytest.mark.django_db
def test_settings_form_refuses_unplayable_values(admin_client: Client) -> None:
    row = GenerationSettings.load()
    data = {name: getattr(row, name) for name in row.params_dict()} | {"r_min": 9, "r_max": 8}
    response = admin_client.post(f"/admin/dungeons/generationsettings/{row.pk}/change/", data)
    assert response.status_code == 200 and b"r_max must not be below r_min" in response.content
    assert GenerationSettings.load().r_max == 8


@pytest.mark.django_db
def test_settings_form_saves_designer_values(admin_client: Client) -> None:
    row = GenerationSettings.load()
    data = {name: getattr(row, name) for name in row.params_dict()} | {"f_max": 8}
    response = admin_client.post(f"/admin/dungeons/generationsettings/{row.pk}/change/", data)
    assert response.status_code == 302
    assert GenerationSettings.load().f_max == 8


@pytest.mark.django_db
def test_stored_dungeon_page_draws_its_layout(admin_client: Client) -> None:
    dungeon = dungeon_generate(kind="ordinary", party_size=2, rank=0.0, completed=5.0, same_guild=True,
                               seed=9)
    assert admin_client.get("/admin/dungeons/dungeon/").status_code == 200
    page = admin_client.get(f"/admin/dungeons/dungeon/{dungeon.pk}/change/")
    assert page.status_code == 200 and b'aria-label="dungeon layout"' in page.content
