"""Cell capture rules on known positions: the seed's examples, every rule and its edges."""
from __future__ import annotations

import json
import random

import pytest

from cell_capture.engine import (
    TEXT_LINES,
    Captured,
    Drops,
    Eliminated,
    Exploded,
    Game,
    IllegalMove,
    InvalidSetup,
    Placed,
    Skipped,
    Upgraded,
    Won,
    event_from_dict,
    game_from_dict,
    new_game,
)


def position(board: dict, *, order=("A", "B"), to_move="A", round=5, width=9, height=9,
             eliminated=()) -> Game:
    return Game(width=width, height=height, order=tuple(order), to_move=to_move, round=round,
                board=dict(board), eliminated=tuple(eliminated))


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# --- setup ------------------------------------------------------------------------------------

def test_new_game_draws_the_turn_order_with_the_injected_rng():
    colours = ("red", "blue", "green", "gold")
    games = [new_game(5, 5, colours, random.Random(seed)) for seed in range(20)]
    assert all(sorted(g.order) == sorted(colours) for g in games)
    assert len({g.order for g in games}) > 1
    assert new_game(5, 5, colours, random.Random(7)).order == new_game(5, 5, colours, random.Random(7)).order
    game = games[0]
    assert (game.to_move, game.round, game.board, game.winner, game.eliminated) == \
        (game.order[0], 1, {}, None, ())


@pytest.mark.parametrize(("width", "height", "colours", "code"), [
    (4, 5, ("a", "b"), "bad_size"),
    (5, 51, ("a", "b"), "bad_size"),
    (5, 5, ("a",), "bad_player_count"),
    (5, 5, tuple("abcdefghijk"), "bad_player_count"),
    (5, 5, ("a", "a"), "duplicate_colour"),
    (5, 5, ("a", ""), "bad_colour"),
])
def test_new_game_refuses_boards_and_players_out_of_bounds(width, height, colours, code):
    with pytest.raises(InvalidSetup) as refused:
        new_game(width, height, colours, random.Random(1))
    assert refused.value.code == code


def test_the_extreme_sizes_are_allowed():
    assert new_game(50, 50, tuple("abcdefghij"), random.Random(1)).width == 50
    assert new_game(5, 50, ("a", "b"), random.Random(1)).height == 50


# --- round 1: placement -----------------------------------------------------------------------

def test_round_one_places_a_level_one_piece_per_player_then_round_two_upgrades():
    game = new_game(5, 5, ("A", "B", "C"), random.Random(3))
    first, second, third = game.order
    game, events = game.play((0, 0))
    assert events == [Placed(1, first, (0, 0))]
    assert events[0].text() == f"[Round 1, player {first}] places {first}_1_(0,0)"
    game, _ = game.play((4, 4))
    game, _ = game.play((2, 3))
    assert game.board == {(0, 0): (first, 1), (4, 4): (second, 1), (2, 3): (third, 1)}
    assert (game.round, game.to_move, game.turn) == (2, first, 3)
    game, events = game.play((0, 0))
    assert events == [Upgraded(2, first, (0, 0), 2)]
    assert game.board[(0, 0)] == (first, 2)


def test_round_one_refuses_an_occupied_cell():
    game, _ = new_game(5, 5, ("A", "B"), random.Random(3)).play((1, 1))
    with pytest.raises(IllegalMove) as refused:
        game.play((1, 1))
    assert refused.value.code == "occupied"


@pytest.mark.parametrize(("cell", "code"), [
    ((9, 0), "off_board"), ((0, -1), "off_board"), ((-1, 3), "off_board"), ((0, 9), "off_board"),
    ((1, 1), "empty_cell"), ((2, 2), "not_your_piece"),
    ((1,), "bad_cell"), ((1, 2, 3), "bad_cell"), (("1", 2), "bad_cell"), ((True, 1), "bad_cell"),
    ((1.0, 2), "bad_cell"), (None, "bad_cell"),
])
def test_later_rounds_refuse_anything_but_an_own_piece_and_change_nothing(cell, code):
    game = position({(0, 0): ("A", 2), (2, 2): ("B", 1)})
    before = game.to_dict()
    with pytest.raises(IllegalMove) as refused:
        game.play(cell)
    assert refused.value.code == code
    assert game.to_dict() == before


def test_a_finished_game_refuses_every_move_and_skip():
    game = position({(0, 0): ("A", 1)}, to_move=None)
    game = Game(**{**game.__dict__, "winner": "A"})
    for call in (lambda: game.play((0, 0)), game.skip):
        with pytest.raises(IllegalMove) as refused:
            call()
        assert refused.value.code == "game_over"


def test_legal_moves_are_the_empty_cells_in_round_one_and_own_pieces_later():
    game, _ = new_game(5, 5, ("A", "B"), random.Random(1)).play((2, 2))
    assert len(game.legal_moves()) == 24 and (2, 2) not in game.legal_moves()
    later = position({(0, 0): ("A", 2), (2, 2): ("B", 1), (3, 1): ("A", 3)})
    assert later.legal_moves() == ((0, 0), (3, 1))
    for cell in later.legal_moves():
        later.play(cell)


def test_play_accepts_a_json_list_cell_and_never_changes_the_old_state():
    game = position({(4, 4): ("A", 3), (4, 5): ("B", 2), (0, 0): ("B", 1)})
    before = game.to_dict()
    new, _ = game.play([4, 4])
    assert game.to_dict() == before and game.board[(4, 4)] == ("A", 3)
    assert new.board[(4, 5)] == ("A", 3)


# --- the seed's examples (section 8) ----------------------------------------------------------

def test_example_1_a_single_explosion_makes_four_level_one_pieces():
    # C is the third column: (C,3) = (2,3); a B piece far away keeps the game going.
    game = position({(2, 3): ("A", 3), (8, 8): ("B", 1)})
    new, events = game.play((2, 3))
    assert new.board == {(2, 4): ("A", 1), (2, 2): ("A", 1), (1, 3): ("A", 1), (3, 3): ("A", 1),
                         (8, 8): ("B", 1)}
    assert events[1:] == [
        Exploded(5, "A", 1, 9, 9, (((2, 3), 4),)),
        Drops(5, "A", 1, (((1, 3), 1, 1), ((2, 2), 1, 1), ((2, 4), 1, 1), ((3, 3), 1, 1))),
    ]
    assert events[1].text() == \
        "[Chain reaction, wave 1] A_4_(2,3) exploded -> drops to (2,4), (2,2), (1,3), (3,3)"
    assert new.to_move == "B"


def test_example_2_a_drop_captures_an_opponent_piece_and_adds_its_level():
    game = position({(2, 3): ("A", 3), (2, 2): ("B", 2), (8, 8): ("B", 1)})
    new, events = game.play((2, 3))
    assert new.board[(2, 2)] == ("A", 3)
    captured = [e for e in events if isinstance(e, Captured)]
    assert captured == [Captured(5, "A", 1, (((2, 2), 1, "B", 2, 3),))]
    assert captured[0].text() == \
        "[Chain reaction, wave 1] B_2_(2,2) got 1 drop -> became A_3_(2,2) (colour changed)"


def test_example_3_a_deep_chain_runs_wave_after_wave():
    # C_3_(E,5), C_3_(E,6), C_1_(D,5): E = 4, D = 3.
    game = position({(4, 5): ("C", 3), (4, 6): ("C", 3), (3, 5): ("C", 1), (0, 0): ("A", 1)},
                    order=("C", "A"), to_move="C")
    new, events = game.play((4, 5))
    assert new.board == {
        (4, 4): ("C", 1), (3, 5): ("C", 2), (5, 5): ("C", 1),              # wave 1
        (4, 5): ("C", 1), (4, 7): ("C", 1), (3, 6): ("C", 1), (5, 6): ("C", 1),  # wave 2
        (0, 0): ("A", 1),
    }
    assert [(e.wave, e.pieces) for e in events if isinstance(e, Exploded)] == [
        (1, (((4, 5), 4),)), (2, (((4, 6), 4),))]
    assert kinds(events) == ["upgraded", "exploded", "drops", "exploded", "drops"]
    assert [line for e in events for line in e.text().split("\n")] == [
        "[Round 5, player C] C_3_(4,5) -> level 4",
        "[Chain reaction, wave 1] C_4_(4,5) exploded -> drops to (4,6), (4,4), (3,5), (5,5)",
        "[Chain reaction, wave 1] C_1_(3,5) got 1 drop -> C_2_(3,5)",
        "[Chain reaction, wave 1] (4,4) got 1 drop -> C_1_(4,4)",
        "[Chain reaction, wave 1] C_3_(4,6) got 1 drop -> C_4_(4,6)",
        "[Chain reaction, wave 1] (5,5) got 1 drop -> C_1_(5,5)",
        "[Chain reaction, wave 2] C_4_(4,6) exploded -> drops to (4,7), (4,5), (3,6), (5,6)",
        "[Chain reaction, wave 2] (3,6) got 1 drop -> C_1_(3,6)",
        "[Chain reaction, wave 2] (4,5) got 1 drop -> C_1_(4,5)",
        "[Chain reaction, wave 2] (4,7) got 1 drop -> C_1_(4,7)",
        "[Chain reaction, wave 2] (5,6) got 1 drop -> C_1_(5,6)",
    ]


def test_the_upgrade_line_reads_like_the_seeds_log():
    _, events = position({(5, 3): ("A", 2), (0, 0): ("B", 1)}, round=3).play((5, 3))
    assert events[0].text() == "[Round 3, player A] A_2_(5,3) -> level 3"


# --- edges, k drops, big levels -----------------------------------------------------------------

@pytest.mark.parametrize(("cell", "targets"), [
    ((0, 0), ((0, 1), (1, 0))),
    ((8, 8), ((8, 7), (7, 8))),
    ((0, 8), ((0, 7), (1, 8))),
    ((8, 0), ((8, 1), (7, 0))),
    ((4, 0), ((4, 1), (3, 0), (5, 0))),
    ((0, 4), ((0, 5), (0, 3), (1, 4))),
])
def test_drops_off_the_board_are_lost_at_corners_and_edges(cell, targets):
    game = position({cell: ("A", 3), (4, 4): ("B", 1)})
    new, events = game.play(cell)
    assert {cell for cell, _, _ in events[2].landings} == set(targets)
    assert events[1].text().endswith("drops to " + ", ".join(f"({x},{y})" for x, y in targets))
    assert {c for c, (owner, _) in new.board.items() if owner == "A"} == set(targets)
    assert sum(level for _, level in new.board.values()) == len(targets) + 1


def test_k_drops_on_an_empty_cell_make_a_piece_of_level_k():
    # (2,2) explodes in wave 1; (1,2) and (3,2) both reach 4 and explode in wave 2, and both
    # throw a drop into (2,2), emptied in wave 1: it becomes A_2 (seed 4.5).
    game = position({(2, 2): ("A", 3), (1, 2): ("A", 3), (3, 2): ("A", 3), (8, 8): ("B", 1)})
    new, events = game.play((2, 2))
    assert new.board[(2, 2)] == ("A", 2)
    (wave2,) = [e for e in events if isinstance(e, Drops) and e.wave == 2]
    assert ((2, 2), 2, 2) in wave2.landings
    assert "[Chain reaction, wave 2] (2,2) got 2 drops -> A_2_(2,2)" in wave2.lines()


def test_a_plus_shaped_chain_sums_drops_captures_with_several_and_explodes_big_pieces_once():
    # wave 1: (4,4) explodes; its four neighbours (A_3) reach 4.
    # wave 2: they explode together; (4,4), emptied in wave 1, gets 4 drops -> A_4; B_3 on (3,5)
    #         gets 2 drops -> captured as A_5; B_2 on (3,3) gets 2 -> A_4.
    # wave 3: (3,3), (3,5) and (4,4) explode, each once with its four drops.
    arm = {(4, 5): ("A", 3), (4, 3): ("A", 3), (3, 4): ("A", 3), (5, 4): ("A", 3)}
    game = position({(4, 4): ("A", 3), **arm, (3, 5): ("B", 3), (3, 3): ("B", 2), (8, 8): ("B", 1)})
    new, events = game.play((4, 4))
    (drops2,) = [e for e in events if isinstance(e, Drops) and e.wave == 2]
    assert ((4, 4), 4, 4) in drops2.landings
    assert [e for e in events if isinstance(e, Captured)] == [
        Captured(5, "A", 2, (((3, 3), 2, "B", 2, 4), ((3, 5), 2, "B", 3, 5)))]
    exploded = [(e.wave, e.pieces) for e in events if isinstance(e, Exploded)]
    assert exploded == [
        (1, (((4, 4), 4),)),
        (2, (((3, 4), 4), ((4, 3), 4), ((4, 5), 4), ((5, 4), 4))),
        (3, (((3, 3), 4), ((3, 5), 5), ((4, 4), 4))),
    ]
    assert "[Chain reaction, wave 3] A_5_(3,5) exploded -> drops to (3,6), (3,4), (2,5), (4,5)" in \
        [line for e in events for line in e.lines()]
    # wave 3's drops: (3,4) gets 3 (from (3,3), (3,5), (4,4)), (4,3) 2, (4,5) 2, (5,4) 1
    assert [new.board[c] for c in ((3, 4), (4, 3), (4, 5), (5, 4))] == \
        [("A", 3), ("A", 2), ("A", 2), ("A", 1)]
    assert all(level < 4 for _, level in new.board.values())
    # levels: 21 on the board, +1 by the upgrade, -1 when A_5 explodes as a 4; no drop left the board
    assert sum(lv for _, lv in game.board.values()) == 21
    assert sum(lv for _, lv in new.board.values()) == 21


def test_every_piece_at_four_explodes_in_the_same_wave():
    game = position({(4, 4): ("A", 3), (4, 5): ("A", 3), (4, 3): ("A", 3), (3, 4): ("A", 3),
                     (5, 4): ("A", 3), (8, 8): ("B", 1)})
    _, events = game.play((4, 4))
    waves = {e.wave: [cell for cell, _ in e.pieces] for e in events if isinstance(e, Exploded)}
    assert waves[1] == [(4, 4)]
    assert waves[2] == [(3, 4), (4, 3), (4, 5), (5, 4)]


# --- victory, elimination, turn order --------------------------------------------------------------

def test_capturing_the_last_opponent_piece_wins_and_ends_the_chain_in_that_wave():
    # wave 1 captures B's only piece and also brings (4,5) to 4: the chain stops there.
    game = position({(4, 4): ("A", 3), (4, 5): ("A", 3), (4, 3): ("B", 1)})
    new, events = game.play((4, 4))
    assert events[-1] == Won(5, "A", 1)
    assert events[-1].text() == "[Round 5] player A wins: only A is left on the board"
    assert (new.winner, new.to_move) == ("A", None)
    assert new.board[(4, 5)] == ("A", 4)  # left unexploded: the move ended with the win
    assert not any(isinstance(e, Exploded) and e.wave == 2 for e in events)
    assert new.legal_moves() == ()


def test_a_player_without_pieces_at_the_start_of_their_turn_is_out_and_skipped():
    # B loses its only piece to A's chain; C still has one. B is out when its turn comes.
    game = position({(4, 4): ("A", 3), (4, 3): ("B", 1), (0, 0): ("C", 1)}, order=("A", "B", "C"))
    new, events = game.play((4, 4))
    assert events[-1] == Eliminated(5, "B")
    assert events[-1].text() == "[Round 5] player B has no piece left and is out"
    assert (new.to_move, new.eliminated, new.round, new.winner) == ("C", ("B",), 5, None)
    after_c, _ = new.play((0, 0))
    assert (after_c.to_move, after_c.round) == ("A", 6)
    after_a, events = after_c.play((4, 5))
    assert (after_a.to_move, after_a.round) == ("C", 6)
    assert not any(isinstance(e, Eliminated) for e in events)


def test_elimination_is_checked_in_the_round_of_the_turn_that_would_have_come():
    # order C, A, B: A's chain (the last player is B, then a new round starts with C)
    game = position({(4, 4): ("A", 3), (4, 3): ("B", 1), (0, 0): ("C", 1)}, order=("C", "A", "B"))
    new, events = game.play((4, 4))
    assert events[-1] == Eliminated(5, "B")
    assert (new.to_move, new.round) == ("C", 6)


def test_a_chain_can_eliminate_several_players_at_once():
    game = position({(4, 4): ("A", 3), (4, 3): ("B", 1), (4, 5): ("C", 1), (0, 0): ("D", 1)},
                    order=("A", "B", "C", "D"))
    new, events = game.play((4, 4))
    assert [e for e in events if isinstance(e, Eliminated)] == [Eliminated(5, "B"), Eliminated(5, "C")]
    assert (new.to_move, new.eliminated) == ("D", ("B", "C"))


# --- skipped turns (deadlines of hosted matches) ---------------------------------------------------

def test_a_skipped_placement_leaves_the_player_without_a_piece_and_out_in_round_two():
    game = new_game(5, 5, ("A", "B", "C"), random.Random(2))
    _first, second, third = game.order
    game, _ = game.play((0, 0))
    game, events = game.skip()
    assert events == [Skipped(1, second)]
    game, _ = game.play((4, 4))
    game, _ = game.play((0, 0))  # round 2, the first player
    assert game.to_move == third
    assert game.eliminated == (second,)


def test_with_two_players_a_skipped_placement_hands_the_other_the_win():
    game = new_game(5, 5, ("A", "B"), random.Random(2))
    first, second = game.order
    game, _ = game.play((2, 2))
    game, events = game.skip()
    assert events == [Skipped(1, second), Won(2, first, 0)]
    assert (game.winner, game.to_move) == (first, None)


def test_if_nobody_places_in_round_one_placement_starts_over():
    game = new_game(5, 5, ("A", "B"), random.Random(2))
    game, _ = game.skip()
    game, _ = game.skip()
    assert (game.round, game.to_move, game.turn) == (1, game.order[0], 2)
    game, _ = game.play((1, 1))
    assert game.round == 1


def test_skipping_a_later_turn_changes_nothing_but_the_turn():
    game = position({(4, 4): ("A", 3), (0, 0): ("B", 1)})
    new, events = game.skip()
    assert events == [Skipped(5, "A")]
    assert (new.board, new.to_move, new.turn) == (game.board, "B", 1)


# --- JSON ----------------------------------------------------------------------------------------

def test_the_state_round_trips_through_json():
    game = new_game(6, 7, ("red", "blue", "green"), random.Random(4))
    rng = random.Random(9)
    for _ in range(40):
        if game.winner:
            break
        game, _ = game.play(rng.choice(game.legal_moves()))
        restored = game_from_dict(json.loads(json.dumps(game.to_dict())))
        assert restored == game


@pytest.mark.parametrize("broken", [
    {}, {"version": 2}, {"board": "x"}, {"width": 4}, {"board": [[99, 0, "A", 1]]},
    {"board": [[0, 0, "Z", 1]]}, {"winner": "A"}, {"to_move": "Q"}, {"order": ["A"]},
])
def test_a_broken_state_is_refused(broken):
    data = {**position({(0, 0): ("A", 1)}).to_dict(), **broken} if broken else {}
    with pytest.raises(InvalidSetup):
        Game.from_dict(data)


def test_every_event_round_trips_through_json_and_carries_its_text():
    game = position({(4, 4): ("A", 3), (4, 5): ("A", 3), (4, 3): ("B", 1)})
    _, events = game.play((4, 4))
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        assert data["text"] == event.text()
        assert event_from_dict(data) == event


def test_a_wave_of_many_pieces_logs_the_first_lines_and_counts_the_rest():
    wave = Exploded(9, "A", 3, 50, 50, tuple(((x, 7), 4) for x in range(TEXT_LINES + 5)))
    lines = wave.text().split("\n")
    assert len(wave.lines()) == TEXT_LINES + 5
    assert lines[:TEXT_LINES] == wave.lines()[:TEXT_LINES]
    assert lines[-1] == "... and 5 more"
