"""The pure random bot (paper_labyrinth/engine/bot.py) over many generated maps: every request it
draws is accepted, and no game breaks an invariant (one true treasure, carry limits, nobody off the
map), from the first turn to the end."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paper_labyrinth.engine import rules
from paper_labyrinth.engine.bot import random_request
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.requests import Options
from paper_labyrinth.engine.state import CARRY_MAX, GameState, state_from_json, state_to_json
from tests.paper_labyrinth.engine.rules_boards import answered

MAX_TURNS = 5000


def true_treasures(state: GameState) -> int:
    lying = sum(t for pile in state.piles.values() for t in pile.treasures)
    carried = sum(1 for p in state.players
                  if p.slot is not None and p.slot.kind == "treasure" and p.slot.true)
    return lying + carried


def check_invariants(state: GameState) -> None:
    over = rules.outcome(state)
    count = true_treasures(state)
    if over is None:
        assert count == 1, "exactly one true treasure while the game goes on"
    else:
        assert count <= 1
        if count == 0:  # it left the labyrinth: carried out (a win) or thrown out (a draw)
            assert over.reason in ("treasure", "treasure_out"), over
    for p in state.players:
        assert p.pos in state.map.cells, f"player {p.seat} off the map at {p.pos}"
        assert 0 <= p.bullets <= CARRY_MAX and 0 <= p.grenades <= CARRY_MAX, p
        if p.health == "dead" or p.eliminated:
            assert p.bullets == 0 and p.grenades == 0 and p.slot is None, p
        if p.health == "wounded" and state.options.variant == "classic":
            assert p.bullets == 0 and p.slot is None, "a wounded player carries only grenades (C§5.5)"
        if p.health == "sick":
            assert p.slot is None, "a sick player carries no slot item (C§4.7)"
    for pos, pile in state.piles.items():
        assert pos in state.map.cells
        assert min(pile.bullets, pile.grenades, pile.mines, pile.armed) >= 0


def play(seed: int, variant: str, players: int, rows: int, cols: int) -> GameState:
    rng = random.Random(seed)
    m = generate_paper_map(rng, rows, cols, players, variant, cut_corners=rng.random() < 0.3)
    options = Options.for_variant(variant, starting_mines=rng.randrange(2))  # type: ignore[arg-type]
    starts = [rng.choice(sorted(m.cells)) for _ in range(players)]
    state = rules.new_game(m, options, players, starts, rng)
    check_invariants(state)
    for _ in range(MAX_TURNS):
        seat = rules.whose_turn(state)
        if seat is None:
            return state
        request = random_request(state, seat, rng)
        state, messages = answered(rules.apply(state, seat, request, rng))  # a refusal here fails the test
        for message in messages:
            json.dumps(message.to_json())
        check_invariants(state)
    raise AssertionError(f"no end in {MAX_TURNS} turns")


@pytest.mark.parametrize("variant", ["classic", "quantum"])
@pytest.mark.parametrize("seed", range(40))
def test_the_bot_plays_generated_maps_to_the_end_without_breaking_an_invariant(variant: str,
                                                                               seed: int) -> None:
    rng = random.Random(seed)
    final = play(seed, variant, players=rng.randint(2, 5), rows=rng.randint(3, 6), cols=rng.randint(3, 6))
    assert rules.outcome(final) is not None
    saved = state_to_json(final)
    assert state_to_json(state_from_json(json.loads(json.dumps(saved)))) == saved


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["classic", "quantum"]),
       players=st.integers(2, 5), rows=st.integers(3, 7), cols=st.integers(3, 7))
def test_any_generated_game_keeps_the_invariants(seed: int, variant: str, players: int, rows: int,
                                                 cols: int) -> None:
    assert rules.outcome(play(seed, variant, players, rows, cols)) is not None
