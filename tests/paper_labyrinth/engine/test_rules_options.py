"""The table options of seed 002 (C§7, Q§7) as the rules engine supports them."""
from __future__ import annotations

import pytest

from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Item,
    Move,
    PlaceMine,
    Shoot,
    Skip,
    Throw,
    Visibility,
)
from paper_labyrinth.engine.rules import outcome, status
from paper_labyrinth.engine.state import Slot
from tests.paper_labyrinth.engine.rules_boards import (
    LEFT,
    R1,
    RIGHT,
    RIVER,
    ROW4,
    UP,
    board,
    carry,
    codes,
    ended,
    game,
    play,
    put,
    refusal,
)


def refused(state: object, *steps: object, **turn: object) -> str:
    return refusal(state, 0, *steps, **turn).code  # type: ignore[arg-type]


def test_move_options_refuse_what_the_table_forbade() -> None:
    m = board(ROW4)
    assert refused(game(m, [(0, 0), (0, 3)], allow_dark=False), Move(UP),
                   visibility=Visibility.DARK) == "dark_forbidden"
    assert refused(game(m, [(0, 0), (0, 3)], allow_half_dark=False), Move(UP),
                   visibility=Visibility.HALF_DARK) == "half_dark_forbidden"
    no_throw = game(m, [(0, 0), (0, 3)], allow_throw=False)
    assert refused(no_throw, Throw(Item.GRENADE, RIGHT), Move(UP)) == "throw_forbidden"
    left, msgs = play(no_throw, 0, Throw(Item.GRENADE), Move(UP))
    assert left.piles[(0, 0)].grenades == 1 and codes(msgs)[0] == "left"
    mines = game(m, [(0, 0), (0, 3)], allow_adjacent_mines=False, starting_mines=1)
    assert refused(mines, PlaceMine(RIGHT), Move(UP)) == "adjacent_mine_forbidden"
    assert refused(game(m, [(0, 0), (0, 3)], no_skip_or_repeat=True), Skip()) == "skip_forbidden"
    assert refused(game(m, [(0, 0), (0, 3)], allow_conditional=False),
                   Move(UP), Conditional(Condition.WALL, (Shoot(UP),))) == "conditional_forbidden"
    assert refused(game(m, [(0, 0), (0, 3)], "quantum"), Conditional(Condition.WALL, (Shoot(UP),))) \
        == "conditional_forbidden"
    assert refused(game(m, [(0, 0), (0, 3)]), Shoot(None), Move(UP)) == "own_cell_shot"


def test_no_repeating_a_request_into_a_wall_it_was_told_of_under_c_7_7() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)], no_skip_or_repeat=True)
    s, msgs = play(s, 0, Move(UP))
    assert codes(msgs) == ["wall"]
    s, _ = play(s, 1, Move(LEFT))
    assert refused(s, Move(UP)) == "repeat_forbidden"
    s2, _ = play(s, 0, Shoot(RIGHT), Move(UP))              # another request: allowed
    dark = game(board(ROW4), [(0, 0), (0, 3)], no_skip_or_repeat=True)
    dark, _ = play(dark, 0, Move(UP), visibility=Visibility.DARK)   # nobody was told of a wall
    dark, _ = play(dark, 1, Move(LEFT))
    dark, msgs = play(dark, 0, Move(UP), visibility=Visibility.DARK)
    assert codes(msgs) == ["dark"]
    free = game(board(ROW4), [(0, 0), (0, 3)])
    free, _ = play(free, 0, Move(UP))
    free, _ = play(free, 1, Move(LEFT))
    free, msgs = play(free, 0, Move(UP))                     # without the option: allowed
    assert codes(msgs) == ["wall"] and s2.current == 1


def test_reorders_default_to_n_minus_1_in_classic_and_0_in_quantum() -> None:
    m = board(ROW4)
    assert [p.reorders_left for p in game(m, [(0, 0), (0, 1), (0, 2)]).players] == [2, 2, 2]
    assert [p.reorders_left for p in game(m, [(0, 0), (0, 1), (0, 2)], "quantum").players] == [0, 0, 0]
    assert game(m, [(0, 0), (0, 1)]).options.nstop == 4      # Nstop defaults to the number of cells


def test_options_out_of_range_are_rejected_at_the_start() -> None:
    m = board(ROW4)
    for bad in ({"cure_time": 0}, {"nstop": 0}, {"shot_range": 0}, {"starting_bullets": 4},
                {"starting_mines": 2}, {"reorders": -1}, {"last_survivor_turns": 0}):
        with pytest.raises(ValueError):
            game(m, [(0, 0), (0, 3)], **bad)


def test_mine_victims_get_no_reorder_under_c_7_5() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)], mine_victims_reorder=False)
    put(s, (0, 1), armed=1)
    s, _ = play(s, 0, Move(RIGHT))
    s, msgs = play(s, 1, Move(UP))
    assert msgs[-1].code == "wounded" and msgs[-1].data["reorder"] is False
    assert not status(s, 0)["may_reorder"]


def test_classic_range_one_shot() -> None:
    s = game(board(ROW4), [(0, 0), (0, 2)], shot_range=1)
    s, msgs = play(s, 0, Shoot(RIGHT), Move(UP))
    assert s.players[1].health == "healthy" and msgs[0].data["scream"] is False


def test_quantum_with_deep_rivers_drifts_on_a_flow_step() -> None:
    q = game(board(RIVER), [R1, (1, 2)], "quantum", river_mode="deep")
    q, msgs = play(q, 0, Move(RIGHT))
    assert q.players[0].pos == (0, 2) and msgs[0].code == "drifted"


def test_declining_the_arsenal_refill() -> None:
    s = game(board("""\
 _ _
|С А|
 _ _"""), [(0, 0), (0, 0)])
    carry(s, 0, bullets=1)
    kept, _ = play(s, 0, Move(RIGHT), refill=False)
    assert kept.players[0].bullets == 1
    full, _ = play(s, 0, Move(RIGHT))
    assert full.players[0].bullets == 3


def test_last_survivor_must_carry_the_treasure_out_under_c_7_9() -> None:
    s = game(board(RIVER), [(1, 1), (1, 1)], last_survivor_turns=2)
    carry(s, 1, health="wounded", bullets=0)
    s, _ = play(s, 0, Shoot(UP), Move(RIGHT))                 # kills the wounded one
    assert s.players[1].health == "dead" and outcome(s) is None
    s, _ = play(s, 0, Move(LEFT))
    s, _ = play(s, 0, Move(LEFT))
    assert ended(s).reason == "survivor_time"
    w = game(board(RIVER), [(1, 0), (1, 0)], last_survivor_turns=2)
    carry(w, 1, health="wounded", bullets=0)
    carry(w, 0, slot=Slot("treasure", true=True))
    w, _ = play(w, 0, Shoot(UP), Move(RIGHT))
    w, _ = play(w, 0, Move(LEFT))                             # back on the exit cell
    w, _ = play(w, 0, Move(LEFT))                             # out with the true treasure
    assert ended(w).kind == "win" and ended(w).seat == 0


def test_killing_everyone_wins_at_once_by_default() -> None:
    s = game(board(ROW4), [(0, 1), (0, 1)])
    carry(s, 1, health="wounded", bullets=0)
    s, msgs = play(s, 0, Shoot(UP), Move(UP))
    assert ended(s).reason == "last_survivor" and "last_survivor" in codes(msgs)
