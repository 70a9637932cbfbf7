"""Lobbies: open, list, join, leave, start; guild lobbies; one active match per player per mode."""

from __future__ import annotations

from typing import Any

import pytest

from gamekit.results import Impossible
from matches import modes
from matches.models import Match, MatchSeat, MatchStatus
from matches.services import mode_settings
from tests.factories import PlayerFactory, add_member, api_client, make_guild
from tests.matches.helpers import MATCHES, open_lobby, read, url
from tests.matches.toy_mode import SecretRaceMode

pytestmark = pytest.mark.django_db


def test_opening_a_lobby_seats_the_host_with_the_mode_defaults() -> None:
    host = PlayerFactory()
    body = open_lobby(host)
    assert body["status"] == "lobby" and body["host"] == host.pk and body["mode"] == "secret_race"
    assert body["settings"] == {"target": 10}
    assert [p["player"] for p in body["players"]] == [host.pk]
    assert body["view"] is None and body["allowed_actions"] == [] and body["turn"] == 0


def test_lobby_settings_override_the_defaults_and_are_validated() -> None:
    assert open_lobby(PlayerFactory(), settings={"target": 3})["settings"] == {"target": 3}
    reply = api_client(PlayerFactory()).post(
        MATCHES, {"mode": "secret_race", "settings": {"target": 0}}, format="json"
    )
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_target"
    assert Match.objects.count() == 1


def test_join_leave_and_the_host_passes_on() -> None:
    host, guest, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    assert api_client(third).post(url(match_id, "join/")).status_code == 200
    again = api_client(guest).post(url(match_id, "join/"))
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_joined"
    body = api_client(host).post(url(match_id, "leave/")).json()
    assert body["host"] == guest.pk
    assert [p["player"] for p in body["players"]] == [guest.pk, third.pk]
    api_client(guest).post(url(match_id, "leave/"))
    api_client(third).post(url(match_id, "leave/"))
    assert Match.objects.get(pk=match_id).status == MatchStatus.CANCELLED


def test_seats_are_limited_by_the_mode() -> None:
    people = [PlayerFactory() for _ in range(5)]
    match_id = open_lobby(people[0])["id"]
    for player in people[1:4]:
        assert api_client(player).post(url(match_id, "join/")).status_code == 200
    full = api_client(people[4]).post(url(match_id, "join/"))
    assert full.status_code == 409 and full.json()["error"]["code"] == "match_full"


def test_start_needs_the_host_and_enough_players() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    alone = api_client(host).post(url(match_id, "start/"))
    assert alone.status_code == 409 and alone.json()["error"]["code"] == "not_enough_players"
    api_client(guest).post(url(match_id, "join/"))
    not_host = api_client(guest).post(url(match_id, "start/"))
    assert not_host.status_code == 403 and not_host.json()["error"]["code"] == "not_host"
    body = api_client(host).post(url(match_id, "start/")).json()
    match = Match.objects.get(pk=match_id)
    assert body["status"] == "active" and body["turn"] == 1 and match.seed is not None
    assert sorted(body["order"]) == sorted([host.pk, guest.pk]) and body["awaiting"] == body["order"][0]
    assert body["deadline"] is not None
    assert body["events"][0]["kind"] == "match_started" and body["events"][0]["order"] == body["order"]
    twice = api_client(host).post(url(match_id, "start/"))
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "match_not_in_lobby"
    late = api_client(PlayerFactory()).post(url(match_id, "join/"))
    assert late.status_code == 404


def test_a_guild_lobby_is_for_the_guilds_members_only() -> None:
    guild = make_guild(members=1)
    leader = guild.leader
    member = guild.memberships.exclude(player=leader).get().player
    outsider = PlayerFactory()
    match_id = open_lobby(leader, guild=guild.pk)["id"]
    assert api_client(member).post(url(match_id, "join/")).status_code == 200
    assert api_client(outsider).post(url(match_id, "join/")).status_code == 404
    assert api_client(outsider).get(url(match_id)).status_code == 404
    listed = api_client(outsider).get(MATCHES).json()["results"]
    assert match_id not in [m["id"] for m in listed]
    add_member(guild, outsider)
    assert match_id in [m["id"] for m in api_client(outsider).get(MATCHES).json()["results"]]


def test_a_guild_lobby_needs_the_host_in_that_guild() -> None:
    guild = make_guild()
    reply = api_client(PlayerFactory()).post(
        MATCHES, {"mode": "secret_race", "guild": guild.pk}, format="json"
    )
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "not_guild_member"


def test_a_limit_of_one_active_match_per_player_per_mode() -> None:
    # given: the admin allows one active match of the mode per player (the default is 3)
    row = mode_settings("secret_race")
    row.max_active_per_player = 1
    row.save()
    player = PlayerFactory()
    open_lobby(player)
    second = api_client(player).post(MATCHES, {"mode": "secret_race"}, format="json")
    assert second.status_code == 409 and second.json()["error"]["code"] == "already_in_match"
    other = open_lobby(PlayerFactory())["id"]
    join = api_client(player).post(url(other, "join/"))
    assert join.status_code == 409 and join.json()["error"]["code"] == "already_in_match"
    assert MatchSeat.objects.filter(player=player, active=True).count() == 1


def test_the_list_shows_open_lobbies_and_own_matches_with_filters_and_cursor() -> None:
    viewer = PlayerFactory()
    lobbies = [open_lobby(PlayerFactory())["id"] for _ in range(3)]
    mine = open_lobby(viewer)["id"]
    api_client(viewer).post(url(lobbies[0], "join/"))
    api_client(viewer).post(url(lobbies[0], "leave/"))  # a lobby left before its start is not listed
    first = api_client(viewer).get(MATCHES, {"page_size": 2}).json()
    second = api_client(viewer).get(MATCHES, {"page_size": 2, "cursor": first["next"]}).json()
    assert [m["id"] for m in first["results"] + second["results"]] == [mine, *reversed(lobbies)]
    assert second["next"] is None
    assert api_client(viewer).get(MATCHES, {"status": "active"}).json()["results"] == []
    assert api_client(viewer).get(MATCHES, {"mode": "other"}).json()["results"] == []
    assert len(api_client(viewer).get(MATCHES, {"mode": "", "status": ""}).json()["results"]) == 4
    assert read(viewer, mine)["players"][0]["player"] == viewer.pk


def test_the_last_player_leaving_a_lobby_gets_the_cancelled_lobby() -> None:
    # given: a lobby its host sits in alone
    host = PlayerFactory()
    match_id = open_lobby(host)["id"]
    # when: the host leaves
    reply = api_client(host).post(url(match_id, "leave/"))
    # then: the leave is answered with the lobby as it now is, cancelled and empty
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert body["id"] == match_id and body["status"] == "cancelled" and body["ended_at"] is not None
    assert body["players"] == [] and body["seat"] is None
    assert Match.objects.get(pk=match_id).status == MatchStatus.CANCELLED


def test_a_player_who_left_a_lobby_no_longer_lists_it_once_it_started() -> None:
    # given: a lobby of three; one leaves before the start; the other two start it
    host, guest, leaver = PlayerFactory(), PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    for player in (guest, leaver):
        assert api_client(player).post(url(match_id, "join/")).status_code == 200
    left = api_client(leaver).post(url(match_id, "leave/"))
    assert left.status_code == 200 and [p["player"] for p in left.json()["players"]] == [host.pk, guest.pk]
    assert api_client(host).post(url(match_id, "start/")).status_code == 200
    # when: each of them lists their matches
    listed = {p.pk: [m["id"] for m in api_client(p).get(MATCHES).json()["results"]] for p in (host, leaver)}
    # then: the started match is the players' only; the leaver, who cannot read it, does not list it
    assert listed[host.pk] == [match_id]
    assert listed[leaver.pk] == []
    assert api_client(leaver).get(url(match_id)).status_code == 404


class _UnbuildableMode(SecretRaceMode):
    """A mode whose game cannot be built from its settings at the start (e.g. a map gone since the lobby)."""

    name = "secret_race_unbuildable"

    def create(self, *, settings: Any, seats: int, rng: Any) -> Any:
        return Impossible("cannot_build", "This game cannot be built now.", {"why": "test"})


def test_a_game_that_cannot_be_built_refuses_the_start_and_changes_nothing(monkeypatch: Any) -> None:
    monkeypatch.setitem(modes._REGISTRY, _UnbuildableMode.name, _UnbuildableMode())  # this test's only
    host, guest = PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host, "secret_race_unbuildable")["id"]
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    reply = api_client(host).post(url(match_id, "start/"))
    assert reply.status_code == 409 and reply.json()["error"] == {
        "code": "cannot_build", "message": "This game cannot be built now.", "details": {"why": "test"}}
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.LOBBY and match.seed is None and match.state is None
    assert list(MatchSeat.objects.filter(match=match).values_list("seat", flat=True)) == [None, None]
