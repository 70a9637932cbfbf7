"""The seed's /new_game under real concurrent requests on PostgreSQL: one active game per player."""
from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from matches.models import Match, MatchSeat, MatchStatus
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, url

pytestmark = pytest.mark.postgres
MODE = "labyrinth_roguelike"
CLIENTS = 16


def test_16_new_games_at_once_leave_exactly_one_active_game_and_end_the_old(live_url) -> None:
    # given: a player in a started game
    player = PlayerFactory()
    opened = api_client(player).post(MATCHES, {"mode": MODE, "settings": {"seed": 1}}, format="json")
    old = opened.json()["id"]
    assert api_client(player).post(url(old, "start/")).status_code == 200
    # when: 16 clients of that player open a new game at once
    body = {"mode": MODE, "settings": {"seed": 2}}
    replies = all_at_once([partial(request, "POST", f"{live_url}{MATCHES}", token(player), body)
                           for _ in range(CLIENTS)])
    # then: each either opened a game or met another new game's seat; never a server error
    assert set(Counter(r.status for r in replies)) <= {201, 409}, replies
    assert {r.code for r in replies if r.status == 409} <= {"already_in_match"}
    assert any(r.status == 201 for r in replies)
    # exactly one active game of the mode is left, and the old one ended as replaced
    active = MatchSeat.objects.filter(player=player, mode=MODE, active=True)
    assert active.count() == 1
    ended = Match.objects.get(pk=old)
    assert ended.status == MatchStatus.ABANDONED
    assert ended.result == {"winners": [], "winner_seats": [], "reason": "new_game", "details": {}}
    survivors = Match.objects.filter(mode=MODE, status=MatchStatus.LOBBY)
    assert list(survivors.values_list("pk", flat=True)) == [active.get().match_id]
