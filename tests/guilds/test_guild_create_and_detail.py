"""Founding a guild, reading it, and editing it."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from guilds.models import Guild, Membership
from tests.factories import PlayerFactory, add_member, api_client, make_guild

pytestmark = pytest.mark.django_db


def test_a_guildless_player_founds_a_guild_and_leads_it():
    # given
    player = PlayerFactory()
    # when
    response = api_client(player).post("/api/v1/guilds/",
                                       {"name": "Lanternbearers", "description": "We light"}, format="json")
    # then
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Lanternbearers"
    assert body["leader"] == player.pk
    assert body["members_count"] == 1
    assert body["is_forming"] is True  # below the minimum of 3
    assert body["is_open"] is True
    assert body["rank"] == 0
    assert body["members"] == [{"player": player.pk, "username": player.user.username,
                                 "joined_at": body["members"][0]["joined_at"], "is_leader": True}]


def test_a_guild_stops_forming_at_three_members():
    guild = make_guild(members=2)
    body = api_client(guild.leader).get(f"/api/v1/guilds/{guild.pk}/").json()
    assert body["members_count"] == 3
    assert body["is_forming"] is False


def test_a_member_of_a_guild_cannot_found_another():
    guild = make_guild()
    response = api_client(guild.leader).post("/api/v1/guilds/", {"name": "Second"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_in_guild"
    assert Guild.objects.count() == 1


def test_guild_names_are_unique_ignoring_case():
    make_guild(name="Deep Wardens")
    response = api_client(PlayerFactory()).post("/api/v1/guilds/", {"name": "deep WARDENS"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "name_taken"
    assert Guild.objects.count() == 1


def test_a_disbanded_guild_frees_its_name_and_keeps_its_history():
    guild = make_guild(name="Ashen")
    api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/disband-vote/")
    response = api_client(PlayerFactory()).post("/api/v1/guilds/", {"name": "ashen"}, format="json")
    assert response.status_code == 201
    old = Guild.objects.get(pk=guild.pk)
    assert old.disbanded_at is not None
    assert Membership.objects.filter(guild=old).count() == 1  # the history stays


@pytest.mark.parametrize("payload", [{}, {"name": ""}, {"name": "ab"}, {"name": "x" * 65},
                                     {"name": {"nested": 1}}, {"name": "Valid", "description": ["list"]}])
def test_creating_with_bad_input_is_400_and_changes_nothing(payload):
    response = api_client(PlayerFactory()).post("/api/v1/guilds/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert Guild.objects.count() == 0


def test_malformed_json_is_400():
    response = api_client(PlayerFactory()).post("/api/v1/guilds/", "{not json",
                                                content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"


def test_creating_needs_authentication():
    response = APIClient().post("/api/v1/guilds/", {"name": "Nobody's"}, format="json")
    assert response.status_code == 401


def test_detail_of_an_unknown_guild_is_404():
    response = api_client(PlayerFactory()).get("/api/v1/guilds/999999/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "guild_not_found"


def test_detail_lists_current_members_only_in_joining_order():
    guild = make_guild(members=2, joined_days_ago=3)
    first, second = [m.player for m in guild.memberships.order_by("joined_at", "pk")][1:]
    api_client(second).post(f"/api/v1/guilds/{guild.pk}/leave/")
    members = api_client(guild.leader).get(f"/api/v1/guilds/{guild.pk}/").json()["members"]
    assert [m["player"] for m in members] == [guild.leader_id, first.pk]
    assert [m["is_leader"] for m in members] == [True, False]


def test_the_leader_edits_the_description():
    guild = make_guild()
    response = api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"description": "New words"},
                                              format="json")
    assert response.status_code == 200
    assert response.json()["description"] == "New words"


def test_a_member_who_is_not_leader_cannot_edit():
    guild = make_guild()
    member = add_member(guild, PlayerFactory())
    response = api_client(member).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_leader"
    guild.refresh_from_db()
    assert guild.is_open is True


def test_an_empty_patch_is_400():
    guild = make_guild()
    response = api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {}, format="json")
    assert response.status_code == 400


def test_a_patch_cannot_set_protected_fields():
    guild = make_guild()
    api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/",
                                   {"description": "ok", "rank": 99, "activity": 50.0, "leader": 12345,
                                    "members_count": 10}, format="json")
    guild.refresh_from_db()
    assert (guild.rank, guild.activity, guild.members_count) == (0, 0.0, 1)
