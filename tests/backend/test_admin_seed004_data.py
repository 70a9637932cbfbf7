"""The admin shows the data of seed 004's rules: the hop window and sizes at leaving, rejection
reasons, sealed-room chance and reward, a dungeon's sealed rooms, and the junk dealer's tiers
(tested in tests/npcs/test_junk_dealer_tiers.py)."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from dungeons.models import GenerationSettings, RunSettings
from dungeons.services import dungeon_generate
from guilds.models import Application, GuildRules, Membership
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def _page(admin_client, url: str) -> str:
    response = admin_client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_guild_admin_shows_the_hop_window_sizes_at_leaving_and_rejection_reasons(
    admin_client,
) -> None:
    guild = make_guild(members=3, joined_days_ago=2)
    leaver = Membership.objects.filter(guild=guild).exclude(player_id=guild.leader_id).first().player
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        assert api_client(leaver).post(f"/api/v1/guilds/{guild.pk}/leave/").status_code == 200
    applicant = PlayerFactory()
    application = api_client(applicant).post(f"/api/v1/guilds/{guild.pk}/applications/").json()["id"]
    api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/applications/{application}/reject/",
                                  {"reason": "Bring a shovel next time"}, format="json")

    rules = _page(admin_client, reverse("admin:guilds_guildrules_changelist"))
    assert "leave_counts_as_transfer_days" in rules
    detail = _page(admin_client, reverse("admin:guilds_guild_change", args=[guild.pk]))
    assert "members at leave" in detail.lower()
    memberships = _page(admin_client, reverse("admin:guilds_membership_changelist"))
    assert "members at leave" in memberships.lower()
    applications = _page(admin_client, reverse("admin:guilds_application_changelist"))
    assert "Bring a shovel next time" in applications
    assert Application.objects.get(pk=application).reject_reason == "Bring a shovel next time"
    assert GuildRules.load().leave_counts_as_transfer_days == 7


def test_the_dungeon_admin_shows_sealed_room_chance_reward_and_seals(admin_client) -> None:
    settings = GenerationSettings.load()
    settings.story_item_chance = settings.sealed_room_chance = 1.0
    settings.save()
    dungeon = dungeon_generate(kind="ordinary", party_size=2, rank=0.0, completed=40.0, same_guild=False,
                               seed=5)
    seal = dungeon.rooms.exclude(seal="").first()
    assert seal is not None

    generation = _page(admin_client, reverse("admin:dungeons_generationsettings_changelist"))
    assert "sealed_room_chance" in generation
    runs = _page(admin_client, reverse("admin:dungeons_runsettings_changelist"))
    for field in ("sealed_reward_items", "sealed_reward_coins_base", "sealed_reward_coins_per_floor"):
        assert field in runs
    page = _page(admin_client, reverse("admin:dungeons_dungeon_change", args=[dungeon.pk]))
    assert "Seal" in page and seal.get_seal_display() in page
    assert RunSettings.load().sealed_reward_items == 2
