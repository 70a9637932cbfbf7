"""Issue 28: how a match ends and what follows (SPEC 15): resign, rematch, the seed's commitment."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from matches.models import Match, MatchAction
from matches.services import REMATCH_RESERVED_SECONDS
from players.models import Player
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, awaited, open_lobby, read, started, url

pytestmark = pytest.mark.django_db

NOTICES = "/api/v1/me/notices/"


def _played_out(people: list[Player], match_id: int) -> Match:
    """The race played to its end: every awaited player picks 3 (a read first applies passed deadlines,
    e.g. a resigned seat's turn, which times out at once)."""
    for _ in range(200):
        read(people[0], match_id)
        match = Match.objects.get(pk=match_id)
        if match.is_over:
            return match
        reply = act(awaited(people, match_id), match_id, {"pick": 3})
        assert reply.status_code == 200, reply.json()
    raise AssertionError("the race did not end")


def _code(reply: Any) -> str:
    return str(reply.json()["error"]["code"])


# --- resign --------------------------------------------------------------------------------------


def test_resigning_against_one_opponent_makes_that_opponent_win_at_once() -> None:
    # given: a two-player race, the second player not awaited
    people, match = started(players=2)
    mover = awaited(people, match.pk)
    quitter = next(p for p in people if p != mover)
    # when: the player who is not awaited resigns
    reply = api_client(quitter).post(url(match.pk, "resign/"))
    # then: the match is finished at once, won by the opponent, reason resigned
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert body["status"] == "finished"
    assert body["result"] == {"winners": [mover.pk], "winner_seats": [read(mover, match.pk)["seat"]],
                              "reason": "resigned", "details": {}}
    # and the opponent's log has the resignation, then the end
    kinds = [e["kind"] for e in read(mover, match.pk)["events"]]
    assert kinds[-2:] == ["resigned", "match_over"]
    resigned = next(e for e in read(mover, match.pk)["events"] if e["kind"] == "resigned")
    assert resigned["player"] == quitter.pk and resigned["text"]
    # and it is a step of the record: the replay marks it
    steps = api_client(mover).get(url(match.pk, "replay/")).json()["actions"]
    assert steps[-1]["resigned"] is True and steps[-1]["timeout"] is False
    assert steps[-1]["player"] == quitter.pk


def test_with_two_opponents_left_the_game_goes_on_without_the_resigned_seat() -> None:
    # given: a three-player race; the awaited player resigns
    people, match = started(players=3)
    quitter = awaited(people, match.pk)
    # when
    reply = api_client(quitter).post(url(match.pk, "resign/"))
    # then: the game goes on, the quitter's turn has passed on, and the quitter may act no more
    assert reply.status_code == 200, reply.json()
    after = Match.objects.get(pk=match.pk)
    assert after.status == "active"
    assert after.awaiting_id != quitter.pk
    assert read(quitter, match.pk)["allowed_actions"] == []
    assert _code(api_client(quitter).post(url(match.pk, "resign/"))) == "already_resigned"
    # and when the other two play it out, the quitter is never among the winners
    final = _played_out([p for p in people if p != quitter], match.pk)
    assert final.status == "finished" and quitter.pk not in final.result["winners"]
    assert final.result["reason"] == "target_reached"


def test_the_last_two_resigning_leave_nobody_but_the_third_who_wins() -> None:
    # given: a three-player race
    people, match = started(players=3)
    # when: two of them resign one after the other
    for quitter in people[:2]:
        assert api_client(quitter).post(url(match.pk, "resign/")).status_code == 200
    # then: the third wins by resignation
    final = Match.objects.get(pk=match.pk)
    assert final.status == "finished"
    assert final.result["winners"] == [people[2].pk] and final.result["reason"] == "resigned"


def test_resign_is_refused_in_a_lobby_after_the_end_and_to_strangers() -> None:
    # given: a lobby, a finished match and a stranger
    host = PlayerFactory()
    lobby = open_lobby(host)["id"]
    people, match = started(players=2)
    _played_out(people, match.pk)
    stranger = PlayerFactory()
    # when / then: a lobby is left, not resigned; an ended match is over; a stranger finds nothing
    assert _code(api_client(host).post(url(lobby, "resign/"))) == "match_not_started"
    assert _code(api_client(people[0]).post(url(match.pk, "resign/"))) == "match_over"
    assert api_client(stranger).post(url(match.pk, "resign/")).status_code == 404
    # and nothing was written by the refusals
    assert Match.objects.get(pk=lobby).status == "lobby"
    assert not MatchAction.objects.filter(match_id=match.pk, response__resigned=True).exists()


# --- fair seeds ------------------------------------------------------------------------------------


def test_the_seed_commitment_is_shown_from_the_start_and_the_replay_proves_it() -> None:
    # given: a lobby shows no commitment
    host = PlayerFactory()
    assert open_lobby(host)["seed_commitment"] is None
    # when: a match starts and is played out
    people, match = started(players=2)
    shown = read(people[1], match.pk)["seed_commitment"]
    _played_out(people, match.pk)
    replay = api_client(people[1]).get(url(match.pk, "replay/")).json()
    # then: the replay's seed is the one committed to from the start
    assert shown == replay["seed_commitment"]
    assert hashlib.sha256(str(replay["seed"]).encode()).hexdigest() == shown


# --- rematch ---------------------------------------------------------------------------------------


def test_a_rematch_before_the_end_is_refused() -> None:
    people, match = started(players=2)
    reply = api_client(people[0]).post(url(match.pk, "rematch/"))
    assert reply.status_code == 409 and _code(reply) == "match_not_over"
    assert Match.objects.filter(mode=match.mode, status="lobby", host=people[0]).count() == 0


def test_a_rematch_is_reserved_for_the_players_for_a_while_and_then_open() -> None:
    # given: a finished match of three players, and a stranger
    people, match = started(players=3, settings={"target": 6})
    _played_out(people, match.pk)
    stranger = PlayerFactory()
    before = api_client(people[1]).get(NOTICES).json()["last"]
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # when: a player asks for the rematch
        reply = api_client(people[2]).post(url(match.pk, "rematch/"))
        # then: a lobby of the same mode and settings, hosted by the caller, that the old match names
        assert reply.status_code == 201, reply.json()
        lobby = reply.json()
        assert (lobby["mode"], lobby["settings"], lobby["host"]) == (match.mode, match.settings, people[2].pk)
        assert lobby["status"] == "lobby" and lobby["reserved_until"] is not None
        assert read(people[0], match.pk)["rematch"] == lobby["id"]
        # and the other players are told on their own streams
        told = api_client(people[1]).get(NOTICES, {"since": before}).json()["notices"]
        offered = [n for n in told if n["kind"] == "rematch_offered"]
        assert [n["data"]["match"] for n in offered] == [lobby["id"]]
        assert offered[0]["data"]["rematch_of"] == match.pk and offered[0]["text"]
        # and while it is reserved a stranger may not join, a player of the match may
        refused = api_client(stranger).post(url(lobby["id"], "join/"))
        assert refused.status_code == 409 and _code(refused) == "rematch_reserved"
        assert api_client(people[0]).post(url(lobby["id"], "join/")).status_code == 200
        # and a second rematch of the same match names the first
        again = api_client(people[1]).post(url(match.pk, "rematch/"))
        assert again.status_code == 409 and _code(again) == "rematch_exists"
        assert again.json()["error"]["details"]["rematch"] == lobby["id"]
        # when the reserved time has passed, anyone may join
        clock.shift(timedelta(seconds=REMATCH_RESERVED_SECONDS + 1))
        assert api_client(stranger).post(url(lobby["id"], "join/")).status_code == 200
    assert Match.objects.filter(rematch_of=match.pk).count() == 1


def test_only_a_player_of_the_match_may_ask_for_its_rematch() -> None:
    people, match = started(players=2)
    _played_out(people, match.pk)
    assert api_client(PlayerFactory()).post(url(match.pk, "rematch/")).status_code == 404
    assert Match.objects.get(pk=match.pk).rematch_id is None


def test_the_match_list_still_reads_with_a_rematch() -> None:
    people, match = started(players=2)
    _played_out(people, match.pk)
    assert api_client(people[0]).post(url(match.pk, "rematch/")).status_code == 201
    listed = api_client(people[1]).get(MATCHES).json()["results"]
    assert {m["id"] for m in listed} >= {match.pk}


def test_the_last_person_resigning_against_bots_leaves_the_bots_to_win_together() -> None:
    # given: one person against two bots in a three-seat paper labyrinth
    person = PlayerFactory()
    lobby = open_lobby(person, "labyrinth_paper", {"nstop": 3})
    for level in ("random", "random"):
        seated = api_client(person).post(url(lobby["id"], "bots/"), {"level": level}, format="json")
        assert seated.status_code == 200, seated.json()
    assert api_client(person).post(url(lobby["id"], "start/")).status_code == 200
    # when: the person resigns
    reply = api_client(person).post(url(lobby["id"], "resign/"))
    # then: the match is over at once (bots keep no game alive), the two bots' seats its winners
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    mine = read(person, lobby["id"])["seat"]
    assert body["status"] == "finished"
    assert body["result"]["reason"] == "resigned" and body["result"]["winners"] == []
    assert sorted(body["result"]["winner_seats"]) == sorted({0, 1, 2} - {mine})
