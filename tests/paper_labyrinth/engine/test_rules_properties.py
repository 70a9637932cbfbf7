"""Property tests of seed 002's rules: random well-formed requests on the example maps never break an
invariant, the state's JSON round trip is lossless, and the same requests give the same game."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit.results import Impossible
from labyrinth.engine.grid import DIRECTIONS
from paper_labyrinth.engine.examples import EXAMPLES
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.model import CellType, PaperMap
from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Cycle,
    Downstream,
    Grenade,
    Item,
    Move,
    Options,
    PlaceMine,
    Reorder,
    Repeat,
    Shoot,
    Skip,
    Status,
    Step,
    Throw,
    Turn,
    Visibility,
)
from paper_labyrinth.engine.rules import apply, can_reorder, new_game, timeout, whose_turn
from paper_labyrinth.engine.state import GameState, state_from_json, state_to_json

PUBLIC_KEYS = {"cell", "drift", "found", "treasures", "bullets", "grenades", "mines", "corpses", "scream",
               "fell", "underfoot", "wounded", "killed", "result", "item", "reason", "condition", "met",
               "reorder", "cure_left", "of", "health", "immune", "slot", "reorders_left", "may_reorder",
               "outside", "eliminated", "calm_rounds", "nstop", "problem", "cause"}
"""Every key a message's data may have: counts and kinds, never a position (``problem`` and ``cause``: the
codes of why an action did nothing and of a death, which the text says)."""


def random_action(rng: random.Random, quantum: bool) -> Step:
    d = rng.choice(DIRECTIONS)
    kind = rng.randrange(4)
    if kind == 0:
        return Shoot(rng.choice([*DIRECTIONS, None]) if quantum else d)
    if kind == 1:
        return Grenade(d)
    if kind == 2:
        return Throw(rng.choice(list(Item)), rng.choice([d, None]))
    return PlaceMine(rng.choice([d, None]))


def random_turn(rng: random.Random, state: GameState, seat: int) -> Turn:
    quantum = state.options.variant == "quantum"
    p = state.players[seat]
    movement: Step = rng.choice([Move(rng.choice(DIRECTIONS))] * 6 + [Downstream(), Cycle()])
    if p.outside is not None and rng.random() < 0.8:
        movement = Move(p.outside.opposite)
    if quantum:
        steps: tuple[Step, ...] = (rng.choice([movement, movement, random_action(rng, True), Skip()]),)
    elif rng.random() < 0.05:
        steps = (Skip(),)
    else:
        before = [] if p.outside is not None else [random_action(rng, False) for _ in range(rng.randrange(3))]
        after: list[Step] = [random_action(rng, False) for _ in range(rng.randrange(3))]
        if after and rng.random() < 0.3:
            after = [Conditional(rng.choice(list(Condition)), tuple(after))]
        steps = (*before, movement, *after)
    visibility = rng.choice([Visibility.NORMAL] * 6 + [Visibility.DARK, Visibility.HALF_DARK])
    reorder = None
    if can_reorder(state, seat) and rng.random() < 0.5:
        reorder = Reorder(rng.choice(sorted(state.map.cells)))
    return Turn(steps=steps, visibility=visibility, reorder=reorder,
                treasure=rng.choice([None, None, 0, 1, 2]), refill=rng.random() < 0.9)


def check_invariants(state: GameState) -> None:
    m = state.map
    true_count = sum(t for pile in state.piles.values() for t in pile.treasures)
    true_count += sum(1 for p in state.players
                      if p.slot is not None and p.slot.kind == "treasure" and p.slot.true)
    if state.result is not None and state.result.reason in ("treasure", "treasure_out"):
        assert true_count == 0
    else:
        assert true_count == 1
    for p in state.players:
        assert p.pos in m.cells
        assert 0 <= p.bullets <= 3 and 0 <= p.grenades <= 3
        if p.health != "healthy":
            assert p.slot is None
        if p.health == "dead" or p.eliminated:
            assert p.bullets == p.grenades == 0 and p.slot is None
        if p.health in ("wounded", "sick") and state.options.variant == "classic":
            assert p.bullets == 0
        if p.outside is not None:
            assert state.outer[(p.pos, p.outside)].value == "open_exit"
        assert p.reorders_left >= 0
    for pos, pile in state.piles.items():
        assert pos in m.cells
        assert min(pile.bullets, pile.grenades, pile.mines, pile.armed) >= 0
        assert not pile.empty()
    assert (state.result is None) == (whose_turn(state) is not None)
    if state.result is None:
        assert state.players[state.current or 0].in_game


def check_arsenal_kit(state: GameState, seat: int, turn: Turn) -> None:
    """A turn that ends in an arsenal ends with a full kit unless the refill was declined (C§4.3,
    §5.3, Q§5.3): what was spent there was replaced at once. A classic wounded or sick player gets
    grenades only (conflict 4)."""
    p = state.players[seat]
    if not turn.refill or not p.in_game or p.outside is not None:
        return
    if state.map.cells[p.pos] is not CellType.ARSENAL:
        return
    assert p.grenades == 3, p
    if p.health == "healthy" or state.options.variant == "quantum":
        assert p.bullets == 3, p


def run_game(seed: int, name: str | PaperMap, variant: str, players: int, turns: int
             ) -> tuple[GameState, list[object]]:
    rng = random.Random(seed)
    m = EXAMPLES[name] if isinstance(name, str) else name
    options = Options.for_variant(variant, cure_time=rng.choice([None, 2, 5]),  # type: ignore[arg-type]
                                  starting_mines=rng.choice([0, 1]), nstop=rng.choice([None, 3, 40]))
    cells = sorted(m.cells)
    state = new_game(m, options, players, [rng.choice(cells) for _ in range(players)], random.Random(seed))
    log: list[object] = []
    for _ in range(turns):
        seat = whose_turn(state)
        if seat is None:
            break
        if rng.random() < 0.02:
            state, msgs = timeout(state, seat)
        else:
            if rng.random() < 0.05:
                asked = apply(state, seat, rng.choice([Status(), Repeat(rng.randrange(players))]))
                assert not isinstance(asked, Impossible) and asked.state is state and asked.events
            request = random_turn(rng, state, seat)
            before = json.dumps(state_to_json(state), sort_keys=True)
            answer = apply(state, seat, request, random.Random(seed))
            if isinstance(answer, Impossible):
                assert json.dumps(state_to_json(state), sort_keys=True) == before  # nothing changed
                log.append(("refused", answer.code))
                continue
            state, msgs = answer.state, list(answer.events)
            check_arsenal_kit(state, seat, request)
        for message in msgs:
            assert set(message.data) <= PUBLIC_KEYS, message
            json.dumps(message.to_json())
        log.append([message.to_json() for message in msgs])
        check_invariants(state)
    return state, log


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(EXAMPLES)),
       variant=st.sampled_from(["classic", "quantum"]), players=st.integers(2, 5))
def test_random_requests_never_break_an_invariant(seed: int, name: str, variant: str, players: int) -> None:
    run_game(seed, name, variant, players, 120)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), rows=st.integers(3, 6), cols=st.integers(3, 6),
       variant=st.sampled_from(["classic", "quantum"]), players=st.integers(2, 5))
def test_random_requests_on_generated_maps_never_break_an_invariant(
        seed: int, rows: int, cols: int, variant: str, players: int) -> None:
    m = generate_paper_map(random.Random(seed), rows, cols, players, variant)
    run_game(seed, m, variant, players, 100)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(EXAMPLES)),
       variant=st.sampled_from(["classic", "quantum"]))
def test_state_json_round_trip_is_lossless(seed: int, name: str, variant: str) -> None:
    state, _ = run_game(seed, name, variant, 3, 40)
    data = state_to_json(state)
    again = state_from_json(json.loads(json.dumps(data)))
    assert again == state
    assert state_to_json(again) == data


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["classic", "quantum"]))
def test_same_seed_same_game(seed: int, variant: str) -> None:
    first, log1 = run_game(seed, "SMALL_CLASSIC", variant, 4, 60)
    second, log2 = run_game(seed, "SMALL_CLASSIC", variant, 4, 60)
    assert state_to_json(first) == state_to_json(second) and log1 == log2


def test_random_games_reach_every_kind_of_end() -> None:
    """Over many seeded random games, wins and draws of several kinds occur (the bot exercises them)."""
    reasons = set()
    for seed in range(60):
        name = ["SMALL_CLASSIC", "CUT_CORNERS"][seed % 2]
        state, _ = run_game(seed, name, ["classic", "quantum"][seed % 3 == 0], 2 + seed % 4, 200)
        if state.result is not None:
            reasons.add(state.result.reason)
    assert {"all_skip", "last_survivor", "nstop", "treasure", "treasure_on_source", "treasure_out"} <= reasons
