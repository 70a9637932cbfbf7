"""matches/0002 rewrites the results stored before SPEC 14's one outcome shape: each mode's old keys, a new
game's ``ended_by``, an abandoned match's null; the ending events and the stored answers of finishing
actions get the same result."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import PlayerFactory

BEFORE = [("matches", "0001_initial")]
AFTER = [("matches", "0002_one_result_shape")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def shape(winners: list[int], seats: list[int], reason: str, **details: Any) -> dict[str, Any]:
    return {"winners": winners, "winner_seats": seats, "reason": reason, "details": details}


@pytest.mark.django_db(transaction=True)
def test_every_old_result_is_rewritten_to_the_one_shape() -> None:
    try:
        old = migrate(BEFORE)
        Match, MatchSeat = (old.get_model("matches", name) for name in ("Match", "MatchSeat"))
        MatchEvent, MatchAction = (old.get_model("matches", name) for name in ("MatchEvent", "MatchAction"))
        a, b = PlayerFactory(), PlayerFactory()

        def ended(mode: str, result: Any, status: str = "finished", **settings: Any) -> Any:
            match = Match.objects.create(mode=mode, host_id=a.pk, status=status, result=result,
                                         settings=settings, turn=3)
            for seat, player in enumerate((a, b)):
                MatchSeat.objects.create(match=match, player_id=player.pk, mode=mode, seat=seat, active=False)
            return match

        old_over = {"kind": "match_over", "winners": [a.pk]}
        capture = ended("cell_capture", {"winners": [a.pk], "winner_seats": [0], "winner_colour": "red"})
        MatchEvent.objects.create(match=capture, seq=1, turn=2, data=old_over)
        MatchAction.objects.create(match=capture, turn=2, seat=0, player_id=a.pk, action={"cell": [0, 0]},
                                   response={"turn": 2, "result": capture.result, "events": [old_over]})
        console = ended("labyrinth_console", {"winners": [b.pk], "winner_seats": [1]})
        drawn = ended("labyrinth_console", {"winners": [], "winner_seats": [], "reason": "turn_limit"},
                      max_turns=40)
        won = ended("labyrinth_roguelike",
                    {"winners": [a.pk], "winner_seats": [0], "victory": True, "turns": 9, "deaths": 1})
        lost = ended("labyrinth_roguelike",
                     {"winners": [], "winner_seats": [], "defeat": True, "turns": 4, "deaths": 3})
        replaced = ended("labyrinth_roguelike", {"winners": [], "winner_seats": [], "ended_by": "new_game"},
                         status="abandoned")
        paper = ended("labyrinth_paper", {"winners": [], "winner_seats": [],
                                          "paper": {"kind": "draw", "seat": None, "reason": "nstop"}})
        idle = ended("cell_capture", None, status="abandoned")
        MatchEvent.objects.create(match=idle, seq=1, turn=3, data={"kind": "match_abandoned"})
        left = ended("cell_capture", None, status="abandoned")
        MatchSeat.objects.filter(match=left).update(left_at="2026-01-01T00:00:00Z")
        lobby = ended("cell_capture", None, status="cancelled")

        new = migrate(AFTER)
        rows = new.get_model("matches", "Match").objects
        result = {m.pk: m.result for m in rows.all()}
        assert result[capture.pk] == shape([a.pk], [0], "won", winner_colour="red")
        assert result[console.pk] == shape([b.pk], [1], "exit_reached")
        assert result[drawn.pk] == shape([], [], "turn_limit", max_turns=40)
        assert result[won.pk] == shape([a.pk], [0], "treasure_carried_out", turns=9, deaths=1)
        assert result[lost.pk] == shape([], [], "death_limit", turns=4, deaths=3)
        assert result[replaced.pk] == shape([], [], "new_game")
        assert result[paper.pk] == shape([], [], "draw_nstop")
        assert result[idle.pk] == shape([], [], "abandoned", cause="timeouts")
        assert result[left.pk] == shape([], [], "abandoned", cause="left")
        assert result[lobby.pk] is None
        events = new.get_model("matches", "MatchEvent").objects
        over = {"kind": "match_over", "result": result[capture.pk]}
        assert events.get(match_id=capture.pk).data == over
        assert events.get(match_id=idle.pk).data == {"kind": "match_abandoned", "result": result[idle.pk]}
        answer = new.get_model("matches", "MatchAction").objects.get(match_id=capture.pk).response
        assert answer == {"turn": 2, "result": result[capture.pk], "events": [over]}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
