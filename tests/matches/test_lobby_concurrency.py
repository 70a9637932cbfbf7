"""Lobbies under real concurrent requests on PostgreSQL (threads released by a barrier, one connection each):
quick join's lobbies never overfill and seat nobody twice; the per-player limit holds as a database fact."""

from __future__ import annotations

import math
from collections import Counter
from functools import partial

import pytest

from matches.models import Match, MatchSeat, MatchStatus
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.factories import PlayerFactory
from tests.matches.helpers import open_lobby
from tests.matches.test_match_lobbies import admin_row, duel_fixture  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres

QUEUERS = 9


def test_players_queueing_at_once_for_a_two_seat_mode_fill_ceil_n_over_2_lobbies(live_url, duel: str) -> None:
    # given: nine players and nobody waiting in the two-seat mode's queue
    players = [PlayerFactory() for _ in range(QUEUERS)]
    target = f"{live_url}/api/v1/matches/queue/"
    # when: all queue at once
    replies = all_at_once([partial(request, "POST", target, token(p), {"mode": duel}) for p in players])
    # then: everyone has a seat, in ceil(9 / 2) = 5 lobbies, none over two players, nobody seated twice
    assert Counter(r.status for r in replies) == {200: QUEUERS}, replies
    seats = MatchSeat.objects.filter(mode=duel, active=True)
    assert sorted(seats.values_list("player_id", flat=True)) == sorted(p.pk for p in players)
    per_lobby = Counter(seats.values_list("match_id", flat=True))
    assert len(per_lobby) == math.ceil(QUEUERS / 2)
    assert max(per_lobby.values()) == 2
    # and: the four full lobbies started, the fifth waits for a second player
    statuses = Counter(Match.objects.filter(mode=duel).values_list("status", flat=True))
    assert statuses == {MatchStatus.ACTIVE: 4, MatchStatus.LOBBY: 1}


def test_one_player_joining_four_lobbies_at_once_with_a_limit_of_3_gets_exactly_3(live_url) -> None:
    # given: a limit of three, four lobbies of other hosts
    admin_row(max_active_per_player=3)
    lobbies = [open_lobby(PlayerFactory())["id"] for _ in range(4)]
    player = PlayerFactory()
    # when: the player joins all four at once
    calls = [partial(request, "POST", f"{live_url}/api/v1/matches/{m}/join/", token(player)) for m in lobbies]
    replies = all_at_once(calls)
    # then: exactly three seats; the fourth join is refused with the limit
    assert Counter(r.status for r in replies) == {200: 3, 409: 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"already_in_match"}
    active = MatchSeat.objects.filter(player=player, active=True)
    assert sorted(active.values_list("slot", flat=True)) == [0, 1, 2]
