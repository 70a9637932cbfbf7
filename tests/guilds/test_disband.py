"""Unanimous disband votes."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from guilds.models import Application, DisbandVote, Guild, Invitation, Membership, RequestStatus
from tests.factories import PlayerFactory, add_member, api_client, make_guild

pytestmark = pytest.mark.django_db


def current_members(guild):
    return list(Membership.objects.filter(guild=guild, left_at__isnull=True).select_related("player"))


def vote(player, guild):
    return api_client(player).post(f"/api/v1/guilds/{guild.pk}/disband-vote/")


def test_votes_count_until_every_member_has_voted_then_the_guild_disbands():
    guild = make_guild(members=2)
    applicant = PlayerFactory()
    pending_application = api_client(applicant).post(f"/api/v1/guilds/{guild.pk}/applications/").json()["id"]
    pending_invitation = api_client(guild.leader).post(
        f"/api/v1/guilds/{guild.pk}/invitations/", {"player": PlayerFactory().pk}, format="json").json()["id"]
    players = [m.player for m in current_members(guild)]
    assert vote(players[0], guild).json() == {"guild": guild.pk, "votes": 1, "members": 3, "disbanded": False}
    assert vote(players[1], guild).json()["disbanded"] is False
    last = vote(players[2], guild).json()
    assert last == {"guild": guild.pk, "votes": 3, "members": 3, "disbanded": True}
    guild.refresh_from_db()
    assert guild.disbanded_at is not None and guild.members_count == 0
    assert current_members(guild) == []
    assert Application.objects.get(pk=pending_application).status == RequestStatus.REJECTED
    assert Invitation.objects.get(pk=pending_invitation).status == RequestStatus.CANCELLED
    assert api_client(players[1]).get("/api/v1/me/").json()["guild"] is None
    assert api_client(players[1]).get(f"/api/v1/guilds/{guild.pk}/").status_code == 404


def test_a_vote_can_be_withdrawn():
    guild = make_guild(members=1)
    vote(guild.leader, guild)
    response = api_client(guild.leader).delete(f"/api/v1/guilds/{guild.pk}/disband-vote/")
    assert response.json()["votes"] == 0
    assert DisbandVote.objects.count() == 0


def test_voting_twice_and_withdrawing_nothing_are_refused():
    guild = make_guild(members=1)
    vote(guild.leader, guild)
    assert vote(guild.leader, guild).json()["error"]["code"] == "already_voted"
    member = current_members(guild)[1].player
    response = api_client(member).delete(f"/api/v1/guilds/{guild.pk}/disband-vote/")
    assert response.json()["error"]["code"] == "not_voted"


def test_only_members_vote():
    guild = make_guild()
    response = vote(PlayerFactory(), guild)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_member"


def test_a_member_who_joins_later_must_vote_too():
    guild = make_guild(members=1)
    vote(guild.leader, guild)
    newcomer = add_member(guild, PlayerFactory())
    member = next(m.player for m in current_members(guild)
                  if m.player_id not in (guild.leader_id, newcomer.pk))
    assert vote(member, guild).json()["disbanded"] is False
    assert vote(newcomer, guild).json()["disbanded"] is True


def test_a_member_who_leaves_takes_their_vote_away():
    guild = make_guild(members=2, joined_days_ago=2)
    leaver = current_members(guild)[1].player
    vote(leaver, guild)
    api_client(leaver).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert DisbandVote.objects.filter(guild=guild).count() == 0


def test_when_the_only_holdout_leaves_the_voters_disband_at_once():
    guild = make_guild(members=2, joined_days_ago=2)
    leader, voter, holdout = [m.player for m in current_members(guild)]
    vote(leader, guild)
    vote(voter, guild)
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        api_client(holdout).post(f"/api/v1/guilds/{guild.pk}/leave/")
    assert Guild.objects.get(pk=guild.pk).disbanded_at is not None
