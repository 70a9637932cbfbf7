"""Match admin: list and filters, a match page with board and log, mode settings checked by the mode."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import MatchModeSettings
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, started

pytestmark = pytest.mark.django_db


def test_the_match_list_filters_by_mode_and_status(admin_client: Client) -> None:
    _people, match = started()
    page = admin_client.get("/admin/matches/match/", {"mode": "secret_race", "status": "active"})
    assert page.status_code == 200 and f">{match.pk}<" in page.content.decode()
    assert (
        f">{match.pk}<"
        not in admin_client.get("/admin/matches/match/", {"status": "finished"}).content.decode()
    )
    assert admin_client.get("/admin/matches/match/", {"q": str(match.seed)}).status_code == 200


def test_a_match_page_shows_the_log_and_who_may_see_each_event(admin_client: Client) -> None:
    people, match = started()
    act(awaited(people, match.pk), match.pk, {"pick": 2})
    page = admin_client.get(f"/admin/matches/match/{match.pk}/change/").content.decode()
    assert "match_started" in page and "picked" in page and "moved" in page
    assert "(this mode draws no picture)" in page


def test_mode_defaults_are_validated_by_the_mode(admin_client: Client) -> None:
    row = MatchModeSettings.objects.create(mode="secret_race", defaults={"target": 10})
    target = f"/admin/matches/matchmodesettings/{row.pk}/change/"
    lobbies = {"queue_fill_seconds": 30, "lobby_idle_seconds": 900, "max_active_per_player": 3}
    bad = admin_client.post(
        target, {"mode": "secret_race", "defaults": '{"target": 0}', "turn_deadline_seconds": 30, **lobbies}
    )
    assert bad.status_code == 200 and "bad_target" in bad.content.decode()
    good = admin_client.post(
        target, {"mode": "secret_race", "defaults": '{"target": 5}', "turn_deadline_seconds": 30, **lobbies,
                 "spectator_delay_turns": 0}
    )
    assert good.status_code == 302
    row.refresh_from_db()
    assert row.defaults == {"target": 5} and row.turn_deadline_seconds == 30


def test_the_admin_turns_spectators_on_with_a_delay_and_the_modes_list_shows_it(admin_client: Client) -> None:
    # given the race's row, watching off
    row = MatchModeSettings.objects.create(mode="secret_race", defaults={"target": 10})
    # when the admin turns watching on, two steps behind
    reply = admin_client.post(
        f"/admin/matches/matchmodesettings/{row.pk}/change/",
        {"mode": "secret_race", "defaults": '{"target": 10}', "turn_deadline_seconds": 60,
         "queue_fill_seconds": 30, "lobby_idle_seconds": 900, "max_active_per_player": 3,
         "spectators": "on", "spectator_delay_turns": 2},
    )
    # then the row has it, and the modes list says so
    assert reply.status_code == 302
    row.refresh_from_db()
    assert row.spectators is True and row.spectator_delay_turns == 2
    listed = {m["name"]: m["spectators"] for m in api_client(PlayerFactory()).get("/api/v1/modes/").json()}
    assert listed["secret_race"] is True
