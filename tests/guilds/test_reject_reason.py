"""A rejection may carry a reason, which the applicant sees in GET me/applications/."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from guilds.models import Application
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def _apply(player, guild) -> int:
    response = api_client(player).post(f"/api/v1/guilds/{guild.pk}/applications/")
    assert response.status_code == 201
    return response.json()["id"]


def _reject(guild, application_id: int, body=None):
    return api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/applications/{application_id}/reject/",
                                         body, format="json")


def test_a_rejection_with_a_reason_is_shown_to_the_applicant():
    guild, other = make_guild(), make_guild()
    player = PlayerFactory()
    rejected_id = _apply(player, guild)
    pending_id = _apply(player, other)

    response = _reject(guild, rejected_id, {"reason": "  We raid at dawn; you sleep till noon.  "})

    assert response.status_code == 200
    assert response.json()["status"] == "rejected"
    assert response.json()["reject_reason"] == "We raid at dawn; you sleep till noon."
    mine = {a["id"]: a for a in api_client(player).get("/api/v1/me/applications/").json()}
    assert set(mine) == {rejected_id, pending_id}
    assert mine[rejected_id]["status"] == "rejected" and mine[rejected_id]["decided_at"] is not None
    assert mine[rejected_id]["reject_reason"] == "We raid at dawn; you sleep till noon."
    assert mine[pending_id]["status"] == "pending" and mine[pending_id]["reject_reason"] == ""
    # the leader's list holds pending applications only
    assert api_client(guild.leader).get(f"/api/v1/guilds/{guild.pk}/applications/").json() == []


def test_a_rejection_without_a_body_has_an_empty_reason():
    guild = make_guild()
    player = PlayerFactory()
    application_id = _apply(player, guild)
    assert _reject(guild, application_id).json()["reject_reason"] == ""
    assert api_client(player).get("/api/v1/me/applications/").json()[0]["reject_reason"] == ""


def test_a_too_long_reason_is_400_and_changes_nothing():
    guild = make_guild()
    player = PlayerFactory()
    application_id = _apply(player, guild)
    for bad in ({"reason": "x" * 501}, {"reason": ["no"]}, {"reason": None}):
        response = _reject(guild, application_id, bad)
        assert response.status_code == 400, bad
    assert Application.objects.get(pk=application_id).status == "pending"


def test_only_the_leader_rejects_and_the_reason_is_not_stored_on_refusal():
    guild = make_guild(members=1)
    player = PlayerFactory()
    application_id = _apply(player, guild)
    stranger = PlayerFactory()
    response = api_client(stranger).post(f"/api/v1/guilds/{guild.pk}/applications/{application_id}/reject/",
                                         {"reason": "no"}, format="json")
    assert response.status_code == 403
    assert Application.objects.get(pk=application_id).reject_reason == ""


def test_rejections_leave_the_applicants_list_after_30_days_and_other_outcomes_are_not_listed():
    guild, other = make_guild(), make_guild()
    player = PlayerFactory()
    rejected_id = _apply(player, guild)
    _reject(guild, rejected_id, {"reason": "full of wizards"})
    withdrawn_id = _apply(player, other)
    assert api_client(player).post(
        f"/api/v1/guilds/{other.pk}/applications/{withdrawn_id}/withdraw/").status_code == 200
    assert [a["id"] for a in api_client(player).get("/api/v1/me/applications/").json()] == [rejected_id]
    with time_machine.travel(timezone.now() + timedelta(days=30, minutes=1)):
        assert api_client(player).get("/api/v1/me/applications/").json() == []
