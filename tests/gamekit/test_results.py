"""The one result shape of every engine and its one mapping to the API's errors."""
from __future__ import annotations

import combat.engine as combat
import roguelike.engine as roguelike
from backend.errors import InvalidInput, RuleViolation, refused
from cell_capture.engine import new_game
from combat.engine.actions import NOT_YOUR_TURN
from gamekit.results import Impossible, Success
from tests.combat.engine.factories import battle, enemy, player


def test_a_refusal_kind_decides_the_status_and_keeps_code_message_and_details() -> None:
    # given: a malformed input and a rule refusal
    malformed = Impossible("bad_cell", "A cell is [x, y].", {"action": {"cell": 3}}, kind="input")
    ruled = Impossible("occupied", "(1,1) is occupied", {"cell": [1, 1]})
    # when: each becomes the API's error
    bad_input, rule = refused(malformed), refused(ruled)
    # then: 400 and 409 with the refusal's own code, message and details
    assert isinstance(bad_input, InvalidInput) and bad_input.status_code == 400
    assert (bad_input.code, bad_input.message, bad_input.details) == (
        "bad_cell", "A cell is [x, y].", {"action": {"cell": 3}})
    assert isinstance(rule, RuleViolation) and rule.status_code == 409
    assert (rule.code, rule.message, rule.details) == ("occupied", "(1,1) is occupied", {"cell": [1, 1]})


def test_a_refusal_without_a_message_reads_its_code() -> None:
    assert refused(Impossible("stale_turn")).message == "stale turn"


def test_every_engine_answers_with_the_same_result_types() -> None:
    import random

    # cell capture: the value core of SPEC 10's play
    game = new_game(5, 5, ("red", "blue"), random.Random(1))
    placed = game.move((0, 0))
    assert isinstance(placed, Success)
    occupied = placed.state.move((0, 0))
    assert isinstance(occupied, Impossible) and occupied.code == "occupied" and occupied.kind == "rule"
    assert game.move((9, 9)) == Impossible("off_board", "(9,9) is outside the 5x5 board", {"cell": [9, 9]},
                                           kind="input")
    # the roguelike, the combat engine: the same classes (combat's Success is gamekit's for a battle)
    assert roguelike.Impossible is Impossible and roguelike.Success is Success
    assert combat.Impossible is Impossible and issubclass(combat.Success, Success)
    state = battle([player("p1"), player("p2"), enemy("e1")], ["p1", "p2", "e1"])
    assert isinstance(combat.act(state, combat.Skip("p1")), Success)
    refusal = combat.act(state, combat.Skip("p2"))
    assert isinstance(refusal, Impossible) and refusal.code == refusal.reason == NOT_YOUR_TURN
    assert isinstance(refused(refusal), RuleViolation)
