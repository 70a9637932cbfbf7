"""Matches under real concurrent requests on PostgreSQL (threads released by a barrier, one connection each):
one action per turn, idempotent retries, one applied deadline, one active match per player per mode."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from functools import partial

import pytest
import time_machine

from matches.models import Match, MatchAction, MatchEvent, MatchSeat
from matches.services import mode_settings
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.factories import PlayerFactory
from tests.matches.helpers import awaited, open_lobby, started

pytestmark = pytest.mark.postgres

CLIENTS = 32


def _log_is_whole(match: Match) -> None:
    match.refresh_from_db()
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.event_count + 1))


def test_32_identical_actions_without_a_key_take_effect_once(live_url) -> None:
    # given: a match awaiting one player, and that player's 32 clients
    people, match = started(players=3)
    mover = awaited(people, match.pk)
    body = {"turn": match.turn, "action": {"pick": 2}}
    target = f"{live_url}/api/v1/matches/{match.pk}/actions/"
    # when: all send the same action for the same turn at once
    replies = all_at_once([partial(request, "POST", target, token(mover), body) for _ in range(CLIENTS)])
    # then: one applied; every other one is a stale turn
    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_turn"}
    assert MatchAction.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.turn == 2
    _log_is_whole(match)


def test_32_retries_with_one_key_apply_once_and_all_get_the_same_answer(live_url) -> None:
    people, match = started(players=3)
    mover = awaited(people, match.pk)
    body = {"turn": match.turn, "action": {"pick": 3}, "idempotency_key": "retry-1"}
    target = f"{live_url}/api/v1/matches/{match.pk}/actions/"
    replies = all_at_once([partial(request, "POST", target, token(mover), body) for _ in range(CLIENTS)])
    assert Counter(r.status for r in replies) == {200: CLIENTS}, replies
    assert Counter(r.body["replayed"] for r in replies) == {False: 1, True: CLIENTS - 1}
    answers = {
        json.dumps({k: v for k, v in r.body.items() if k != "replayed"}, sort_keys=True) for r in replies
    }
    assert len(answers) == 1
    assert MatchAction.objects.filter(match=match).count() == 1
    _log_is_whole(match)


def test_32_readers_after_a_deadline_skip_the_turn_once(live_url) -> None:
    people, match = started(players=3, deadline=60)
    target = f"{live_url}/api/v1/matches/{match.pk}/"
    with time_machine.travel(match.turn_started_at + timedelta(seconds=61), tick=False):
        replies = all_at_once([partial(request, "GET", target, token(people[i % 3])) for i in range(CLIENTS)])
    assert Counter(r.status for r in replies) == {200: CLIENTS}
    assert {r.body["turn"] for r in replies} == {2}
    assert MatchAction.objects.filter(match=match).count() == 1
    _log_is_whole(match)


def test_one_player_joining_32_lobbies_at_once_with_a_limit_of_one_gets_one_seat(live_url) -> None:
    row = mode_settings("secret_race")
    row.max_active_per_player = 1
    row.save()
    lobbies = [open_lobby(PlayerFactory())["id"] for _ in range(CLIENTS)]
    player = PlayerFactory()
    calls = [partial(request, "POST", f"{live_url}/api/v1/matches/{m}/join/", token(player)) for m in lobbies]
    replies = all_at_once(calls)
    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"already_in_match"}
    assert MatchSeat.objects.filter(player=player, active=True).count() == 1


def test_32_players_racing_for_the_last_seats_never_overfill_a_lobby(live_url) -> None:
    match_id = open_lobby(PlayerFactory())["id"]
    players = [PlayerFactory() for _ in range(CLIENTS)]
    target = f"{live_url}/api/v1/matches/{match_id}/join/"
    replies = all_at_once([partial(request, "POST", target, token(p)) for p in players])
    assert Counter(r.status for r in replies) == {200: 3, 409: CLIENTS - 3}
    assert {r.code for r in replies if r.status == 409} == {"match_full"}
    assert MatchSeat.objects.filter(match_id=match_id, active=True).count() == 4
