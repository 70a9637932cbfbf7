"""Joining with the leader's permission: applications, invitations, open and closed guilds."""
from __future__ import annotations

import pytest

from guilds.models import Application, Invitation, Membership, RequestStatus
from tests.factories import PlayerFactory, add_member, api_client, make_guild

pytestmark = pytest.mark.django_db


def apply(player, guild):
    return api_client(player).post(f"/api/v1/guilds/{guild.pk}/applications/")


def approve(guild, application_id, actor=None):
    return api_client(actor or guild.leader).post(
        f"/api/v1/guilds/{guild.pk}/applications/{application_id}/approve/")


def invite(guild, player, actor=None):
    return api_client(actor or guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/",
                                                  {"player": player.pk}, format="json")


def members_of(guild) -> set[int]:
    members = Membership.objects.filter(guild=guild, left_at__isnull=True)
    return set(members.values_list("player_id", flat=True))


# --- applications ---------------------------------------------------------------------------

def test_applying_creates_a_pending_application_the_leader_sees():
    guild = make_guild()
    player = PlayerFactory()
    response = apply(player, guild)
    assert response.status_code == 201
    assert response.json()["status"] == "pending"
    listed = api_client(guild.leader).get(f"/api/v1/guilds/{guild.pk}/applications/").json()
    assert [a["player"] for a in listed] == [player.pk]


def test_only_the_leader_sees_applications():
    guild = make_guild()
    member = add_member(guild, PlayerFactory())
    response = api_client(member).get(f"/api/v1/guilds/{guild.pk}/applications/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_leader"


def test_approving_makes_the_applicant_a_member():
    guild = make_guild()
    player = PlayerFactory()
    application_id = apply(player, guild).json()["id"]
    response = approve(guild, application_id)
    assert response.status_code == 200
    assert response.json()["status"] == "approved"
    guild.refresh_from_db()
    assert guild.members_count == 2
    assert members_of(guild) == {guild.leader_id, player.pk}
    assert api_client(player).get("/api/v1/me/").json()["guild"]["id"] == guild.pk


def test_rejecting_leaves_the_applicant_outside():
    guild = make_guild()
    player = PlayerFactory()
    application_id = apply(player, guild).json()["id"]
    response = api_client(guild.leader).post(
        f"/api/v1/guilds/{guild.pk}/applications/{application_id}/reject/")
    assert response.json()["status"] == "rejected"
    assert members_of(guild) == {guild.leader_id}


def test_a_player_withdraws_their_application():
    guild = make_guild()
    player = PlayerFactory()
    application_id = apply(player, guild).json()["id"]
    response = api_client(player).post(f"/api/v1/guilds/{guild.pk}/applications/{application_id}/withdraw/")
    assert response.json()["status"] == "withdrawn"
    assert approve(guild, application_id).json()["error"]["code"] == "application_not_pending"


def test_nobody_else_can_withdraw_an_application():
    guild = make_guild()
    application_id = apply(PlayerFactory(), guild).json()["id"]
    response = api_client(PlayerFactory()).post(
        f"/api/v1/guilds/{guild.pk}/applications/{application_id}/withdraw/")
    assert response.status_code == 404


def test_applying_twice_is_refused():
    guild = make_guild()
    player = PlayerFactory()
    apply(player, guild)
    response = apply(player, guild)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "application_pending"
    assert Application.objects.count() == 1


def test_a_member_cannot_apply_to_their_own_guild():
    guild = make_guild()
    response = apply(guild.leader, guild)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_member"


def test_only_the_leader_approves():
    guild = make_guild()
    member = add_member(guild, PlayerFactory())
    application_id = apply(PlayerFactory(), guild).json()["id"]
    response = approve(guild, application_id, actor=member)
    assert response.status_code == 403
    assert Application.objects.get(pk=application_id).status == RequestStatus.PENDING


def test_approving_an_application_of_another_guild_is_404():
    guild, other = make_guild(), make_guild()
    application_id = apply(PlayerFactory(), other).json()["id"]
    response = approve(guild, application_id)
    assert response.status_code == 404
    assert Application.objects.get(pk=application_id).status == RequestStatus.PENDING


def test_approving_twice_is_refused():
    guild = make_guild()
    application_id = apply(PlayerFactory(), guild).json()["id"]
    approve(guild, application_id)
    response = approve(guild, application_id)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "application_not_pending"


def test_approval_rechecks_the_size_limit():
    guild = make_guild(members=8)
    late = PlayerFactory()
    application_id = apply(late, guild).json()["id"]
    add_member(guild, PlayerFactory())  # the tenth member arrives first
    response = approve(guild, application_id)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "guild_full"
    guild.refresh_from_db()
    assert guild.members_count == 10
    assert late.pk not in members_of(guild)


def test_applying_to_a_full_guild_is_refused():
    guild = make_guild(members=9)
    response = apply(PlayerFactory(), guild)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "guild_full"


def test_joining_withdraws_other_applications_and_declines_other_invitations():
    first, second, third = make_guild(), make_guild(), make_guild()
    player = PlayerFactory()
    application_id = apply(player, first).json()["id"]
    other_application = apply(player, second).json()["id"]
    other_invitation = invite(third, player).json()["id"]
    approve(first, application_id)
    assert Application.objects.get(pk=other_application).status == RequestStatus.WITHDRAWN
    assert Invitation.objects.get(pk=other_invitation).status == RequestStatus.DECLINED


def test_applying_to_an_unknown_guild_is_404():
    response = api_client(PlayerFactory()).post("/api/v1/guilds/424242/applications/")
    assert response.status_code == 404


# --- open and closed ------------------------------------------------------------------------

def test_closing_a_guild_rejects_pending_applications_and_hides_it():
    guild = make_guild(name="Closing Time")
    application_id = apply(PlayerFactory(), guild).json()["id"]
    response = api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False},
                                              format="json")
    assert response.json()["is_open"] is False
    assert Application.objects.get(pk=application_id).status == RequestStatus.REJECTED
    listed = api_client(PlayerFactory()).get("/api/v1/guilds/").json()["results"]
    assert guild.pk not in [g["id"] for g in listed]


def test_applying_to_a_closed_guild_is_refused():
    guild = make_guild()
    api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False}, format="json")
    response = apply(PlayerFactory(), guild)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "guild_closed"
    assert Application.objects.count() == 0


def test_invitations_work_while_closed_and_reopening_lists_again():
    guild = make_guild()
    api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False}, format="json")
    player = PlayerFactory()
    invitation_id = invite(guild, player).json()["id"]
    assert api_client(player).post(f"/api/v1/invitations/{invitation_id}/accept/").status_code == 200
    api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": True}, format="json")
    listed = api_client(player).get("/api/v1/guilds/").json()["results"]
    assert guild.pk in [g["id"] for g in listed]


# --- invitations ----------------------------------------------------------------------------

def test_an_invited_player_accepts_and_joins():
    guild = make_guild()
    player = PlayerFactory()
    response = invite(guild, player)
    assert response.status_code == 201
    mine = api_client(player).get("/api/v1/invitations/").json()
    assert [i["id"] for i in mine] == [response.json()["id"]]
    accepted = api_client(player).post(f"/api/v1/invitations/{response.json()['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "accepted"
    assert player.pk in members_of(guild)


def test_an_invited_player_declines():
    guild = make_guild()
    player = PlayerFactory()
    invitation_id = invite(guild, player).json()["id"]
    response = api_client(player).post(f"/api/v1/invitations/{invitation_id}/decline/")
    assert response.json()["status"] == "declined"
    assert player.pk not in members_of(guild)
    again = api_client(player).post(f"/api/v1/invitations/{invitation_id}/accept/")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "invitation_not_pending"


def test_only_the_invitee_sees_an_invitation():
    guild = make_guild()
    invitation_id = invite(guild, PlayerFactory()).json()["id"]
    stranger = PlayerFactory()
    for action in ("accept", "decline"):
        response = api_client(stranger).post(f"/api/v1/invitations/{invitation_id}/{action}/")
        assert response.status_code == 404
    assert Invitation.objects.get(pk=invitation_id).status == RequestStatus.PENDING


def test_only_the_leader_invites():
    guild = make_guild()
    member = add_member(guild, PlayerFactory())
    response = invite(guild, PlayerFactory(), actor=member)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_leader"


def test_inviting_twice_is_refused():
    guild = make_guild()
    player = PlayerFactory()
    invite(guild, player)
    response = invite(guild, player)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "invitation_pending"


def test_inviting_a_member_is_refused():
    guild = make_guild()
    member = add_member(guild, PlayerFactory())
    assert invite(guild, member).json()["error"]["code"] == "already_member"


def test_inviting_an_unknown_player_is_404():
    guild = make_guild()
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/", {"player": 987654},
                                             format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "player_not_found"


@pytest.mark.parametrize("payload", [{}, {"player": "abc"}, {"player": -1}, {"player": None}])
def test_inviting_with_bad_input_is_400(payload):
    guild = make_guild()
    response = api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/invitations/", payload,
                                             format="json")
    assert response.status_code == 400
    assert Invitation.objects.count() == 0


def test_acceptance_rechecks_the_size_limit():
    guild = make_guild(members=8)
    player = PlayerFactory()
    invitation_id = invite(guild, player).json()["id"]
    add_member(guild, PlayerFactory())
    response = api_client(player).post(f"/api/v1/invitations/{invitation_id}/accept/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "guild_full"
    assert Invitation.objects.get(pk=invitation_id).status == RequestStatus.PENDING
