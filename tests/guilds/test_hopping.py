"""Guild hopping: joining within 7 days of leaving is a transfer from the guild left (SPEC section 4).

The cooldown and the source-size rule apply as they stood at the moment of leaving; a kicked
member or the member of a disbanded guild is free; every refusal carries ``retry_after`` (the
moment the join stops counting as a transfer). Checked on applying, inviting, approving and
accepting; founding a guild is not joining one.
"""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guilds.models import Guild, Membership
from players.models import Player
from tests.factories import api_client, make_guild

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def members_of(guild: Guild) -> set[int]:
    current = Membership.objects.filter(guild=guild, left_at__isnull=True)
    return set(current.values_list("player_id", flat=True))


def some_member(guild: Guild) -> Player:
    current = Membership.objects.filter(guild=guild, left_at__isnull=True)
    return current.exclude(player_id=guild.leader_id).first().player


def others(guild: Guild, player: Player) -> list[Player]:
    ids = sorted(members_of(guild) - {guild.leader_id, player.pk})
    return [Player.objects.get(pk=pk) for pk in ids]


def leave(player: Player, guild: Guild) -> datetime:
    assert api_client(player).post(f"/api/v1/guilds/{guild.pk}/leave/").status_code == 200
    return Membership.objects.filter(guild=guild, player=player).latest("left_at").left_at


def apply(player: Player, guild: Guild):
    return api_client(player).post(f"/api/v1/guilds/{guild.pk}/applications/")


def approve(guild: Guild, application_id: int):
    return api_client(guild.leader).post(f"/api/v1/guilds/{guild.pk}/applications/{application_id}/approve/")


def join(player: Player, guild: Guild):
    """Apply and have the leader approve; the first refusal's response, or the approval's."""
    response = apply(player, guild)
    return response if response.status_code != 201 else approve(guild, response.json()["id"])


def refused(response, code: str, retry_after: datetime) -> dict:
    assert response.status_code == 409, response.json()
    error = response.json()["error"]
    assert error["code"] == code
    assert error["details"]["retry_after"] == retry_after.isoformat()
    assert error["details"]["retry_after_seconds"] >= 1
    return error


# --- the source-size rule as of leaving --------------------------------------------------------------

def test_leaving_a_guild_of_three_and_applying_elsewhere_is_refused_until_seven_days_after_leaving():
    source = make_guild(members=2, joined_days_ago=2)  # 3 members: no transfer allowed from it
    target = make_guild()
    player = some_member(source)
    left_at = leave(player, source)

    error = refused(apply(player, target), "source_guild_too_small", left_at + 7 * DAY)
    assert error["details"]["left_guild"] == source.pk and error["details"]["min_members"] == 4
    assert Membership.objects.get(guild=source, player=player).members_at_leave == 3
    with time_machine.travel(left_at + 7 * DAY, tick=False):  # exactly 7 days: still within
        refused(apply(player, target), "source_guild_too_small", left_at + 7 * DAY)
    with time_machine.travel(left_at + 7 * DAY + timedelta(seconds=1), tick=False):
        assert join(player, target).status_code == 200
    player.refresh_from_db()
    assert player.pk in members_of(target) and player.last_transfer_at is None  # a free join


def test_an_approval_re_checks_the_hop_rule():
    # the player applies while a member of a guild of 5 (a transfer would be fine), then the
    # guild shrinks to 3 and the player leaves it: the approval is now a hop from a guild of 3
    source = make_guild(members=4, joined_days_ago=2)
    target = make_guild()
    player = some_member(source)
    application_id = apply(player, target).json()["id"]
    for member in others(source, player)[:2]:
        leave(member, source)
    left_at = leave(player, source)

    refused(approve(target, application_id), "source_guild_too_small", left_at + 7 * DAY)
    assert player.pk not in members_of(target)


def test_accepting_an_invitation_re_checks_the_hop_rule():
    source = make_guild(members=4, joined_days_ago=2)
    target = make_guild()
    player = some_member(source)
    invitation = api_client(target.leader).post(f"/api/v1/guilds/{target.pk}/invitations/",
                                                {"player": player.pk}, format="json")
    assert invitation.status_code == 201
    for member in others(source, player)[:2]:
        leave(member, source)
    left_at = leave(player, source)

    response = api_client(player).post(f"/api/v1/invitations/{invitation.json()['id']}/accept/")

    refused(response, "source_guild_too_small", left_at + 7 * DAY)
    assert player.pk not in members_of(target)
    # inviting again is refused too (the rule is checked when inviting)
    again = api_client(target.leader).post(f"/api/v1/guilds/{target.pk}/invitations/", {"player": player.pk},
                                           format="json")
    refused(again, "source_guild_too_small", left_at + 7 * DAY)


# --- the cooldown as of leaving ----------------------------------------------------------------

def test_the_cooldown_counts_as_of_the_moment_of_leaving():
    first = make_guild(members=4, joined_days_ago=20)
    second = make_guild(members=4, joined_days_ago=20)
    third = make_guild(joined_days_ago=20)
    player = some_member(first)
    assert join(player, second).status_code == 200  # a real transfer: the cooldown starts
    transferred_at = Player.objects.get(pk=player.pk).last_transfer_at
    with time_machine.travel(transferred_at + 3 * DAY, tick=False):
        left_at = leave(player, second)  # 3 days after the transfer: the cooldown still ran
    # 8 days after the transfer the cooldown is over, but not as of the moment of leaving
    with time_machine.travel(transferred_at + 8 * DAY, tick=False):
        refused(apply(player, third), "transfer_cooldown", left_at + 7 * DAY)
    with time_machine.travel(left_at + 7 * DAY + timedelta(minutes=1), tick=False):
        assert join(player, third).status_code == 200
    assert Player.objects.get(pk=player.pk).last_transfer_at == transferred_at  # no transfer any more


def test_a_join_soon_after_leaving_is_a_transfer_and_starts_the_cooldown():
    source = make_guild(members=4, joined_days_ago=2)  # 5 members: the hop is allowed
    target = make_guild(members=4)
    third = make_guild()
    player = some_member(source)
    left_at = leave(player, source)
    with time_machine.travel(left_at + 2 * DAY, tick=False):
        assert join(player, target).status_code == 200
        joined = timezone.now()
    assert Player.objects.get(pk=player.pk).last_transfer_at == joined
    # leaving the new guild after a day and hopping on is refused: the cooldown ran at that leave
    with time_machine.travel(joined + 2 * DAY, tick=False):
        second_leave = leave(player, target)
        refused(apply(player, third), "transfer_cooldown", second_leave + 7 * DAY)


# --- who is free -------------------------------------------------------------------------------

def test_a_kicked_member_joins_at_once_without_a_transfer():
    source = make_guild(members=2, joined_days_ago=2)
    target = make_guild()
    player = some_member(source)
    kick = api_client(source.leader).post(f"/api/v1/guilds/{source.pk}/kick/", {"player": player.pk},
                                          format="json")
    assert kick.status_code == 200
    assert join(player, target).status_code == 200
    assert Player.objects.get(pk=player.pk).last_transfer_at is None


def test_the_members_of_a_disbanded_guild_join_at_once():
    source = make_guild(members=1, joined_days_ago=2)
    target = make_guild()
    player = some_member(source)
    for voter in (source.leader, player):
        assert api_client(voter).post(f"/api/v1/guilds/{source.pk}/disband-vote/").status_code in (200, 201)
    assert Guild.objects.get(pk=source.pk).disbanded_at is not None
    assert join(player, target).status_code == 200


def test_rejoining_the_guild_one_left_is_not_a_transfer():
    source = make_guild(members=2, joined_days_ago=2)
    player = some_member(source)
    leave(player, source)
    assert join(player, source).status_code == 200
    assert Player.objects.get(pk=player.pk).last_transfer_at is None


def test_founding_a_guild_right_after_leaving_is_allowed():
    source = make_guild(members=2, joined_days_ago=2)
    player = some_member(source)
    leave(player, source)
    response = api_client(player).post("/api/v1/guilds/", {"name": "Fresh Start"}, format="json")
    assert response.status_code == 201
    assert Player.objects.get(pk=player.pk).last_transfer_at is None


# --- the rule as a formula -----------------------------------------------------------------------

@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    source_extra=st.integers(min_value=1, max_value=5),
    transfer_days_before_leave=st.one_of(st.none(), st.integers(min_value=1, max_value=12)),
    hours_after_leave=st.integers(min_value=1, max_value=9 * 24),
)
def test_a_join_after_leaving_is_refused_exactly_when_the_transfer_rules_failed_at_leaving(
    source_extra: int, transfer_days_before_leave: int | None, hours_after_leave: int
) -> None:
    """refused <=> within 7 days of leaving and (cooldown running at leaving or source <= 3 then)."""
    start = timezone.now().replace(microsecond=0)
    with time_machine.travel(start, tick=False):
        source = make_guild(members=source_extra, joined_days_ago=30)
        target = make_guild(joined_days_ago=30)
        player = some_member(source)
    left_at = start + 30 * DAY
    transferred_at = None
    if transfer_days_before_leave is not None:
        transferred_at = left_at - transfer_days_before_leave * DAY
    Player.objects.filter(pk=player.pk).update(last_transfer_at=transferred_at)
    with time_machine.travel(left_at, tick=False):
        leave(player, source)
    now = left_at + timedelta(hours=hours_after_leave)

    with time_machine.travel(now, tick=False):
        response = join(player, target)

    within = now <= left_at + 7 * DAY
    cooldown_running = transferred_at is not None and left_at <= transferred_at + 7 * DAY
    too_small = source_extra + 1 <= 3
    if within and (cooldown_running or too_small):
        code = "transfer_cooldown" if cooldown_running else "source_guild_too_small"
        refused(response, code, left_at + 7 * DAY)
        assert player.pk not in members_of(target)
    else:
        assert response.status_code == 200, response.json()
        expected = now if within else transferred_at
        assert Player.objects.get(pk=player.pk).last_transfer_at == expected
