"""Mode labyrinth_paper under real concurrent requests on PostgreSQL: 32 identical turns of the awaited
player sent at once take effect once (the others are stale), so do 32 timer calls of the other players,
and the log stays whole."""
from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from matches.models import MatchAction, MatchEvent
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.paper_labyrinth.mode_helpers import Table

pytestmark = pytest.mark.postgres
CLIENTS = 32


def test_32_identical_turns_at_once_apply_once(live_url) -> None:
    # given: a started game awaiting its first player's turn
    table = Table.open(3, {"starts": "random"}, deadline=3600)
    match = table.match()
    mover = table.awaited()
    body = {"turn": match.turn, "action": {"type": "turn", "steps": [{"do": "move", "direction": "UP"}]}}
    target = f"{live_url}/api/v1/matches/{match.pk}/actions/"
    # when: that player's 32 clients send the same turn at once
    replies = all_at_once([partial(request, "POST", target, token(mover), body) for _ in range(CLIENTS)])
    # then: one applied, the rest are stale turns; one step stored, the event log without a gap
    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_turn"}
    assert MatchAction.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.turn == 2 and match.awaiting_id != mover.pk
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.event_count + 1))
    assert table.game().turn == 1


def test_32_timer_calls_at_once_start_one_minute(live_url) -> None:
    # given: five players; the four who are not awaited each have eight clients
    table = Table.open(5, {"starts": "random"}, deadline=3600)
    match = table.match()
    callers = [p for p in table.people if p != table.awaited()]
    body = {"turn": match.turn, "action": {"type": "timer"}}
    target = f"{live_url}/api/v1/matches/{match.pk}/actions/"
    # when: all of them call the timer on the awaited player at once
    replies = all_at_once([partial(request, "POST", target, token(callers[i % len(callers)]), body)
                           for i in range(CLIENTS)])
    # then: one call started the minute; the others came a turn late; one step, one event, no gap
    assert Counter(r.status for r in replies) == {200: 1, 409: CLIENTS - 1}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_turn"}
    assert MatchAction.objects.filter(match=match).count() == 1
    kinds = list(MatchEvent.objects.filter(match=match).values_list("data__kind", flat=True))
    assert kinds.count("timer_started") == 1
    match.refresh_from_db()
    assert match.turn == 2 and match.state["clock"]["timer"] is True
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.event_count + 1))
