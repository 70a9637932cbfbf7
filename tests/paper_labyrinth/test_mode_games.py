"""Whole games of mode ``labyrinth_paper`` through the real match routes with 3 players: a win
(the true treasure carried out), each kind of draw (Nstop, everyone skipping, the true treasure
lost), a timeout loss; and no response before the end reveals a secret (the scanner of
mode_helpers.leaks over every read and post of every player)."""
from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from labyrinth.engine.grid import DIRECTIONS
from matches.models import MatchStatus
from paper_labyrinth.engine import rules
from paper_labyrinth.engine.model import Side
from paper_labyrinth.models import PaperMapDesign
from tests.matches.helpers import url
from tests.paper_labyrinth.mode_helpers import SKIP, Table, plan

pytestmark = pytest.mark.django_db
CALM = {"nstop": 500, "cure_time": "unlimited"}


def play_plan(table: Table, steps: list[dict]) -> None:
    """The first player in the turn order follows ``steps``; the others skip in between."""
    first = table.awaited()
    for action in steps:
        while table.awaited() != first:
            table.act(SKIP)
        table.act(action)


def finished(table: Table) -> dict:
    body = table.read(table.people[0])
    assert body["status"] == MatchStatus.FINISHED, body["status"]
    return body


def test_a_game_to_a_win_carrying_the_true_treasure_out() -> None:
    # given: three players chose their secret starts
    table = Table.open(3, CALM)
    table.choose_starts([0, 1, 2])
    first = table.awaited()
    seat = table.engine_seat(first)
    # when: the first player walks to the true treasure and out (a plan found on the server's state)
    steps = plan(table.game(), seat, lambda s: s.result is not None and s.result.kind == "win"
                 and s.result.seat == seat, extra=[])
    assert table.read(first)["status"] == "active"
    assert table.clients[first.pk].get(url(table.match_id, "replay/")).status_code == 409
    play_plan(table, steps)
    # then: the match is over, that player won, every seat heard the game master say so
    body = finished(table)
    assert body["result"] == {"winners": [first.pk], "winner_seats": [table.seat_of(first)],
                              "reason": "treasure_carried_out", "details": {}}
    for player in table.people:
        events = table.clients[player.pk].get(url(table.match_id)).json()["events"]
        assert any(e.get("code") == "won" and e["seat"] == table.seat_of(first) for e in events)
    table.assert_nothing_leaked()
    # and after the end the replay is there
    assert table.clients[first.pk].get(url(table.match_id, "replay/")).status_code == 200


def drawn(reason: str) -> dict:
    """The result of a drawn game (SPEC 14's one shape): nobody won."""
    return {"winners": [], "winner_seats": [], "reason": reason, "details": {}}


def safe_step(table: Table) -> dict:
    """A one-step turn for the player to move that does not leave the labyrinth."""
    game = table.game()
    me = game.players[game.current]
    direction = next(d for d in DIRECTIONS if rules.side_now(game, me.pos, d) is not Side.OPEN_EXIT)
    return {"type": "turn", "steps": [{"do": "move", "direction": direction.value}]}


def test_nstop_rounds_without_a_change_draw() -> None:
    table = Table.open(3, {"nstop": 1, "cure_time": "unlimited"})
    table.choose_starts([0, 1, 2])
    for _ in range(30):
        if table.match().is_over:
            break
        table.act(safe_step(table))  # nothing irreversible happens
    body = finished(table)
    assert body["result"] == drawn("draw_nstop")
    assert any(e.get("code") == "draw_nstop" for e in body["events"])
    table.assert_nothing_leaked()


def test_everyone_skipping_draws() -> None:
    table = Table.open(3, CALM)
    table.choose_starts([3, 4, 5])
    for _ in range(3):
        table.act(SKIP)
    body = finished(table)
    assert body["result"] == drawn("draw_all_skip")
    assert [e["code"] for e in body["events"] if e.get("kind") == "gm"][-1] == "draw_all_skip"
    table.assert_nothing_leaked()


def test_the_true_treasure_thrown_out_draws() -> None:
    table = Table.open(3, CALM)
    table.choose_starts([0, 1, 2])
    seat = table.engine_seat(table.awaited())
    throws = [{"type": "turn", "steps": [{"do": "throw", "item": "treasure", "direction": d.value},
                                         {"do": "move", "direction": d.value}]} for d in DIRECTIONS]
    steps = plan(table.game(), seat, lambda s: s.result is not None and s.result.reason == "treasure_out",
                 extra=throws)
    play_plan(table, steps)
    body = finished(table)
    assert body["result"] == drawn("draw_treasure_out")
    table.assert_nothing_leaked()


def test_a_silent_player_loses_at_the_deadline_and_the_last_one_left_wins() -> None:
    # given: a table that keeps the minute on every turn (the default calls it instead: test_mode_clock)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        table = Table.open(3, {**CALM, "timer": "every_turn"}, deadline=60)
        table.choose_starts([0, 1, 2])
        silent = table.awaited()
        # when: the first player names no move within the minute
        table.timeout(clock)
        # then: that player lost (dead, the corpse stays); the game goes on without them
        view = table.read(silent)
        assert view["status"] == "active"
        assert view["view"]["status"]["health"] == "dead"
        assert any(e.get("code") == "timeout" and e["seat"] == table.seat_of(silent) for e in view["events"])
        assert any(e.get("kind") == "turn_timed_out" for e in view["events"])
        second = table.awaited()
        assert second != silent
        assert table.read(silent)["allowed_actions"] == []
        table.act(SKIP)
        third = table.awaited()
        assert third not in (silent, second)
        table.act(safe_step(table))
        assert table.awaited() == second  # the dead player's turn is passed over
        # and when the second one is silent too, the third is the last one left: a win (C§3.5)
        table.timeout(clock)
        body = finished(table)
        assert body["result"] == {"winners": [third.pk], "winner_seats": [table.seat_of(third)],
                                  "reason": "last_player", "details": {}}
        table.assert_nothing_leaked()


def test_the_true_treasure_thrown_onto_a_source_draws_on_a_designer_map() -> None:
    # given: the seed's small classic example (deep rivers: a source is unreachable, C§4.6)
    example = PaperMapDesign.objects.get(name="Seed 002: small classic example")
    table = Table.open(3, {**CALM, "map": example.pk})
    table.choose_starts([0, 1, 2])
    seat = table.engine_seat(table.awaited())
    throws = [{"type": "turn", "steps": [{"do": "throw", "item": "treasure", "direction": d.value},
                                         {"do": "cycle"}]} for d in DIRECTIONS]
    # when: the first player carries the true treasure next to the source and throws it there
    steps = plan(table.game(), seat,
                 lambda s: s.result is not None and s.result.reason == "treasure_on_source", extra=throws)
    play_plan(table, steps)
    # then: a draw, announced to everyone
    body = finished(table)
    assert body["result"] == drawn("draw_treasure_on_source")
    assert any(e.get("code") == "draw_treasure_source" for e in body["events"])
    table.assert_nothing_leaked()
