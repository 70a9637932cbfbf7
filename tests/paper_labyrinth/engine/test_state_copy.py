"""``GameState.copy`` (each ``rules.apply`` copies its argument) is a deep copy written out by hand: over
bot games with corpses, carried slots, ticks and blown walls it equals ``copy.deepcopy`` and shares no
mutable object (list, dict, set, non-frozen dataclass) with the original but the map, the options and
the last answers' messages (frozen; ``rules.apply`` also returns them to the caller: their data is
never changed once said), so a new field the copy forgets fails here."""
from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator

import pytest

from paper_labyrinth.engine import rules
from paper_labyrinth.engine.bot import random_request
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.requests import Options
from paper_labyrinth.engine.state import GameState
from tests.paper_labyrinth.engine.rules_boards import answered


def mutable_parts(value: object, skip: set[int]) -> Iterator[object]:
    """Every mutable object reachable from ``value`` (the objects whose ids are in ``skip`` left out)."""
    seen: set[int] = set()
    todo = [value]
    while todo:
        here = todo.pop()
        if id(here) in skip or id(here) in seen:
            continue
        seen.add(id(here))
        if isinstance(here, dict):
            yield here
            todo.extend(here.keys())
            todo.extend(here.values())
        elif isinstance(here, (list, set)):
            yield here
            todo.extend(here)
        elif isinstance(here, (tuple, frozenset)):
            todo.extend(here)
        elif dataclasses.is_dataclass(here) and not isinstance(here, type):
            if not type(here).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                yield here
            todo.extend(getattr(here, f.name) for f in dataclasses.fields(here))


def states(variant: str, seed: int) -> Iterator[GameState]:
    rng = random.Random(seed)
    m = generate_paper_map(rng, 4, 5, 4, variant)
    starts = [rng.choice(sorted(m.cells)) for _ in range(4)]
    options = Options.for_variant(variant, starting_mines=1)  # type: ignore[arg-type]
    state = rules.new_game(m, options, 4, starts, rng)
    for _ in range(300):
        yield state
        seat = rules.whose_turn(state)
        if seat is None:
            return
        state, _ = answered(rules.apply(state, seat, random_request(state, seat, rng), rng))


@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_the_copy_is_a_deep_copy_sharing_nothing_mutable(variant: str) -> None:
    seen_corpses = seen_slots = seen_ticks = False
    for seed in range(6):
        for state in states(variant, seed):
            twin = state.copy()
            assert twin == state == copy.deepcopy(state)
            assert twin.map is state.map and twin.options is state.options
            said = {id(m) for msgs in state.last.values() for m in msgs}
            assert said == {id(m) for msgs in twin.last.values() for m in msgs}
            skip = {id(state.map), id(state.options), *said}
            ours = {id(part) for part in mutable_parts(state, skip)}
            assert not [part for part in mutable_parts(twin, skip) if id(part) in ours]
            seen_corpses = seen_corpses or any(p.corpses for p in state.piles.values())
            seen_slots = seen_slots or any(p.slot is not None for p in state.players)
            seen_ticks = seen_ticks or bool(state.ticks)
    assert seen_corpses and seen_slots and seen_ticks, "the games reached corpses, carried items and ticks"
