"""The statements a match action and a match read cost, pinned for every mode (issue 26 item 8).

Counted over HTTP with real clients (JWT), as tests/dungeons/test_run_query_counts.py counts a battle's: a
count includes the account's own read and the transaction's BEGIN and COMMIT (inside a test they show as a
savepoint pair). The baseline authenticated write is 2 statements (the account, one UPDATE).
"""
from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.sql import prepared_sql
from players.models import Notice
from tests.factories import api_client
from tests.matches.helpers import read, started, url
from tests.matches.test_contract import GAMES

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"
#: An action: the account, BEGIN, the match locked with the caller's player, its seats and the key's earlier
#: answer, the step's writes (events, the match, the action row), COMMIT. SQLite's portable path reads the
#: seats and the key apart and writes the three rows apart.
ACTION_STATEMENTS = 5 if POSTGRES else 9
#: The notices a step writes (whose turn began, that the match ended): none more on PostgreSQL, where they
#: are part of the step's own statement (players.notice_store.NOTICES_CTE); on SQLite three (users, counters,
#: rows).
NOTICE_STATEMENTS = 0 if POSTGRES else 3
#: A read: the account, then the match with the caller's player, its seats and the events since (SQLite:
#: three statements).
READ_STATEMENTS = 2 if POSTGRES else 4


def _sql(queries: CaptureQueriesContext) -> list[str]:
    return [prepared_sql(q["sql"]) for q in queries.captured_queries]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_action_and_a_read_take_at_most_their_pinned_statements(game: str) -> None:
    # given a started match of the mode (``mode/variant``: the mode with the variant's settings)
    mode = game.split("/")[0]
    players, settings = GAMES[game]
    people, row = started(mode, players=players, settings=settings)
    clients = {person.pk: api_client(person) for person in people}
    rng = random.Random(5)
    steps = tellings = 0
    for step in range(3):
        bodies = [read(person, row.pk) for person in people]
        if bodies[0]["status"] != "active":
            break
        mover, body = next((p, b) for p, b in zip(people, bodies, strict=True) if b["allowed_actions"])
        # when the player who may act reads the match (events since the one before last)
        with CaptureQueriesContext(connection) as reading:
            reply = clients[mover.pk].get(url(row.pk), {"since": max(body["last_event"] - 1, 0)})
        # then it takes at most the read's statements, and no lock
        assert reply.status_code == 200, reply.json()
        assert reply.json()["events"] == [e for e in body["events"] if e["seq"] > body["last_event"] - 1]
        statements = _sql(reading)
        assert len(statements) <= READ_STATEMENTS, "\n".join(statements)
        assert not any("FOR UPDATE" in sql for sql in statements), statements
        # when the player posts one of the allowed actions, with an idempotency key (the usual client)
        action: dict[str, Any] = rng.choice(body["allowed_actions"])
        with CaptureQueriesContext(connection) as acting:
            answer = clients[mover.pk].post(url(row.pk, "actions/"), {
                "turn": body["turn"], "action": action, "idempotency_key": f"k-{step}"}, format="json")
        # then it takes at most the action's statements, with one lock: the match's
        assert answer.status_code == 200, answer.json()
        statements = _sql(acting)
        # (a step that starts another player's turn tells them: on PostgreSQL in the step's own statement)
        told = [sql for sql in statements
                if 'INSERT INTO "players_notice"' in sql or "INSERT INTO players_notice " in sql]
        allowed = ACTION_STATEMENTS + (NOTICE_STATEMENTS if told else 0)
        assert len(statements) <= allowed, "\n".join(statements)
        if POSTGRES:
            locks = [sql for sql in statements if "FOR UPDATE" in sql]
            assert len(locks) == 1 and 'FOR UPDATE OF "matches_match"' in locks[0], locks
            assert all('INSERT INTO "matches_matchaction"' in sql for sql in told), told
        tellings += bool(told)
        steps += 1
    assert steps
    if len(people) > 1:  # a game of several people passes the turn to another person: they are told
        assert tellings


def test_an_action_that_ends_the_match_tells_every_seat_within_its_pinned_statements() -> None:
    # given a race of three to one point: the first pick wins it
    people, row = started("secret_race", players=3, settings={"target": 1})
    clients = {person.pk: api_client(person) for person in people}
    body = next(b for b in (read(person, row.pk) for person in people) if b["allowed_actions"])
    mover = next(p for p in people if read(p, row.pk)["allowed_actions"])
    last = {p.pk: Notice.objects.filter(user_id=p.user_id).count() for p in people}
    # when the awaited player picks
    with CaptureQueriesContext(connection) as acting:
        answer = clients[mover.pk].post(url(row.pk, "actions/"), {
            "turn": body["turn"], "action": {"pick": 1}, "idempotency_key": "k-end"}, format="json")
    # then the match is over, and every seat is told so (nobody's turn begins)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "finished"
    for person in people:
        told = list(Notice.objects.filter(user_id=person.user_id).order_by("seq").values_list("seq", "kind"))
        assert told[last[person.pk]:] == [(last[person.pk] + 1, "match_ended")]
    # and the step with its three notices and its seats released takes no more than an action that tells
    # nobody on PostgreSQL (SQLite: the notices' three statements and the seats' release apart)
    statements = _sql(acting)
    allowed = ACTION_STATEMENTS if POSTGRES else ACTION_STATEMENTS + NOTICE_STATEMENTS + 1
    assert len(statements) <= allowed, "\n".join(statements)
    if POSTGRES:
        told_in = [sql for sql in statements if "INSERT INTO players_notice " in sql]
        assert len(told_in) == 1 and 'INSERT INTO "matches_matchaction"' in told_in[0], statements


#: A stream's read after an event: the match with the reader's player, its seats and the events since (one
#: statement on PostgreSQL, as the REST read; SQLite: three).
STREAM_READ_STATEMENTS = 1 if POSTGRES else 3


def test_a_streams_read_after_an_event_takes_the_reads_statements() -> None:
    from matches.streams import MatchFeed

    # given a started match with a move made, and the other seat's stream feed
    people, row = started("cell_capture", players=2, settings={})
    body = read(people[0], row.pk)
    mover = next(p for p in people if read(p, row.pk)["allowed_actions"])
    clients = {person.pk: api_client(person) for person in people}
    reply = clients[mover.pk].post(url(row.pk, "actions/"), {
        "turn": body["turn"], "action": read(mover, row.pk)["allowed_actions"][0], "idempotency_key": "q1",
    }, format="json")
    assert reply.status_code == 200, reply.json()
    other = next(p for p in people if p.pk != mover.pk)
    feed = MatchFeed(row.pk, other, other.user_id)
    # when the stream reads what came after the last event it had sent
    with CaptureQueriesContext(connection) as reading:
        batch = feed.read(body["last_event"])
    # then the move's events come in the read's statements
    assert batch.events and batch.header is not None and batch.header.data["turn"] == body["turn"] + 1
    assert len(_sql(reading)) <= STREAM_READ_STATEMENTS, "\n".join(_sql(reading))
