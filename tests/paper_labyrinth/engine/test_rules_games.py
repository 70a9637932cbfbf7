"""Whole games on the example map SMALL_CLASSIC through the rules engine's API (the REST games are
the mode's tests): a classic win, a quantum game with wounds, a kill and a win, and a timeout."""
from __future__ import annotations

from paper_labyrinth.engine.examples import SMALL_CLASSIC, SMALL_TRUE_TREASURE
from paper_labyrinth.engine.requests import Move, Shoot, Status
from paper_labyrinth.engine.rules import apply, opening, timeout, whose_turn
from paper_labyrinth.engine.state import Slot
from tests.paper_labyrinth.engine.rules_boards import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    answered,
    codes,
    ended,
    game,
    play,
)


def test_a_classic_game_to_a_win_with_the_true_treasure() -> None:
    s = game(SMALL_CLASSIC, [(3, 1), (3, 4)])
    assert [m.data["cell"] for m in opening(s)] == ["land", "land"]
    answers = []
    for move in (UP, RIGHT, LEFT, LEFT, LEFT):           # hospital, the treasure, hospital, (2,0), out
        s, msgs = play(s, 0, Move(move))
        answers.append(codes(msgs))
        if whose_turn(s) is None:
            break
        s, _ = play(s, 1, Move(DOWN))                     # the other one bumps the outer wall
    assert answers[1][:2] == ["moved", "found"]
    assert answers[-1] == ["won"] and ended(s).kind == "win" and ended(s).seat == 0
    assert SMALL_TRUE_TREASURE not in s.piles and s.players[0].slot is None


def test_a_quantum_game_with_wounds_a_kill_and_a_win() -> None:
    q = game(SMALL_CLASSIC, [(3, 1), (3, 4), (3, 3)], "quantum")
    q, _ = play(q, 0, Move(UP))                           # (2,1): a hospital
    q, msgs = play(q, 1, Shoot(LEFT))                     # range 1: player 3 on (3,3)
    assert msgs[0].data == {"wounded": [2], "killed": [], "bullets": 2}
    q, msgs = play(q, 2, Shoot(RIGHT))                    # a wounded quantum player still shoots
    assert msgs[0].data["wounded"] == [1]
    q, msgs = play(q, 0, Move(RIGHT))                     # onto the true treasure
    assert q.players[0].slot == Slot("treasure", true=True) and "found" in codes(msgs)
    q, msgs = play(q, 1, Shoot(LEFT))                     # the second wound kills
    assert msgs[0].data["killed"] == [2] and q.players[2].health == "dead"
    assert q.piles[(3, 3)].bullets == 2 and q.piles[(3, 3)].grenades == 3
    q, _ = play(q, 0, Move(LEFT))                         # the dead seat is passed over
    q, msgs = play(q, 1, Move(UP))                        # into Я2, on to Я3
    assert q.players[1].pos == (3, 0) and msgs[0].data["cell"] == "hole"
    q, _ = play(q, 0, Move(LEFT))
    _, status = answered(apply(q, 1, Status()))
    assert status[0].data["health"] == "wounded" and status[0].data["bullets"] == 1
    q, _ = play(q, 1, Move(UP))                           # (3,0) up to (2,0), where player 1 stands
    q, msgs = play(q, 0, Move(LEFT))                      # out through the open exit
    assert codes(msgs) == ["won"] and ended(q).seat == 0 and whose_turn(q) is None


def test_a_timeout_leaves_the_corpse_and_the_game_goes_on() -> None:
    s = game(SMALL_CLASSIC, [(3, 1), (3, 4), (1, 1)])
    s, _ = play(s, 0, Move(UP))
    s, msgs = timeout(s, 1)
    assert codes(msgs)[0] == "timeout" and whose_turn(s) == 2
    assert s.piles[(3, 4)].corpses[0].seat == 1 and s.piles[(3, 4)].bullets == 3
    s, _ = play(s, 2, Move(UP))
    assert whose_turn(s) == 0 and s.result is None
