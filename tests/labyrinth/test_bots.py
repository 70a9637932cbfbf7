"""The console labyrinth's bots (labyrinth/engine/bots.py) play whole games through the adapter: always an
allowed command, the same seed gives the same game, ``explorer`` reads only its seat's view and answers and
gets out far more often and sooner than ``random``."""
from __future__ import annotations

import ast
import random
from pathlib import Path

from labyrinth.engine.bots import explorer
from labyrinth.mode import LabyrinthConsoleMode
from tests.matches.bot_games import median_steps, play_bots

MODE = LabyrinthConsoleMode()
ROOT = Path(__file__).resolve().parents[2]


def settings(**changed: object) -> dict[str, object]:
    """A generated map (no database): the lobby's settings with the generator's defaults frozen in."""
    return {"map": None, "rows": 8, "cols": 8, "max_turns": 2000, "start_positions": "random",
            "generator": None, **changed}


def test_the_mode_offers_random_and_explorer() -> None:
    assert MODE.bots == ("random", "explorer")


def test_bots_play_whole_games_to_an_end_under_many_seeds() -> None:
    for seed in range(10):
        levels = [("explorer", "random")[(seed + i) % 2] for i in range(1 + seed % 3)]
        chosen = settings(max_turns=300, start_positions=("random", "chosen")[seed % 2])
        game = play_bots(MODE, chosen, levels, seed)
        assert game.outcome is not None and game.outcome.reason in ("exit_reached", "turn_limit")


def test_the_same_seed_plays_the_same_game() -> None:
    levels = ["explorer", "random", "explorer"]
    short = settings(max_turns=300)
    assert play_bots(MODE, short, levels, 3) == play_bots(MODE, short, levels, 3)


def test_alone_the_explorer_gets_out_more_often_and_sooner_than_random() -> None:
    # given: 12 maps, 1,000 turns each to get out
    explorers = [play_bots(MODE, settings(max_turns=1000), ["explorer"], seed) for seed in range(12)]
    randoms = [play_bots(MODE, settings(max_turns=1000), ["random"], seed) for seed in range(12)]
    out = sum(game.won_by(0) for game in explorers)
    # then (measured: the explorer got out of all 12, median 188.5 actions; random of 4, median 2,401.5)
    assert out >= 10 and out >= sum(game.won_by(0) for game in randoms) + 4
    assert median_steps(explorers) * 5 < median_steps(randoms)


def test_the_explorer_beats_random_head_to_head() -> None:
    wins = {"explorer": 0, "random": 0}
    for seed in range(16):
        levels = ["explorer", "random"] if seed % 2 else ["random", "explorer"]
        game = play_bots(MODE, settings(), levels, seed)
        for seat, level in enumerate(levels):
            wins[level] += game.won_by(seat)
    # measured: 12 to 4 (random wins when the explorer's notebook is wrong or it is shot)
    assert wins["explorer"] >= 2 * wins["random"] + 2


def test_two_worlds_that_show_the_explorer_the_same_give_the_same_choice() -> None:
    # given: two games on different maps of one size; the seat sees the same view (no position, no map)
    first = MODE.create(settings=settings(), seats=1, rng=random.Random(1))
    second = MODE.create(settings=settings(), seats=1, rng=random.Random(2))
    assert first.map_text != second.map_text and MODE.view(first, 0) == MODE.view(second, 0)
    # when: the explorer is asked in both with the same draws, then told the same answer
    choices = [explorer(MODE.view(s, 0), MODE.legal_actions(s, 0), None, random.Random(5))
               for s in (first, second)]
    # then: the same command and the same notebook
    assert choices[0] == choices[1]
    told = [{"kind": "wall"}]
    again = [explorer(MODE.view(s, 0), MODE.legal_actions(s, 0), choices[0][1], random.Random(6), told)
             for s in (first, second)]
    assert again[0] == again[1]


def test_the_sensible_bots_cannot_import_the_state_they_must_not_read() -> None:
    # the labyrinths' explorers know only the shared bot shape and the notebook: no game, map or rules module
    allowed = {"__future__", "collections", "collections.abc", "random", "typing", "gamekit.bots",
               "labyrinth.engine.notebook"}
    for path in ("labyrinth/engine/bots.py", "paper_labyrinth/engine/bots.py", "roguelike/engine/bots.py",
                 "labyrinth/engine/notebook.py"):
        tree = ast.parse((ROOT / path).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        assert imported <= allowed, (path, imported - allowed)
