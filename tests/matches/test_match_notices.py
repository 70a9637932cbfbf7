"""The notices a match step writes (SPEC 13, ``GET me/notices/``; players/notices.py): the lobby's changes,
the start, whose turn began (after an action or a timeout), the end; one statement per step on PostgreSQL."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.sql import prepared_sql
from matches.models import Match
from players.models import Notice, Player
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, open_lobby, read, started, url

pytestmark = pytest.mark.django_db

NOTICES = "/api/v1/me/notices/"


def notices(player: Player, since: int = 0) -> dict[str, Any]:
    reply = api_client(player).get(NOTICES, {"since": since})
    assert reply.status_code == 200, reply.json()
    return reply.json()


def kinds(player: Player) -> list[tuple[str, dict[str, Any]]]:
    return [(n["kind"], n["data"]) for n in notices(player)["notices"]]


def test_joining_and_leaving_a_lobby_tells_the_others_seated_and_the_host() -> None:
    # given a lobby of a host and a guest
    host, guest, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    # when a third joins, then the guest leaves
    assert api_client(third).post(url(match_id, "join/")).status_code == 200
    assert api_client(guest).post(url(match_id, "leave/")).status_code == 200
    # then the host heard all three changes, the guest only the third's joining, the third the guest's leaving
    about = {"match": match_id, "mode": "secret_race"}
    assert kinds(host) == [
        ("lobby_changed", {**about, "change": "joined", "player": guest.pk, "players": 2}),
        ("lobby_changed", {**about, "change": "joined", "player": third.pk, "players": 3}),
        ("lobby_changed", {**about, "change": "left", "player": guest.pk, "players": 2}),
    ]
    joined = {**about, "change": "joined", "player": third.pk, "players": 3}
    assert kinds(guest) == [("lobby_changed", joined)]
    assert kinds(third) == [("lobby_changed", {**about, "change": "left", "player": guest.pk, "players": 2})]


def test_a_start_tells_every_seat_and_the_first_awaited_its_turn() -> None:
    people, match = started(players=3)
    first = awaited(people, match.pk)
    about = {"match": match.pk, "mode": "secret_race"}
    for person in people:
        told = [k for k in kinds(person) if k[0] != "lobby_changed"]
        expected = [("match_started", about)]
        if person == first:
            expected.append(("your_turn", {**about, "turn": 1}))
        assert told == expected


def test_an_action_tells_the_next_awaited_player_and_not_the_mover() -> None:
    people, match = started(players=2)
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    before = notices(mover)["last"], notices(other)["last"]
    assert act(mover, match.pk, {"pick": 2}).status_code == 200
    assert notices(mover, since=before[0])["notices"] == []
    [told] = notices(other, since=before[1])["notices"]
    assert (told["kind"], told["data"]) == ("your_turn",
                                            {"match": match.pk, "mode": "secret_race", "turn": 2})
    assert told["text"] == f"It is your turn in match {match.pk} (secret_race)."


def test_a_timed_out_turn_tells_the_next_awaited_player() -> None:
    people, match = started(players=2, deadline=60)
    late = awaited(people, match.pk)
    other = next(p for p in people if p != late)
    since = notices(other)["last"]
    with time_machine.travel(match.turn_started_at + timedelta(seconds=61), tick=False):
        read(late, match.pk)
    told = notices(other, since=since)["notices"]
    assert [(n["kind"], n["data"]["turn"]) for n in told] == [("your_turn", 2)]


def test_the_end_of_a_match_tells_every_seat_how_it_ended() -> None:
    people, match = started(players=2, deadline=60)
    with time_machine.travel(match.turn_started_at + timedelta(days=2), tick=False):
        read(people[0], match.pk)
    for person in people:
        assert kinds(person)[-1] == ("match_ended",
                                     {"match": match.pk, "mode": "secret_race", "status": "abandoned"})


def test_a_refused_step_writes_no_notice_and_leaves_no_gap() -> None:
    people, match = started(players=2)
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    assert act(mover, match.pk, {"pick": 2}, turn=7).status_code == 409  # stale: rolled back
    assert act(mover, match.pk, {"pick": 2}).status_code == 200
    seqs = [n["seq"] for n in notices(other)["notices"]]
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_match_step_writes_its_notices_in_its_own_statement_on_postgresql() -> None:
    people, match = started(players=2)
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    before = notices(other)["last"]
    with CaptureQueriesContext(connection) as queries:
        assert act(mover, match.pk, {"pick": 2}).status_code == 200
    statements = [prepared_sql(q["sql"]) for q in queries.captured_queries]
    inserts = [sql for sql in statements if Notice._meta.db_table in sql]
    # PostgreSQL: the counter and the notice (players_notice*) are part of the step's save, one statement
    # with the action row; SQLite: the counter's upsert and the insert, apart
    if connection.vendor == "postgresql":
        assert len(inserts) == 1 and 'INSERT INTO "matches_matchaction"' in inserts[0], inserts
    else:
        assert len(inserts) == 2
    assert Match.objects.get(pk=match.pk).turn == 2
    # and the other player is told, numbered on from their last notice
    told = [(n["seq"], n["kind"]) for n in notices(other, since=before)["notices"]]
    assert told == [(before + 1, "your_turn")]

