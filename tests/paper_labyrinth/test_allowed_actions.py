"""``allowed_actions`` lists only actions that can succeed now (SPEC 14): the quantum game listed throws of
items the player does not carry (and grenades, mines and shots without one), which the game master then
answered "Ничего не выйдет". Every listed action is applied here and must do what it says."""
from __future__ import annotations

import random

import pytest

from gamekit.results import Success
from matches.modes import rng_for
from paper_labyrinth.mode import PaperLabyrinthMode, PaperState

ADAPTER = PaperLabyrinthMode()
FAILED = {"nothing_doing", "no_bullets"}


def quantum_game(seed: int, players: int = 3) -> PaperState:
    settings = ADAPTER.validate_settings({**ADAPTER.default_settings(), "variant": "quantum",
                                          "starts": "random", "rows": 5, "cols": 5})
    assert isinstance(settings, dict)
    state = ADAPTER.create(settings=settings, seats=players, rng=rng_for(seed, 0))
    assert isinstance(state, PaperState)
    return state


@pytest.mark.parametrize("seed", range(6))
def test_every_listed_quantum_action_does_something(seed: int) -> None:
    state = quantum_game(seed)
    rng = random.Random(seed)
    throws_listed = 0
    for turn in range(1, 60):
        seat = ADAPTER.awaiting(state)
        if seat is None:
            break
        allowed = [a for a in ADAPTER.legal_actions(state, seat) if a["type"] == "turn"]
        assert allowed
        for action in allowed:
            moved = ADAPTER.apply(state, seat, action, rng_for(seed, turn))
            assert isinstance(moved, Success), action
            codes = {e.data.get("code") for e in moved.events}
            assert not codes & FAILED, (action, codes)
        throws_listed += sum(a["steps"][0]["do"] in ("throw", "leave") for a in allowed)
        step = ADAPTER.apply(state, seat, rng.choice(allowed), rng_for(seed, turn))
        assert isinstance(step, Success)
        state = step.state
    assert throws_listed, "a player carrying grenades and bullets may throw them"


def test_a_player_without_an_item_is_not_offered_to_throw_it() -> None:
    state = quantum_game(0)
    seat = ADAPTER.awaiting(state)
    assert seat is not None
    game = state.game
    assert game is not None
    player = game.players[state.engine_seat(seat)]
    carried = {"bullet": player.bullets > 0, "grenade": player.grenades > 0}
    steps = [a["steps"][0] for a in ADAPTER.legal_actions(state, seat) if a["type"] == "turn"]
    offered = {s["item"] for s in steps if s["do"] in ("throw", "leave")}
    pile = game.piles.get(player.pos)
    lying = {} if pile is None else {"bullet": pile.bullets, "grenade": pile.grenades, "mine": pile.mines,
                                     "treasure": len(pile.treasures), "corpse": len(pile.corpses)}
    slot = set() if player.slot is None else {player.slot.kind}
    expected = {item for item, has in carried.items() if has} | {k for k, n in lying.items() if n} | slot
    assert offered == expected
