"""Cell capture's bots (cell_capture/engine/bots.py) play whole games through the adapter: always an
allowed cell, the same seed gives the same game, and ``greedy`` beats ``random`` clearly."""
from __future__ import annotations

import random

from cell_capture.engine.bots import game_from_view, greedy
from cell_capture.mode import CellCaptureMode
from tests.matches.bot_games import play_bots

MODE = CellCaptureMode()
SMALL = {"width": 5, "height": 5}


def test_the_mode_offers_random_and_greedy() -> None:
    assert MODE.bots == ("random", "greedy")


def test_bots_play_whole_games_to_a_winner_under_many_seeds() -> None:
    for seed in range(12):
        levels = [("random", "greedy", "random")[(seed + i) % 3] for i in range(2 + seed % 3)]
        game = play_bots(MODE, SMALL, levels, seed)
        assert game.outcome is not None and game.outcome.reason == "won"


def test_the_same_seed_plays_the_same_game() -> None:
    assert play_bots(MODE, SMALL, ["greedy", "random"], 7) == play_bots(MODE, SMALL, ["greedy", "random"], 7)
    assert play_bots(MODE, SMALL, ["greedy", "random"], 7) != play_bots(MODE, SMALL, ["greedy", "random"], 8)


def test_greedy_beats_random_in_most_games() -> None:
    # given: 40 games on 6 x 6, greedy seated first in half of them and second in the others
    wins = 0
    for seed in range(40):
        greedy_seat = seed % 2
        levels = ["random", "random"]
        levels[greedy_seat] = "greedy"
        wins += play_bots(MODE, {"width": 6, "height": 6}, levels, seed).won_by(greedy_seat)
    # then: far more than the half a coin would win (measured: 33 of 40)
    assert wins >= 28


def test_greedy_takes_the_move_that_wins_now() -> None:
    # given: red to move, its level-3 piece next to blue's only piece: upgrading it explodes onto blue
    view = {"width": 5, "height": 5, "round": 3, "to_move": 0, "winner": None,
            "colours": {"0": "red", "1": "blue"}, "eliminated": [],
            "board": [{"x": 0, "y": 0, "seat": 0, "colour": "red", "level": 3},
                      {"x": 1, "y": 0, "seat": 1, "colour": "blue", "level": 1},
                      {"x": 4, "y": 4, "seat": 0, "colour": "red", "level": 1}]}
    allowed = [{"cell": [0, 0]}, {"cell": [4, 4]}]
    # when / then: whatever the draws, it plays (0, 0)
    for seed in range(5):
        assert greedy(view, allowed, None, random.Random(seed))[0] == {"cell": [0, 0]}
    assert game_from_view(view, 0).to_move == "red"
