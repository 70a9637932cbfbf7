"""The paper labyrinth's bots (paper_labyrinth/engine/bots.py) play whole games of both variants through
the adapter: always an allowed action, the same seed gives the same game, and ``explorer`` carries the true
treasure out far more often than ``random``."""
from __future__ import annotations

import random

from paper_labyrinth.engine.bots import explorer
from paper_labyrinth.mode import PaperLabyrinthMode
from tests.matches.bot_games import play_bots

MODE = PaperLabyrinthMode()


def settings(variant: str, **changed: object) -> dict[str, object]:
    """A map generated from the seed (no database), calm enough (``nstop``) for a treasure to come out."""
    return {**MODE.default_settings(), "variant": variant, "nstop": 100, **changed}


def test_the_mode_offers_random_and_explorer() -> None:
    assert MODE.bots == ("random", "explorer")


def test_bots_play_whole_games_to_an_end_under_many_seeds() -> None:
    for seed in range(12):
        seats = 2 + seed % 4
        levels = [("explorer", "random")[(seed + i) % 2] for i in range(seats)]
        chosen = settings(("classic", "quantum")[seed % 2], starts=("chosen", "random")[seed // 2 % 2])
        assert play_bots(MODE, chosen, levels, seed).outcome is not None


def test_the_same_seed_plays_the_same_game() -> None:
    for variant in ("classic", "quantum"):
        levels = ["explorer", "random", "explorer"]
        assert play_bots(MODE, settings(variant), levels, 4) == play_bots(MODE, settings(variant), levels, 4)


def test_the_explorer_carries_the_treasure_out_far_more_often_than_random() -> None:
    carried = {"explorer": 0, "random": 0}
    won = {"explorer": 0, "random": 0}
    for variant in ("classic", "quantum"):
        for seed in range(12):
            levels = ["explorer", "random"] if seed % 2 else ["random", "explorer"]
            game = play_bots(MODE, settings(variant), levels, seed)
            for seat, level in enumerate(levels):
                carried[level] += game.won_by(seat, "treasure_carried_out")
                won[level] += game.won_by(seat)
    # measured over the 24 games: the true treasure carried out 8 times to 0; games won 19 to 3
    assert carried["explorer"] >= 3 * carried["random"] + 4
    assert won["explorer"] >= 3 * won["random"] + 4


def test_out_of_the_labyrinth_the_explorer_steps_back_in() -> None:
    # given: the explorer stepped LEFT out of the labyrinth (the game master said so)
    view = {"phase": "playing", "number": 1, "outline": [[True, True]], "status": {"outside": True},
            "variant": "classic"}
    allowed = [{"type": "turn", "steps": [{"do": "move", "direction": d}]}
               for d in ("UP", "LEFT", "DOWN", "RIGHT")]
    _, notes = explorer(view, allowed, None, random.Random(0))
    notes = {**notes, "last": "LEFT"}
    told = [{"kind": "gm", "number": 1, "code": "exited", "data": {}}]
    # when / then: it walks back RIGHT, whatever its draws
    for seed in range(5):
        action, _ = explorer(view, allowed, notes, random.Random(seed), told)
        assert action == {"type": "turn", "steps": [{"do": "move", "direction": "RIGHT"}]}
