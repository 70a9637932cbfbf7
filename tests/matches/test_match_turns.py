"""The turn protocol on matches: actions, stale turns, idempotent retries, deadlines, views and events."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.models import Match, MatchAction, MatchSeat, MatchStatus
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, read, started, url

pytestmark = pytest.mark.django_db


def test_an_action_on_ones_turn_moves_the_match_on() -> None:
    # given
    people, match = started()
    mover = awaited(people, match.pk)
    # when
    reply = act(mover, match.pk, {"pick": 2})
    # then
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert body["turn"] == 1 and body["next_turn"] == 2 and body["replayed"] is False
    assert [e["kind"] for e in body["events"]] == ["picked", "moved"]
    match.refresh_from_db()
    assert match.turn == 2 and match.awaiting_id != mover.pk
    assert MatchAction.objects.get(match=match).action == {"pick": 2}


def test_allowed_actions_are_the_awaited_players_and_each_can_be_sent_unchanged() -> None:
    people, match = started()
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    assert read(other, match.pk)["allowed_actions"] == []
    allowed = read(mover, match.pk)["allowed_actions"]
    assert allowed == [{"pick": 1}, {"pick": 2}, {"pick": 3}]
    assert act(mover, match.pk, allowed[-1]).status_code == 200


def test_a_stale_turn_and_an_out_of_turn_action_are_refused_and_change_nothing() -> None:
    people, match = started()
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    stale = act(mover, match.pk, {"pick": 1}, turn=5)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_turn"
    assert stale.json()["error"]["details"] == {"turn": 5, "current_turn": 1}
    out_of_turn = act(other, match.pk, {"pick": 1})
    assert out_of_turn.status_code == 409 and out_of_turn.json()["error"]["code"] == "not_your_turn"
    refused = act(mover, match.pk, {"pick": 7})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "bad_pick_value"
    assert act(mover, match.pk, {"move": 1}).status_code == 400
    match.refresh_from_db()
    assert match.turn == 1 and not MatchAction.objects.exists()


def test_a_repeated_idempotency_key_gets_the_original_answer() -> None:
    people, match = started()
    mover = awaited(people, match.pk)
    first = act(mover, match.pk, {"pick": 3}, key="k-1")
    again = act(mover, match.pk, {"pick": 1}, turn=1, key="k-1")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert {k: v for k, v in again.json().items() if k != "replayed"} == {
        k: v for k, v in first.json().items() if k != "replayed"
    }
    assert MatchAction.objects.filter(match=match).count() == 1
    without_key = act(mover, match.pk, {"pick": 3}, turn=1)
    assert without_key.status_code == 409 and without_key.json()["error"]["code"] == "stale_turn"


def test_each_player_sees_only_the_events_and_view_the_mode_lets_them_know() -> None:
    people, match = started()
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    act(mover, match.pk, {"pick": 2})
    mine = read(mover, match.pk, since=1)
    theirs = read(other, match.pk, since=1)
    assert [e["kind"] for e in mine["events"]] == ["picked", "moved"]
    assert mine["events"][0]["points"] == 2
    assert [e["kind"] for e in theirs["events"]] == ["moved"]
    assert "points" not in str(theirs["events"])
    assert mine["last_event"] == theirs["last_event"] == 3
    assert read(other, match.pk, since=3)["events"] == []
    assert mine["view"]["my_score"] >= 2 and theirs["view"]["my_score"] == 0


def test_strangers_get_404_on_every_route_of_a_started_match() -> None:
    _people, match = started()
    stranger = api_client(PlayerFactory())
    for path in ("", "replay/"):
        assert stranger.get(url(match.pk, path)).status_code == 404
    for path in ("join/", "leave/", "start/"):
        assert stranger.post(url(match.pk, path)).status_code == 404
    reply = stranger.post(url(match.pk, "actions/"), {"turn": 1, "action": {"pick": 1}}, format="json")
    assert reply.status_code == 404 and reply.json()["error"]["code"] == "match_not_found"
    assert stranger.get(url(999999)).status_code == 404


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "", {"mode": "no_such_mode"}),
        ("post", "", {"mode": "secret_race", "settings": "wide"}),
        ("post", "", {"mode": "secret_race", "guild": "x"}),
        ("post", "", {"mode": "secret_race", "guild": 2**70}),
        ("post", "", {}),
        ("get", "?status=over", None),
        ("get", "?page_size=0", None),
        ("get", "?cursor=%25%25", None),
        ("get", "{id}/?since=-1", None),
        ("get", "{id}/?since=x", None),
        ("post", "{id}/actions/", {"turn": "one", "action": {"pick": 1}}),
        ("post", "{id}/actions/", {"turn": 1}),
        ("post", "{id}/actions/", {"turn": 1, "action": [1, 2]}),
        ("post", "{id}/actions/", {"turn": 1, "action": {"pick": "1"}}),
        ("post", "{id}/actions/", {"turn": -1, "action": {"pick": 1}}),
        ("post", "{id}/actions/", {"turn": 1, "action": {"pick": 1}, "idempotency_key": "k" * 65}),
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(method, path, body) -> None:
    people, match = started()
    mover = awaited(people, match.pk)
    client = api_client(mover)
    target = "/api/v1/matches/" + path.format(id=match.pk)
    reply = getattr(client, method)(target, body, format="json") if method == "post" else client.get(target)
    assert reply.status_code == 400, reply.content
    assert "code" in reply.json()["error"]
    match.refresh_from_db()
    assert match.turn == 1 and Match.objects.count() == 1


def test_unknown_ids_on_routes_are_404() -> None:
    client = api_client(PlayerFactory())
    assert client.post("/api/v1/matches/0/join/").status_code == 404
    assert client.get("/api/v1/matches/99999999999999999999/").status_code == 404


def test_a_passed_deadline_skips_the_turn_on_the_next_read_and_deadlines_chain() -> None:
    # given: three players, a 60 s deadline, the first turn started at t0
    people, match = started(players=3, deadline=60)
    t0 = match.turn_started_at
    first = awaited(people, match.pk)
    # when: 150 s pass and someone reads
    with time_machine.travel(t0 + timedelta(seconds=150), tick=False):
        body = read(first, match.pk)
    # then: two turns timed out, the third started at t0 + 120 s
    match.refresh_from_db()
    assert match.turn == 3
    assert match.turn_started_at == t0 + timedelta(seconds=120)
    assert body["deadline"].startswith((t0 + timedelta(seconds=180)).strftime("%Y-%m-%dT%H:%M:%S"))
    timeouts = MatchAction.objects.filter(match=match).order_by("turn")
    assert [a.action for a in timeouts] == [None, None]
    assert [e["kind"] for e in body["events"]].count("turn_timed_out") == 2


def test_a_passed_deadline_applies_before_an_action_which_is_then_stale() -> None:
    people, match = started(deadline=60)
    mover = awaited(people, match.pk)
    with time_machine.travel(match.turn_started_at + timedelta(seconds=61), tick=False):
        reply = act(mover, match.pk, {"pick": 1}, turn=1)
        # the refusal rolls its transaction back; the next read applies the same timeout again
        assert read(mover, match.pk)["turn"] == 2
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "stale_turn"
    assert reply.json()["error"]["details"] == {"turn": 1, "current_turn": 2}
    assert MatchAction.objects.get(match=match).action is None


def test_a_match_nobody_plays_for_a_whole_round_is_abandoned() -> None:
    people, match = started(deadline=60)
    with time_machine.travel(match.turn_started_at + timedelta(days=2), tick=False):
        body = read(people[0], match.pk)
    assert body["status"] == "abandoned" and body["awaiting"] is None
    nobody = {"winners": [], "winner_seats": [], "reason": "abandoned", "details": {"cause": "timeouts"}}
    assert body["result"] == nobody and body["events"][-1]["result"] == nobody
    assert body["events"][-1]["kind"] == "match_abandoned"
    assert body["events"][-1]["text"] == "Nobody played for a whole round: the match is abandoned."
    assert MatchAction.objects.filter(match=match).count() == 2
    assert not MatchSeat.objects.filter(match=match, active=True).exists()


def test_a_player_who_walks_out_is_skipped_at_once_and_frees_the_mode() -> None:
    people, match = started(players=3)
    mover = awaited(people, match.pk)
    assert api_client(mover).post(url(match.pk, "leave/")).status_code == 200
    match.refresh_from_db()
    assert match.turn == 2 and match.awaiting_id != mover.pk
    assert read(mover, match.pk)["status"] == "active"  # a former player still reads the match
    again = api_client(PlayerFactory()).post("/api/v1/matches/", {"mode": "secret_race"}, format="json")
    assert again.status_code == 201
    others = [p for p in people if p != mover]
    for player in others:
        api_client(player).post(url(match.pk, "leave/"))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    assert match.result == {
        "winners": [], "winner_seats": [], "reason": "abandoned", "details": {"cause": "left"}
    }


def test_a_finished_match_keeps_its_log_refuses_actions_and_frees_the_seats() -> None:
    people, match = started(settings={"target": 1})
    mover = awaited(people, match.pk)
    body = act(mover, match.pk, {"pick": 1}).json()
    assert body["status"] == "finished" and body["result"]["winners"] == [mover.pk]
    assert body["result"] == {
        "winners": [mover.pk],
        "winner_seats": [body["result"]["winner_seats"][0]],
        "reason": "target_reached",
        "details": {},
    }
    over = body["events"][-1]
    assert over == {"seq": over["seq"], "kind": "match_over", "result": body["result"],
                    "text": "The game is over."}
    after = act(mover, match.pk, {"pick": 1}, turn=2)
    assert after.status_code == 409 and after.json()["error"]["code"] == "match_over"
    everything = read(next(p for p in people if p != mover), match.pk)
    assert [e["kind"] for e in everything["events"]] == ["match_started", "moved", "match_over"]
    assert everything["view"] is not None and everything["deadline"] is None
    assert not MatchSeat.objects.filter(match=match, active=True).exists()


def test_the_replay_is_for_seated_players_after_the_end() -> None:
    people, match = started(settings={"target": 1})
    early = api_client(people[0]).get(url(match.pk, "replay/"))
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_not_over"
    act(awaited(people, match.pk), match.pk, {"pick": 1})
    body = api_client(people[1]).get(url(match.pk, "replay/")).json()
    match.refresh_from_db()
    assert body["seed"] == match.seed and body["settings"] == {"target": 1}
    assert body["actions"] == [
        {
            "turn": 1,
            "seat": body["actions"][0]["seat"],
            "player": match.result["winners"][0],
            "action": {"pick": 1},
            "timeout": False,
            "resigned": False,
        }
    ]


def test_reading_without_a_passed_deadline_takes_no_lock(django_assert_max_num_queries) -> None:
    people, match = started()
    with django_assert_max_num_queries(8):
        read(people[0], match.pk)
    assert timezone.now() < match.turn_started_at + timedelta(hours=1)


def test_the_list_applies_passed_deadlines_before_showing_turn_and_awaiting() -> None:
    # given: three players, a 60 s deadline; 150 s pass without anyone acting
    people, match = started(players=3, deadline=60)
    with time_machine.travel(match.turn_started_at + timedelta(seconds=150), tick=False):
        # when: a player lists the matches (nobody has read the match itself)
        listed = api_client(people[0]).get("/api/v1/matches/").json()["results"]
    # then: the two passed turns were timed out, and the list shows the turn a read would show
    match.refresh_from_db()
    assert match.turn == 3
    assert [(m["id"], m["turn"], m["awaiting"]) for m in listed] == [(match.pk, 3, match.awaiting_id)]


def test_the_lists_status_filter_sees_a_match_its_deadlines_ended() -> None:
    # given: two players who both stayed away for two days (a whole round of timeouts abandons it)
    people, match = started(deadline=60)
    with time_machine.travel(match.turn_started_at + timedelta(days=2), tick=False):
        # when: one of them lists the active matches, then the abandoned ones
        active = api_client(people[1]).get("/api/v1/matches/", {"status": "active"}).json()["results"]
        abandoned = api_client(people[1]).get("/api/v1/matches/", {"status": "abandoned"}).json()["results"]
    # then: the match is listed as what it now is
    assert active == []
    assert [(m["id"], m["status"], m["awaiting"]) for m in abandoned] == [(match.pk, "abandoned", None)]
