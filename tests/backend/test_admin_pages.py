"""Every registered admin page opens for staff (changelist, add form, change form of a row)."""
from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from guilds.services import guild_person_runs_record
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    guild = make_guild(members=2)
    guild_person_runs_record(guild_id=guild.pk, at=guild.created_at, count=3)
    api_client(PlayerFactory()).post(f"/api/v1/guilds/{guild.pk}/applications/")
    api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/", {"player": PlayerFactory().pk},
                                  format="json")
    api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/disband-vote/")
    return guild


@pytest.mark.parametrize("model", list(admin.site._registry), ids=lambda m: m._meta.label)
def test_admin_changelist_and_change_pages_open(admin_client, world, model):
    meta = model._meta
    response = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"), follow=True)
    assert response.status_code == 200
    obj = model._default_manager.first()
    if obj is not None:
        change = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
        assert change.status_code == 200


def test_the_guild_admin_searches_and_filters(admin_client, world):
    url = reverse("admin:guilds_guild_changelist")
    assert world.name.encode() in admin_client.get(url, {"q": world.name[:5]}).content
    assert admin_client.get(url, {"state": "alive", "size": "forming"}).status_code == 200


def test_the_recompute_action_runs_from_the_admin(admin_client, world):
    response = admin_client.post(reverse("admin:guilds_guild_changelist"),
                                 {"action": "recompute_activity", "_selected_action": [world.pk]},
                                 follow=True)
    assert b"Activity recomputed" in response.content
    world.refresh_from_db()
    assert world.activity == pytest.approx(3.0)
