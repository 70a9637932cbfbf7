"""The match store's two paths load, save and answer the same (matches/store.py).

The same players play the same game twice (one seed, the same choices, the same clock, timeouts included):
once through the store's PostgreSQL statements (the action's prepared lock and step save, the read's one
statement), once through its portable ORM path, the one SQLite runs. Every answer and every stored row of
the two matches must be the same but for the match's id.
"""
from __future__ import annotations

import functools
import random
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from backend.errors import DomainError
from matches import services, store
from matches.models import Match, MatchAction, MatchEvent, MatchSeat
from players.models import Player
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, open_lobby, url
from tests.matches.test_contract import GAMES

pytestmark = pytest.mark.django_db

#: every Nth step waits past the deadline first (the read then applies a timeout)
LATE_EVERY = 4
#: steps of a game at most (the short games of the contract test end within them; the access tokens live
#: 30 minutes of the frozen clock)
STEPS = 60


def _stored(match_id: int) -> dict[str, Any]:
    match = Match.objects.filter(pk=match_id).values().get()
    del match["id"]
    return {
        "match": match,
        "seats": list(MatchSeat.objects.filter(match_id=match_id).order_by("id").values_list(
            "player_id", "mode", "seat", "active", "joined_at", "left_at")),
        "events": list(MatchEvent.objects.filter(match_id=match_id).order_by("seq").values_list(
            "seq", "turn", "seats", "data")),
        "actions": list(MatchAction.objects.filter(match_id=match_id).order_by("turn").values_list(
            "turn", "seat", "player_id", "action", "idempotency_key", "response", "created_at")),
    }


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key != "id"}


def _play(game: str, people: list[Player], start: Any) -> tuple[list[Any], dict[str, Any]]:
    """One whole game from ``start`` (a frozen clock): every answer, and the stored rows at the end.

    ``game``: a key of the contract test's ``GAMES`` (the mode, or ``mode/variant``)."""
    mode = game.split("/")[0]
    _, settings = GAMES[game]
    answers: list[Any] = []
    rng = random.Random(3)
    with time_machine.travel(start, tick=False) as clock:
        clients = [api_client(person) for person in people]
        match_id = clients[0].post(MATCHES, {"mode": mode, "settings": settings}, format="json").json()["id"]
        for client in clients[1:]:
            assert client.post(url(match_id, "join/")).status_code == 200
        assert clients[0].post(url(match_id, "start/")).status_code == 200
        since = [0] * len(people)
        for step in range(STEPS):
            clock.shift(timedelta(seconds=61 if step % LATE_EVERY == LATE_EVERY - 1 else 1))
            bodies = []
            for number, client in enumerate(clients):
                reply = client.get(url(match_id), {"since": since[number]})
                assert reply.status_code == 200, reply.json()
                bodies.append(reply.json())
                since[number] = bodies[-1]["last_event"]
            answers.append([_answer(body) for body in bodies])
            if bodies[0]["status"] != "active":
                break
            mover, body = next((c, b) for c, b in zip(clients, bodies, strict=True) if b["allowed_actions"])
            answer = mover.post(url(match_id, "actions/"), {
                "turn": body["turn"], "action": rng.choice(body["allowed_actions"]),
                "idempotency_key": f"k-{step}"}, format="json")
            answers.append((answer.status_code, answer.json()))
            if step % 3 == 0:  # a retry of the same key gets the same answer
                again = mover.post(url(match_id, "actions/"), {
                    "turn": body["turn"], "action": {}, "idempotency_key": f"k-{step}"}, format="json")
                answers.append((again.status_code, again.json()))
        if bodies[0]["status"] == "active":  # still on after STEPS: everyone walks out (abandoned)
            for client in clients:
                left = client.post(url(match_id, "leave/"))
                answers.append((left.status_code, _answer(left.json())))
    return answers, _stored(match_id)


@pytest.mark.postgres
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_postgresql_path_and_the_portable_path_answer_and_store_the_same(
    game: str, monkeypatch: Any
) -> None:
    mode = game.split("/")[0]
    # given players, one seed for their matches and one starting time
    people = [PlayerFactory() for _ in range(GAMES[game][0])]
    row = services.mode_settings(mode)
    row.turn_deadline_seconds = 60
    row.save()
    monkeypatch.setattr(services._SEED_SOURCE, "randrange", lambda limit: 20261128)
    start = timezone.now()
    # when they play the game through the store's PostgreSQL statements
    fast = _play(game, people, start)
    # and again through its portable path
    for name in ("match_act_lock", "match_poll", "step_save"):
        monkeypatch.setattr(store, name, functools.partial(getattr(store, name), fast=False))
    portable = _play(game, people, start)
    # then every answer and every stored row is the same
    assert fast[0] == portable[0]
    assert fast[1] == portable[1]
    # and the games had timeouts and replayed answers among their steps
    assert any(action[3] is None for action in fast[1]["actions"]) or mode == "labyrinth_roguelike"
    assert any(isinstance(a, tuple) and a[1].get("replayed") for a in fast[0])


def _waiting_for_locks(count: int) -> None:
    """Return once ``count`` other sessions of this database wait for a row lock (an hour at most: a hang)."""
    from django.db import connection

    for _ in range(360_000):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0] >= count:
                return
        time.sleep(0.01)
    raise AssertionError("the actions never waited for the match's lock")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_action_that_waited_for_the_start_acts_on_the_seats_the_start_numbered() -> None:
    # given a full lobby whose host's start holds the match's lock, not yet committed
    from django.db import connection, transaction

    host, guest = PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host, "secret_race", {"target": 10})["id"]
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    holding, release = threading.Event(), threading.Event()
    answers: dict[int, Any] = {}

    def start() -> None:
        try:
            with transaction.atomic():
                services.match_start(player=host, match_id=match_id)
                holding.set()
                release.wait()
        finally:
            connection.close()

    def act(player: Player) -> None:
        try:
            answers[player.pk] = services.match_act_for_user(
                user_id=player.user_id, match_id=match_id, turn=1, action={"pick": 2}).response
        except DomainError as refusal:
            answers[player.pk] = refusal.code
        except Exception as exc:  # noqa: BLE001 - what the test is about: no other failure
            answers[player.pk] = exc
        finally:
            connection.close()

    starter = threading.Thread(target=start)
    starter.start()
    holding.wait()
    # when both players act on turn 1 while the start holds the lock (their statements read the lobby's seats)
    actors = [threading.Thread(target=act, args=(player,)) for player in (host, guest)]
    for thread in actors:
        thread.start()
    _waiting_for_locks(2)
    release.set()
    for thread in [starter, *actors]:
        thread.join()
    # then the awaited player's action is taken on the started match and the other's is refused by the rules
    match = Match.objects.get(pk=match_id)
    awaited = match.actions.get(turn=1).player_id
    assert isinstance(answers[awaited], dict) and answers[awaited]["turn"] == 1, answers
    other = guest.pk if awaited == host.pk else host.pk
    assert answers[other] in ("not_your_turn", "stale_turn"), answers
