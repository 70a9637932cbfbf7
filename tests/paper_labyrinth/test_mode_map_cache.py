"""The hosted mode's per-process cache of parsed maps (paper_labyrinth/mode.py, ``stored_map``) and the
shortcuts of ``state_from_json`` it allows: a cached map is used only for exactly its stored text,
a game's map only when its stored JSON is exactly that map's, and the parsed state is the same with
or without the shortcuts, turn after turn (grenades change walls and exits)."""
from __future__ import annotations

import json
import random

import pytest

from paper_labyrinth.engine import rules
from paper_labyrinth.engine.bot import random_request
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.mapformat import format_paper_map
from paper_labyrinth.engine.requests import Options
from paper_labyrinth.engine.state import map_from_json, map_to_json, state_from_json, state_to_json
from paper_labyrinth.mode import PaperLabyrinthMode, stored_map
from tests.paper_labyrinth.engine.rules_boards import answered

ADAPTER = PaperLabyrinthMode()


def started(variant: str, seed: int) -> dict:
    """A stored (JSON round-tripped) state of a generated 3-player match with random starts."""
    settings = ADAPTER.validate_settings({"variant": variant, "starts": "random"})
    state = ADAPTER.create(settings=settings, seats=3, rng=random.Random(seed))
    return json.loads(json.dumps(ADAPTER.state_to_json(state)))


@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_a_started_game_reads_the_cached_map_of_its_stored_text(variant: str) -> None:
    state = started(variant, 1)
    game = ADAPTER.state_from_json(state).game
    assert game is not None and game.map is stored_map(state["map"]).map
    assert game == state_from_json(state["game"])


def test_the_cache_is_keyed_by_the_exact_text() -> None:
    one, two = started("classic", 1), started("classic", 2)
    assert one["map"] != two["map"]
    assert stored_map(one["map"]).map != stored_map(two["map"]).map
    assert stored_map(one["map"]) is stored_map(one["map"])


def test_a_game_map_that_differs_from_the_stored_text_is_parsed_not_taken_from_the_cache() -> None:
    # given: a row whose game map is another map than its map text (edited by hand)
    state, other = started("classic", 1), started("classic", 2)
    edited = {**state, "game": {**state["game"], "map": other["game"]["map"]}}
    # then: the game's map is the one its JSON holds
    game = ADAPTER.state_from_json(edited).game
    assert game is not None
    assert game.map == map_from_json(other["game"]["map"]) != stored_map(state["map"]).map
    assert game == state_from_json(edited["game"])


def played_checking_the_parse(variant: str, seed: int) -> bool:
    """A bot game checking at every turn that the stored state parses alike with the known map or
    without; whether a grenade changed the walls or the exits."""
    rng = random.Random(seed)
    m = stored_map(format_paper_map(generate_paper_map(rng, 4, 5, 3, variant))).map
    starts = [rng.choice(sorted(m.cells)) for _ in range(3)]
    state = rules.new_game(m, Options.for_variant(variant), 3, starts, rng)  # type: ignore[arg-type]
    changed = False
    for _ in range(400):
        data = json.loads(json.dumps(state_to_json(state)))
        assert data["map"] == map_to_json(m)
        assert state_from_json(data, game_map=m) == state_from_json(data) == state
        changed = changed or data["walls"] != data["map"]["walls"] or data["outer"] != data["map"]["outer"]
        seat = rules.whose_turn(state)
        if seat is None:
            break
        state, _ = answered(rules.apply(state, seat, random_request(state, seat, rng), rng))
    return changed


@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_state_from_json_with_the_known_map_equals_a_full_parse_every_turn(variant: str) -> None:
    changed = [played_checking_the_parse(variant, seed) for seed in range(8)]
    assert any(changed), "some game blew a wall or opened an exit"
