"""Issue 28 under real concurrent requests on PostgreSQL (threads released by a barrier, one connection each):
a rematch claimed by two players at once opens one lobby; a resignation racing an action happens wholly
before or wholly after it."""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from matches.models import Match, MatchAction, MatchEvent
from players.models import Player
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.matches.helpers import act, awaited, started

pytestmark = pytest.mark.postgres

ROUNDS = 6


def _finished(players: int) -> tuple[list[Player], Match]:
    people, match = started(players=players, settings={"target": 4})
    while not Match.objects.get(pk=match.pk).is_over:
        assert act(awaited(people, match.pk), match.pk, {"pick": 3}).status_code == 200
    return people, Match.objects.get(pk=match.pk)


def test_a_rematch_claimed_by_every_player_at_once_opens_exactly_one_lobby(live_url) -> None:
    for _ in range(ROUNDS):
        # given: a finished match of four players
        people, match = _finished(players=4)
        target = f"{live_url}/api/v1/matches/{match.pk}/rematch/"
        # when: all four ask for its rematch at once
        replies = all_at_once([partial(request, "POST", target, token(p)) for p in people])
        # then: one lobby was opened; every other caller is told which it is
        assert Counter(r.status for r in replies) == {201: 1, 409: 3}, replies
        lobby = next(r.body["id"] for r in replies if r.status == 201)
        assert {r.code for r in replies if r.status == 409} == {"rematch_exists"}
        assert {r.body["error"]["details"]["rematch"] for r in replies if r.status == 409} == {lobby}
        match.refresh_from_db()
        assert match.rematch_id == lobby
        assert Match.objects.filter(status="lobby", mode=match.mode, host__in=people).count() == 1


def test_a_resignation_racing_an_action_happens_before_or_after_it_never_half(live_url) -> None:
    orders: Counter[str] = Counter()
    for _ in range(ROUNDS):
        # given: a two-player race; the awaited player is about to act, the other to resign
        people, match = started(players=2)
        mover = awaited(people, match.pk)
        quitter = next(p for p in people if p != mover)
        base = f"{live_url}/api/v1/matches/{match.pk}"
        # when: both requests are sent at once
        moved, resigned = all_at_once([
            partial(request, "POST", f"{base}/actions/", token(mover),
                    {"turn": match.turn, "action": {"pick": 1}}),
            partial(request, "POST", f"{base}/resign/", token(quitter)),
        ])
        # then: the resignation always happened and ended the match for the mover
        assert resigned.status == 200, resigned
        match.refresh_from_db()
        assert match.status == "finished" and match.result["reason"] == "resigned"
        assert match.result["winners"] == [mover.pk]
        steps = list(MatchAction.objects.filter(match=match).order_by("turn").values_list("turn", "response"))
        if moved.status == 200:  # the action first: its step, then the resignation's
            orders["action first"] += 1
            assert [t for t, _ in steps] == [1, 2] and steps[1][1] == {"resigned": True}
        else:  # the resignation first: the action came too late, and nothing of it was written
            orders["resign first"] += 1
            assert moved.status == 409 and moved.code in {"match_over", "stale_turn"}, moved
            assert steps == [(1, {"resigned": True})]
        # and the log is whole: every number once, one resignation, one end
        seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, match.event_count + 1))
        logged = MatchEvent.objects.filter(match=match).values_list("data", flat=True)
        kinds = Counter(data["kind"] for data in logged)
        assert kinds["resigned"] == 1 and kinds["match_over"] == 1
    assert sum(orders.values()) == ROUNDS
