"""Guild rules under real concurrent requests on PostgreSQL: a live threaded server, many client
threads released together by a barrier, and the invariants checked in the database afterwards."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

import pytest
from django.db import connection
from django.db.models.functions import Lower
from rest_framework_simplejwt.tokens import RefreshToken

from guilds import services
from guilds.models import Application, Guild, Invitation, Membership, PersonRunDay, RequestStatus
from players.models import Player
from tests.factories import PlayerFactory, make_guild

pytestmark = pytest.mark.postgres

T = TypeVar("T")


# --- a tiny HTTP client and a starting gun ---------------------------------------------------------

@dataclass(frozen=True)
class Reply:
    status: int
    body: Any


def _token(player: Player) -> str:
    return str(RefreshToken.for_user(player.user).access_token)


def _request(method: str, url: str, token: str, data: dict[str, Any] | None = None) -> Reply:
    """One request on its own connection; HTTP errors are replies, not exceptions."""
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    return Reply(status, json.loads(raw) if raw else None)


def _post(base_url: str, path: str, token: str, data: dict[str, Any] | None = None) -> Reply:
    return _request("POST", base_url + path, token, data if data is not None else {})


def _get(base_url: str, path: str, token: str) -> Reply:
    return _request("GET", base_url + path, token)


def _all_at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run every call in its own thread, all released by one barrier; results in call order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int, call: Callable[[], T]) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except BaseException as exc:  # noqa: BLE001 - surfaced in the test thread below
            failures.append(exc)
        finally:
            connection.close()  # a thread that touched the ORM must not leak its connection

    threads = [threading.Thread(target=run, args=(i, call), daemon=True) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a concurrent call hung"
    if failures:
        raise failures[0]
    return results


def _assert_error(reply: Reply, status: int, codes: set[str]) -> None:
    assert reply.status == status, reply
    assert set(reply.body) == {"error"}, reply
    error = reply.body["error"]
    assert set(error) == {"code", "message", "details"}, reply
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    assert error["code"] in codes, reply


def _current_members(guild: Guild) -> set[int]:
    current = Membership.objects.filter(guild=guild, left_at__isnull=True)
    return set(current.values_list("player_id", flat=True))


# --- the last places of a guild ----------------------------------------------------------------------

def test_approvals_racing_for_the_last_two_places_admit_exactly_two(live_server) -> None:
    # given: a guild of 8 (maximum 10) and 12 pending applications
    guild = make_guild(members=7, joined_days_ago=2)
    applicants = [PlayerFactory() for _ in range(12)]
    applications = [services.guild_application_create(player=p, guild_id=guild.pk) for p in applicants]
    token = _token(guild.leader)

    # when: the leader approves all of them at the same moment
    replies = _all_at_once([
        partial(_post, live_server.url, f"/api/v1/guilds/{guild.pk}/applications/{a.pk}/approve/", token)
        for a in applications
    ])

    # then: two joined, ten were refused as guild_full, the guild holds exactly 10
    statuses = Counter(r.status for r in replies)
    assert statuses == {200: 2, 409: 10}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"guild_full"})
        else:
            assert reply.body["status"] == "approved"
    guild.refresh_from_db()
    members = _current_members(guild)
    assert guild.members_count == 10 == len(members)
    approved = {r.body["player"] for r in replies if r.status == 200}
    assert approved <= members
    # a refusal changes nothing: the losers' applications are still pending
    assert Application.objects.filter(guild=guild, status=RequestStatus.PENDING).count() == 10


def test_acceptances_racing_for_the_last_two_places_admit_exactly_two(live_server) -> None:
    # given: a guild of 8 (maximum 10) that invited 12 guildless players
    guild = make_guild(members=7, joined_days_ago=2)
    invitees = [PlayerFactory() for _ in range(12)]
    invitations = [services.guild_invitation_create(actor=guild.leader, guild_id=guild.pk, player_id=p.pk)
                   for p in invitees]

    # when: every invitee accepts at the same moment
    replies = _all_at_once([
        partial(_post, live_server.url, f"/api/v1/invitations/{inv.pk}/accept/", _token(p))
        for inv, p in zip(invitations, invitees, strict=True)
    ])

    # then
    statuses = Counter(r.status for r in replies)
    assert statuses == {200: 2, 409: 10}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"guild_full"})
        else:
            assert reply.body["status"] == "accepted"
    guild.refresh_from_db()
    members = _current_members(guild)
    assert guild.members_count == 10 == len(members)
    assert {r.body["player"] for r in replies if r.status == 200} <= members
    assert Invitation.objects.filter(guild=guild, status=RequestStatus.PENDING).count() == 10


def test_a_player_accepting_several_invitations_at_once_joins_exactly_one_guild(live_server) -> None:
    # given: five guilds have invited the same guildless player
    player = PlayerFactory()
    guilds = [make_guild(members=1, joined_days_ago=2) for _ in range(5)]
    invitations = [services.guild_invitation_create(actor=g.leader, guild_id=g.pk, player_id=player.pk)
                   for g in guilds]
    token = _token(player)

    # when: the player accepts all five at the same moment
    replies = _all_at_once([
        partial(_post, live_server.url, f"/api/v1/invitations/{inv.pk}/accept/", token) for inv in invitations
    ])

    # then: one acceptance won, the others were refused with a rule error
    statuses = Counter(r.status for r in replies)
    assert statuses == {200: 1, 409: 4}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"concurrent_change", "invitation_not_pending", "already_member"})
    current = Membership.objects.filter(player=player, left_at__isnull=True)
    assert current.count() == 1
    joined = current.get().guild_id
    assert joined == next(r.body["guild"] for r in replies if r.status == 200)
    for guild in guilds:
        guild.refresh_from_db()
        assert guild.members_count == (3 if guild.pk == joined else 2) == len(_current_members(guild))
    # joining declined the player's other invitations
    assert not Invitation.objects.filter(player=player, status=RequestStatus.PENDING).exists()


def test_two_members_transferring_out_of_a_guild_of_four_at_once_leave_it_with_three(live_server) -> None:
    # given: guild A of 4 (a transfer needs the guild left to keep more than 3), two of its members
    # invited by two other guilds
    source = make_guild(members=3, joined_days_ago=10)
    movers = sorted(_current_members(source) - {source.leader_id})[:2]
    targets = [make_guild(members=1, joined_days_ago=10) for _ in movers]
    invitations = [services.guild_invitation_create(actor=t.leader, guild_id=t.pk, player_id=m)
                   for t, m in zip(targets, movers, strict=True)]

    # when: both accept at the same moment
    replies = _all_at_once([
        partial(_post, live_server.url, f"/api/v1/invitations/{inv.pk}/accept/",
                _token(Player.objects.get(pk=m)))
        for inv, m in zip(invitations, movers, strict=True)
    ])

    # then: one transfer happened, the other was refused because A would drop to 3
    assert Counter(r.status for r in replies) == {200: 1, 409: 1}, replies
    refused = next(r for r in replies if r.status == 409)
    _assert_error(refused, 409, {"source_guild_too_small"})
    source.refresh_from_db()
    assert source.members_count == 3 == len(_current_members(source))
    moved = next(m for m, r in zip(movers, replies, strict=True) if r.status == 200)
    assert Player.objects.get(pk=moved).last_transfer_at is not None
    for target in targets:
        target.refresh_from_db()
        assert target.members_count == len(_current_members(target))


def test_an_approval_racing_the_applicants_acceptance_elsewhere_leaves_one_membership(live_server) -> None:
    for _ in range(5):
        # given: P applied to guild A and is invited by guild B
        applicant = PlayerFactory()
        guild_a, guild_b = make_guild(members=2, joined_days_ago=2), make_guild(members=2, joined_days_ago=2)
        application = services.guild_application_create(player=applicant, guild_id=guild_a.pk)
        invitation = services.guild_invitation_create(actor=guild_b.leader, guild_id=guild_b.pk,
                                                      player_id=applicant.pk)

        # when: A's leader approves while P accepts B's invitation
        approve, accept = _all_at_once([
            partial(_post, live_server.url,
                    f"/api/v1/guilds/{guild_a.pk}/applications/{application.pk}/approve/",
                    _token(guild_a.leader)),
            partial(_post, live_server.url, f"/api/v1/invitations/{invitation.pk}/accept/",
                    _token(applicant)),
        ])

        # then: P is in exactly one guild, the one whose request succeeded; the other was refused
        assert sorted([approve.status, accept.status]) == [200, 409], (approve, accept)
        loser = approve if approve.status == 409 else accept
        _assert_error(loser, 409, {"concurrent_change", "application_not_pending", "invitation_not_pending",
                                   "transfer_cooldown", "source_guild_too_small", "already_in_guild"})
        current = Membership.objects.filter(player=applicant, left_at__isnull=True)
        assert current.count() == 1
        assert current.get().guild_id == (guild_a.pk if approve.status == 200 else guild_b.pk)
        for guild in (guild_a, guild_b):
            guild.refresh_from_db()
            assert guild.members_count == len(_current_members(guild))


def test_every_member_voting_to_disband_at_once_disbands_the_guild_exactly_once(live_server) -> None:
    # given: a guild of six
    guild = make_guild(members=5, joined_days_ago=2)
    members = list(Player.objects.filter(pk__in=_current_members(guild)))

    # when: all six vote at the same moment
    replies = _all_at_once([
        partial(_post, live_server.url, f"/api/v1/guilds/{guild.pk}/disband-vote/", _token(m))
        for m in members
    ])

    # then: every vote counted, the last one disbanded the guild, everyone is guildless
    assert [r.status for r in replies] == [200] * 6, replies
    assert sum(r.body["disbanded"] for r in replies) == 1
    assert sorted(r.body["votes"] for r in replies) == [1, 2, 3, 4, 5, 6]
    guild.refresh_from_db()
    assert guild.disbanded_at is not None and guild.members_count == 0
    assert not _current_members(guild)
    assert not guild.disband_votes.exists()


# --- two leader actions racing ----------------------------------------------------------------------

def test_hand_over_racing_a_kick_of_the_same_member_leaves_one_leader_who_is_a_member(live_server) -> None:
    outcomes: Counter[str] = Counter()
    for _ in range(20):
        # given: leader L with members M and two others
        guild = make_guild(members=3, joined_days_ago=2)
        leader = guild.leader
        member_id = next(iter(_current_members(guild) - {leader.pk}))
        token = _token(leader)

        # when: L hands leadership to M and kicks M at the same moment
        hand_over, kick = _all_at_once([
            partial(_post, live_server.url, f"/api/v1/guilds/{guild.pk}/leader/", token,
                    {"player": member_id}),
            partial(_post, live_server.url, f"/api/v1/guilds/{guild.pk}/kick/", token,
                    {"player": member_id}),
        ])

        # then: exactly one request won, and the loser was refused for the reason the winner created
        guild.refresh_from_db()
        members = _current_members(guild)
        if hand_over.status == 200:
            outcomes["hand-over first"] += 1
            _assert_error(kick, 403, {"not_leader"})
            assert guild.leader_id == member_id
            assert member_id in members and leader.pk in members
        else:
            outcomes["kick first"] += 1
            assert kick.status == 200, kick
            _assert_error(hand_over, 409, {"not_member"})
            assert guild.leader_id == leader.pk
            assert member_id not in members
        assert guild.leader_id in members
        assert guild.members_count == len(members)
        detail = _get(live_server.url, f"/api/v1/guilds/{guild.pk}/", token)
        assert detail.status == 200
        assert [m["player"] for m in detail.body["members"] if m["is_leader"]] == [guild.leader_id]
    assert sum(outcomes.values()) == 20, outcomes


# --- the activity ledger ------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_concurrent_person_run_records_for_one_guild_and_day_add_up() -> None:
    # given: a guild without ledger rows and 16 threads, each recording a few runs on the same day
    guild = make_guild(members=2)
    at = datetime(2030, 5, 17, 12, 30, tzinfo=UTC)
    counts = [[1 + (thread + call) % 4 for call in range(3)] for thread in range(16)]

    def record(thread_counts: list[int]) -> None:
        for count in thread_counts:
            services.guild_person_runs_record(guild_id=guild.pk, at=at, count=count)

    # when
    _all_at_once([partial(record, c) for c in counts])

    # then: one ledger row holding every count
    rows = list(PersonRunDay.objects.filter(guild=guild).values_list("day", "person_runs"))
    assert rows == [(at.date(), sum(map(sum, counts)))]


# --- names -----------------------------------------------------------------------------------------------

def test_creating_guilds_with_one_name_in_different_cases_at_once_creates_exactly_one(live_server) -> None:
    # given: twelve guildless players and twelve spellings of one name
    players = [PlayerFactory() for _ in range(12)]
    names = ["Dragons", "dragons", "DRAGONS", "dRAGONS", "DrAgOnS", "dRaGoNs",
             "DRagons", "drAGONS", "draGONS", "DRAgons", "dragONS", "DRAGons"]

    # when
    replies = _all_at_once([
        partial(_post, live_server.url, "/api/v1/guilds/", _token(p), {"name": n})
        for p, n in zip(players, names, strict=True)
    ])

    # then
    statuses = Counter(r.status for r in replies)
    assert statuses == {201: 1, 409: 11}, replies
    for reply in replies:
        if reply.status == 409:
            _assert_error(reply, 409, {"name_taken"})
    guilds = Guild.objects.annotate(lname=Lower("name")).filter(lname="dragons", disbanded_at__isnull=True)
    assert guilds.count() == 1
    winner = next(p for p, r in zip(players, replies, strict=True) if r.status == 201)
    assert guilds.get().leader_id == winner.pk
    # the losers are still guildless
    current = Membership.objects.filter(left_at__isnull=True)
    assert set(current.values_list("player_id", flat=True)) == {winner.pk}
