"""Bots under real concurrent requests on PostgreSQL: a player joining and the host seating a bot for a
lobby's last seat at once; exactly one of them gets it (the match's row lock, as for two joins)."""

from __future__ import annotations

from functools import partial

import pytest

from matches.models import MatchSeat
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.factories import PlayerFactory
from tests.matches.helpers import open_lobby, url

pytestmark = pytest.mark.postgres

#: lobbies raced at once, each by one joining player and its host seating a bot
LOBBIES = 8


def test_a_join_and_a_bot_racing_for_the_last_seat_seat_exactly_one(live_url) -> None:
    # given: paper lobbies (5 seats) each with its host and three bots: one seat left
    hosts = [PlayerFactory() for _ in range(LOBBIES)]
    lobbies = [open_lobby(host, "labyrinth_paper")["id"] for host in hosts]
    for host, match_id in zip(hosts, lobbies, strict=True):
        for _ in range(3):
            seated = request("POST", f"{live_url}{url(match_id, 'bots/')}", token(host), {"level": "random"})
            assert seated.status == 200, seated.body
    joiners = [PlayerFactory() for _ in range(LOBBIES)]
    # when: in every lobby a player joins and the host seats a bot, all at once
    calls = []
    for host, joiner, match_id in zip(hosts, joiners, lobbies, strict=True):
        calls.append(partial(request, "POST", f"{live_url}{url(match_id, 'join/')}", token(joiner)))
        calls.append(partial(request, "POST", f"{live_url}{url(match_id, 'bots/')}", token(host),
                             {"level": "explorer"}))
    replies = all_at_once(calls)
    # then: per lobby one 200 and one 409 match_full, and five seats, never six
    for index, match_id in enumerate(lobbies):
        pair = replies[2 * index: 2 * index + 2]
        assert sorted(r.status for r in pair) == [200, 409], pair
        assert next(r.code for r in pair if r.status == 409) == "match_full"
        seats = MatchSeat.objects.filter(match_id=match_id, active=True)
        assert seats.count() == 5
        joined = seats.filter(player=joiners[index]).exists()
        assert joined == (pair[0].status == 200)
        assert seats.filter(bot="explorer").count() == (0 if joined else 1)
