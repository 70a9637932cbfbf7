"""A darkness lobby belongs to its host's guild (issue 24, item 3): nobody from outside takes a seat, and
a seated member who is no longer of the guild cannot block the start."""
from __future__ import annotations

import pytest

from dungeons.models import MemberStatus, Run, RunMember, RunStatus
from guilds.services import guild_leader_hand_over, guild_member_kick
from players.models import InventoryItem
from tests.darkness.helpers import install_maze, only
from tests.dungeons.run_helpers import Party, assert_error, guild_party, lobby, log_kinds
from tests.factories import PlayerFactory, make_guild

pytestmark = pytest.mark.django_db


@pytest.fixture
def guild_lobby():
    """Three members of one guild on the corridor maze; the leader opens a darkness lobby over HTTP."""
    only("empty")
    players, guild = guild_party(3)
    install_maze(guild)
    party = Party(players)
    response = party.post(players[0], "runs/", {"kind": "darkness"})
    assert response.status_code == 201, response.json()
    return players, guild, party, response.json()["id"]


def _seated(run_id: int) -> list[int]:
    return list(RunMember.objects.filter(run_id=run_id, status=MemberStatus.JOINED)
                .order_by("position").values_list("player_id", flat=True))


def test_a_member_of_another_guild_or_of_none_is_refused_a_seat(guild_lobby) -> None:
    # given: a darkness lobby of one guild, a member of another guild and a guildless player
    players, guild, party, run_id = guild_lobby
    other = make_guild().leader
    loner = PlayerFactory()
    # when: each asks for a seat
    for outsider in (other, loner):
        response = Party([outsider]).post(outsider, f"runs/{run_id}/join/")
        error = assert_error(response, 409, "not_guild_member")
        # then: refused, naming the lobby's guild, and nothing changed
        assert error["details"] == {"guild": guild.pk}
        assert not RunMember.objects.filter(player=outsider).exists()
    assert _seated(run_id) == [players[0].pk]
    # while a member of the guild sits down
    assert party.post(players[1], f"runs/{run_id}/join/").status_code == 200
    assert _seated(run_id) == [players[0].pk, players[1].pk]


def test_a_guildless_player_cannot_open_a_darkness_lobby() -> None:
    loner = PlayerFactory()
    assert_error(Party([loner]).post(loner, "runs/", {"kind": "darkness"}), 409, "not_guild_member")
    assert not Run.objects.exists() and not RunMember.objects.exists()
    # an ordinary lobby is anyone's
    assert Party([loner]).post(loner, "runs/", {"kind": "ordinary"}).status_code == 201


def test_a_member_who_left_the_guild_stays_outside_and_the_run_starts_without_them(guild_lobby) -> None:
    # given: all three seated; the second has not chosen a starting weapon, the third took one
    players, guild, party, run_id = guild_lobby
    for player in players[1:]:
        assert party.post(player, f"runs/{run_id}/join/").status_code == 200
    party.post(players[0], f"runs/{run_id}/weapon/", {"item_kind": None})
    offer = party.client(players[2]).get(f"/api/v1/runs/{run_id}/offer/").json()
    assert party.post(players[2], f"runs/{run_id}/weapon/", {"item_kind": offer[0]["id"]}).status_code == 200
    # when: both are kicked from the guild, then the host starts
    guild_member_kick(actor=players[0], guild_id=guild.pk, player_id=players[1].pk)
    guild_member_kick(actor=players[0], guild_id=guild.pk, player_id=players[2].pk)
    response = party.post(players[0], f"runs/{run_id}/start/")
    # then: the run starts with the host alone; the others are out of the lobby, the weapon went back
    assert response.status_code == 200, response.json()
    run = response.json()
    assert run["status"] == "active" and [m["player"] for m in run["members"]] == [players[0].pk]
    assert log_kinds(run)[:2] == ["turned_away", "started"]
    assert run["log"][0]["players"] == [players[1].pk, players[2].pk]
    for player in players[1:]:
        member = RunMember.objects.get(run_id=run_id, player=player)
        assert (member.status, member.active) == (MemberStatus.LEFT, False)
    assert not InventoryItem.objects.filter(player=players[2]).exists()
    # and they are free to play elsewhere
    assert Party([players[1]]).post(players[1], "runs/", {"kind": "ordinary"}).status_code == 201


def test_a_host_who_left_the_guild_is_refused_the_start_and_may_leave_to_unblock_it(guild_lobby) -> None:
    # given: two seated members; the host leaves the guild (a new leader kicks the old one)
    players, guild, party, run_id = guild_lobby
    assert party.post(players[1], f"runs/{run_id}/join/").status_code == 200
    lobby_members = _seated(run_id)
    guild_leader_hand_over(actor=players[0], guild_id=guild.pk, player_id=players[1].pk)
    guild_member_kick(actor=players[1], guild_id=guild.pk, player_id=players[0].pk)
    for player in players[:2]:
        party.post(player, f"runs/{run_id}/weapon/", {"item_kind": None})
    # when: the old host starts
    error = assert_error(party.post(players[0], f"runs/{run_id}/start/"), 409, "not_guild_member")
    # then: nothing changed
    assert error["details"] == {"guild": guild.pk}
    assert Run.objects.get(pk=run_id).status == RunStatus.LOBBY and _seated(run_id) == lobby_members
    # when: the old host leaves the lobby, the next member hosts it and starts
    assert party.post(players[0], f"runs/{run_id}/leave/").status_code == 200
    response = party.post(players[1], f"runs/{run_id}/start/")
    assert response.status_code == 200, response.json()
    assert [m["player"] for m in response.json()["members"]] == [players[1].pk]


def test_a_lobby_opened_before_it_recorded_its_guild_is_its_hosts_guilds(guild_lobby) -> None:
    players, guild, party, run_id = guild_lobby
    Run.objects.filter(pk=run_id).update(guild=None)
    other = make_guild().leader
    assert_error(Party([other]).post(other, f"runs/{run_id}/join/"), 409, "not_guild_member")
    assert party.post(players[1], f"runs/{run_id}/join/").status_code == 200
    run = lobby([players[2]], kind="darkness")  # the service helper: the same rule
    assert Run.objects.get(pk=run.pk).guild_id == guild.pk
