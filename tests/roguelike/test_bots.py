"""The roguelike's bots (roguelike/engine/bots.py) play whole games through the adapter: always an allowed
action, the same seed gives the same game, and ``explorer`` carries the gold out in far fewer actions than
``random``."""
from __future__ import annotations

from roguelike.mode import RoguelikeMode
from tests.matches.bot_games import play_bots

MODE = RoguelikeMode()
SETTINGS = MODE.default_settings()  # seed null: a world drawn from the match seed (no server key)


def test_the_mode_offers_random_and_explorer() -> None:
    assert MODE.bots == ("random", "explorer")


def test_the_same_seed_plays_the_same_game() -> None:
    assert play_bots(MODE, SETTINGS, ["explorer"], 2) == play_bots(MODE, SETTINGS, ["explorer"], 2)


def test_the_explorer_carries_the_gold_out_sooner_than_random() -> None:
    # given: 10 worlds, 3,000 actions each at most
    explorers = [play_bots(MODE, SETTINGS, ["explorer"], seed, max_steps=3000) for seed in range(10)]
    randoms = [play_bots(MODE, SETTINGS, ["random"], seed, max_steps=3000) for seed in range(10)]
    # then: it wins at least as often, in far fewer actions (a game not won counts its 3,000)
    won = sum(game.won_by(0, "treasure_carried_out") for game in explorers)
    lucky = sum(game.won_by(0, "treasure_carried_out") for game in randoms)
    # measured: 10 wins in 2,133 actions in all; random 8 wins in 9,276 actions
    assert won >= lucky and won >= 8
    assert 2 * sum(len(game.steps) for game in explorers) < sum(len(game.steps) for game in randoms)
