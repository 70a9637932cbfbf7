"""Moving between guilds, leaving, kicking, and handing over leadership."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from guilds.models import Guild, Membership
from players.models import Player
from tests.factories import PlayerFactory, add_member, api_client, make_guild

pytestmark = pytest.mark.django_db


def members_of(guild) -> set[int]:
    members = Membership.objects.filter(guild=guild, left_at__isnull=True)
    return set(members.values_list("player_id", flat=True))


def some_member(guild) -> Player:
    membership = (Membership.objects.filter(guild=guild, left_at__isnull=True)
                  .exclude(player_id=guild.leader_id).first())
    return membership.player


def transfer(player, target):
    """Apply to ``target`` and have its leader approve; returns the approval response."""
    response = api_client(player).post(f"/api/v1/guilds/{target.pk}/applications/")
    if response.status_code != 201:
        return response
    return api_client(target.leader).post(
        f"/api/v1/guilds/{target.pk}/applications/{response.json()['id']}/approve/")


# --- transfers ------------------------------------------------------------------------------

def test_a_member_transfers_when_every_condition_holds():
    source = make_guild(members=3, joined_days_ago=2)  # 4 members: more than 3
    target = make_guild()
    player = some_member(source)
    response = transfer(player, target)
    assert response.status_code == 200
    source.refresh_from_db()
    target.refresh_from_db()
    assert player.pk in members_of(target) and player.pk not in members_of(source)
    assert (source.members_count, target.members_count) == (3, 2)
    player.refresh_from_db()
    assert player.last_transfer_at is not None
    assert Membership.objects.get(guild=source, player=player).left_reason == "transferred"


def test_a_transfer_needs_the_source_guild_above_three_members():
    source = make_guild(members=2)  # 3 members
    target = make_guild()
    response = transfer(some_member(source), target)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "source_guild_too_small"


def test_a_transfer_needs_room_in_the_target_guild():
    source = make_guild(members=3)
    target = make_guild(members=9)
    response = transfer(some_member(source), target)
    assert response.json()["error"]["code"] == "guild_full"


def test_a_second_transfer_within_seven_days_is_refused_with_retry_after():
    first = make_guild(members=4)
    second = make_guild(members=4)
    third = make_guild()
    player = some_member(first)
    assert transfer(player, second).status_code == 200
    player.refresh_from_db()
    # exactly 7 days later is not "more than 7 days"
    with time_machine.travel(player.last_transfer_at + timedelta(days=7), tick=False):
        response = transfer(player, third)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "transfer_cooldown"
    assert error["details"]["retry_after_seconds"] >= 1
    assert player.pk in members_of(second)


def test_a_transfer_after_more_than_seven_days_is_allowed():
    first = make_guild(members=4)
    second = make_guild(members=4)
    third = make_guild()
    player = some_member(first)
    transfer(player, second)
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        response = transfer(player, third)
    assert response.status_code == 200
    assert player.pk in members_of(third)


def test_transfer_rules_are_checked_again_on_approval():
    source = make_guild(members=4, joined_days_ago=2)  # 5 members: a transfer is allowed when applying
    target = make_guild()
    player, *others = [Player.objects.get(pk=pk) for pk in sorted(members_of(source) - {source.leader_id})]
    application_id = api_client(player).post(f"/api/v1/guilds/{target.pk}/applications/").json()["id"]
    for leaver in others[:2]:  # the source guild shrinks to 3 before the leader approves
        assert api_client(leaver).post(f"/api/v1/guilds/{source.pk}/leave/").status_code == 200
    response = api_client(target.leader).post(
        f"/api/v1/guilds/{target.pk}/applications/{application_id}/approve/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "source_guild_too_small"
    assert player.pk in members_of(source)


def test_a_leader_cannot_transfer_without_handing_over():
    source = make_guild(members=4)
    target = make_guild()
    response = transfer(source.leader, target)
    assert response.json()["error"]["code"] == "leader_must_hand_over"


def test_accepting_an_invitation_is_a_transfer_too():
    source = make_guild(members=2)
    target = make_guild()
    player = some_member(source)
    invitation_id = api_client(target.leader).post(f"/api/v1/guilds/{target.pk}/invitations/",
                                                   {"player": player.pk}, format="json")
    assert invitation_id.json()["error"]["code"] == "source_guild_too_small"


# --- leaving --------------------------------------------------------------------------------

def test_a_member_leaves_after_a_day():
    guild = make_guild(members=2, joined_days_ago=2)
    player = some_member(guild)
    response = api_client(player).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.status_code == 200
    assert response.json() == {"guild": guild.pk, "disbanded": False}
    guild.refresh_from_db()
    assert guild.members_count == 2
    assert api_client(player).get("/api/v1/me/").json()["guild"] is None


def test_leaving_within_a_day_is_refused_and_says_when_it_becomes_possible():
    guild = make_guild()
    player = add_member(guild, PlayerFactory())
    joined_at = Membership.objects.get(guild=guild, player=player).joined_at
    response = api_client(player).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "leave_too_soon"
    assert error["details"]["retry_after"] == (joined_at + timedelta(hours=24)).isoformat()
    assert 0 < error["details"]["retry_after_seconds"] <= 24 * 3600
    assert player.pk in members_of(guild)


def test_leaving_is_possible_just_after_the_retry_time():
    guild = make_guild()
    player = add_member(guild, PlayerFactory())
    with time_machine.travel(timezone.now() + timedelta(hours=24, seconds=1)):
        response = api_client(player).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.status_code == 200


def test_the_leader_must_hand_over_before_leaving():
    guild = make_guild(members=1, joined_days_ago=2)
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "leader_must_hand_over"


def test_the_last_member_leaving_disbands_the_guild():
    guild = make_guild(joined_days_ago=2)
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.json() == {"guild": guild.pk, "disbanded": True}
    guild.refresh_from_db()
    assert guild.disbanded_at is not None
    assert members_of(guild) == set()


def test_a_non_member_cannot_leave():
    guild = make_guild()
    response = api_client(PlayerFactory()).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_member"


# --- leadership and kicking -----------------------------------------------------------------

def test_the_leader_hands_over_to_a_member():
    guild = make_guild(members=1)
    member = some_member(guild)
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/leader/", {"player": member.pk},
                                             format="json")
    assert response.status_code == 200
    assert response.json()["leader"] == member.pk
    assert {m["player"]: m["is_leader"] for m in response.json()["members"]}[member.pk] is True


def test_leadership_goes_only_to_members():
    guild = make_guild()
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/leader/",
                                             {"player": PlayerFactory().pk}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_member"
    assert Guild.objects.get(pk=guild.pk).leader_id == guild.leader_id


def test_only_the_leader_hands_over():
    guild = make_guild(members=2)
    member = some_member(guild)
    response = api_client(member).post(f"/api/v1/guilds/{guild.pk}/leader/", {"player": member.pk},
                                       format="json")
    assert response.status_code == 403


def test_the_leader_kicks_a_member():
    guild = make_guild(members=2)
    member = some_member(guild)
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/kick/", {"player": member.pk},
                                             format="json")
    assert response.status_code == 200
    assert member.pk not in [m["player"] for m in response.json()["members"]]
    assert Membership.objects.get(guild=guild, player=member).left_reason == "kicked"
    assert response.json()["members_count"] == 2


def test_kicking_needs_the_leader_a_member_and_not_oneself():
    guild = make_guild(members=2)
    member = some_member(guild)
    as_member = api_client(member).post(f"/api/v1/guilds/{guild.pk}/kick/", {"player": guild.leader_id},
                                        format="json")
    assert as_member.json()["error"]["code"] == "not_leader"
    itself = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/kick/", {"player": guild.leader_id},
                                           format="json")
    assert itself.json()["error"]["code"] == "cannot_kick_self"
    stranger = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/kick/",
                                             {"player": PlayerFactory().pk}, format="json")
    assert stranger.json()["error"]["code"] == "not_member"
    guild.refresh_from_db()
    assert guild.members_count == 3
