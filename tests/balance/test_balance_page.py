"""The admin page "Balance": staff only, linked from the admin index; its form refuses bad inputs as form
errors (never a 500, nothing started); a valid form starts one simulation; its page shows the progress, then
the saved data's charts and tables beside the what-if's; the status the page polls is JSON."""
from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from balance.models import Simulation
from balance.tasks import simulation_run
from combat.models import EnemyKind
from dungeons.models import RunSettings
from players.models import ItemKind

pytestmark = pytest.mark.django_db

PAGE = "/admin/balance/simulation/"
VALID = {"policy": "cautious", "party_sizes": "1, 2", "ranks": "0", "completed": "0", "kind": "ordinary",
         "runs": "4", "seed": "3", "change_field": "", "change_value": ""}


def post(client: Client, **changes: Any) -> Any:
    return client.post(PAGE, {**VALID, **changes})


def test_the_page_is_linked_from_the_admin_index_under_its_app(admin_client: Client) -> None:
    index = admin_client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert reverse("admin:balance_simulation_changelist") == PAGE
    assert f'href="{PAGE}"' in index.content.decode()
    page = admin_client.get(PAGE)
    assert page.status_code == 200
    assert b'name="change_field"' in page.content and b'name="gear"' in page.content


def test_the_page_is_for_staff_only(client: Client, django_user_model: Any) -> None:
    assert client.get(PAGE).status_code == 302  # to the admin's login
    user = django_user_model.objects.create_user("player", password="pw-long-enough-1")
    client.force_login(user)
    assert client.get(PAGE).status_code == 302
    assert client.post(PAGE, VALID).status_code == 302
    assert not Simulation.objects.exists()


@pytest.mark.parametrize(("changes", "field"), [
    ({"party_sizes": "0, 2"}, "party_sizes"),
    ({"party_sizes": "two"}, "party_sizes"),
    ({"party_sizes": "99"}, "party_sizes"),  # more than the run settings' largest party
    ({"ranks": ""}, "ranks"),
    ({"completed": "-1"}, "completed"),
    ({"runs": "0"}, "runs"),
    ({"runs": "5001"}, "runs"),
    ({"seed": "-3"}, "seed"),
    ({"policy": "reckless"}, "policy"),
    ({"kind": "darkness"}, "kind"),
    ({"change_field": "dungeons.runsettings:1:trap_damage_base", "change_value": "-2"}, "change_value"),
    ({"change_field": "dungeons.runsettings:1:trap_damage_base", "change_value": "lots"}, "change_value"),
    ({"change_field": "dungeons.runsettings:1:battle_loot_chance", "change_value": "1.5"}, "change_value"),
    ({"change_field": "dungeons.runsettings:1:no_such_field", "change_value": "1"}, "change_field"),
    ({"change_field": "combat.enemykind:1:name", "change_value": "x"}, "change_field"),
])
def test_a_bad_input_is_a_form_error_and_starts_nothing(admin_client: Client, changes: dict[str, str],
                                                        field: str) -> None:
    response = post(admin_client, **changes)
    assert response.status_code == 200
    assert field in response.context["form"].errors, response.context["form"].errors
    assert not Simulation.objects.exists()


def test_too_many_runs_altogether_are_refused(admin_client: Client) -> None:
    response = post(admin_client, party_sizes="1,2,3,4", ranks="0,1,2,3,4", completed="0,1,2,3,4", runs="300")
    assert response.status_code == 200
    assert "at most" in " ".join(response.context["form"].non_field_errors())
    assert not Simulation.objects.exists()


def test_gear_a_new_player_cannot_carry_is_refused(admin_client: Client) -> None:
    weapons = list(ItemKind.objects.filter(category="weapon").order_by("pk").values_list("pk", flat=True)[:3])
    response = post(admin_client, gear=weapons)
    assert "gear" in response.context["form"].errors
    assert not Simulation.objects.exists()


def test_a_valid_form_starts_a_simulation_and_its_page_shows_progress_then_both_columns(
        admin_client: Client) -> None:
    # given: a what-if of a creature's HP
    rat = EnemyKind.objects.get(slug="giant-rat")
    key = f"combat.enemykind:{rat.pk}:hp"

    # when: the form is sent
    response = post(admin_client, change_field=key, change_value=str(rat.hp + 10))

    # then: one queued simulation of the grid, the page of which shows a progress bar polling its status
    simulation = Simulation.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{PAGE}{simulation.pk}/"
    assert simulation.inputs == {"policy": "cautious", "party_sizes": [1, 2], "ranks": [0], "completed": [0],
                                 "kind": "ordinary", "gear": [], "runs": 4, "seed": 3}
    assert (simulation.change_field, simulation.change_value, simulation.total) == (key, str(rat.hp + 10), 16)
    page = admin_client.get(response["Location"]).content.decode()
    assert 'id="balance-progress"' in page and "balance/progress.js" in page and "<script>" not in page
    assert f"{rat.hp} (saved) becomes {rat.hp + 10}" in page
    status = admin_client.get(f"{PAGE}{simulation.pk}/status/")
    assert status.json() == {"status": "queued", "done": 0, "total": 16, "error": ""}

    # when: the worker has played it
    simulation_run(simulation.pk)

    # then: the status says so, and the page draws both columns (three charts each) and their tables
    assert admin_client.get(f"{PAGE}{simulation.pk}/status/").json()["status"] == "done"
    page = admin_client.get(response["Location"]).content.decode()
    assert "balance/progress.js" not in page
    assert 'id="balance-column-1"' in page and 'id="balance-column-2"' in page
    assert page.count("role=\"img\"") == 6  # the charts (the admin has svg icons of its own)
    for title in ("Completion by party size", "Completion by guild rank", "Deaths per run by floor"):
        assert page.count(f"aria-label=\"{title}\"") == 2
    # and nothing was saved
    assert EnemyKind.objects.get(pk=rat.pk).hp == rat.hp


def test_the_page_speaks_russian(admin_client: Client) -> None:
    page = admin_client.get(PAGE, headers={"accept-language": "ru"}).content.decode()
    assert "Что, если" in page


def test_an_unknown_simulation_is_a_404(admin_client: Client) -> None:
    assert admin_client.get(f"{PAGE}999/").status_code == 404
    status = admin_client.get(f"{PAGE}999/status/")
    assert status.status_code == 404 and status.json()["code"] == "not_found"


def test_a_run_settings_what_if_is_shown_with_its_saved_value(admin_client: Client) -> None:
    saved = RunSettings.load().battle_loot_chance
    page = admin_client.get(PAGE).content.decode()
    assert f"(= {saved})" in page
