"""Every registered mode keeps the adapter contract (DB-free, hypothesis): legal actions apply (those of
the awaited seat, and those a mode lists for other seats: out-of-turn actions such as a timer call),
states survive JSON, and replay(seed, steps) is the game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit.results import Impossible, Success
from matches.modes import get_mode, registered_modes, replay, rng_for

SMALL_SETTINGS = {"cell_capture": {"width": 5, "height": 5},
                  "labyrinth_console": {"rows": 3, "cols": 3}}
# A mode may read its admin data (labyrinth_console: the generator settings) when it validates settings.
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("mode", sorted(registered_modes()))
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    choices=st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=10_000)), max_size=60),
)
def test_the_adapter_contract_holds_along_any_game(mode: str, seed: int, choices: list[int | None]) -> None:
    adapter = get_mode(mode)
    assert adapter is not None
    game_settings = adapter.validate_settings({**adapter.default_settings(), **SMALL_SETTINGS.get(mode, {})})
    assert not isinstance(game_settings, Impossible)
    seats = min(max(adapter.min_players, 2), adapter.max_players)  # two where the mode allows it
    state = adapter.create(settings=game_settings, seats=seats, rng=rng_for(seed, 0))
    assert not isinstance(state, Impossible)
    assert sorted(adapter.turn_order(state)) == list(range(seats))
    steps: list[tuple[int, dict | None]] = []
    for turn, choice in enumerate(choices, start=1):
        awaited = adapter.awaiting(state)
        if awaited is None:
            assert adapter.outcome(state) is not None
            break
        assert adapter.outcome(state) is None
        out_of_turn = [(seat, action) for seat in sorted(set(range(seats)) - {awaited})
                       for action in adapter.legal_actions(state, seat)]
        for seat, action in out_of_turn:
            assert adapter.check_action(state, action) is None
            # a listed action is never refused
            assert isinstance(adapter.apply(state, seat, action, rng_for(seed, turn)), Success)
        legal = adapter.legal_actions(state, awaited)
        if choice is not None and choice % 7 == 6 and out_of_turn:
            seat, action = out_of_turn[choice % len(out_of_turn)]
            moved = adapter.apply(state, seat, action, rng_for(seed, turn))
            assert isinstance(moved, Success)
            state, events = moved.state, moved.events
            steps.append((seat, action))
        elif choice is None or not legal:
            timed_out = adapter.timeout(state, awaited, rng_for(seed, turn))
            state, events = timed_out.state, timed_out.events
            steps.append((awaited, None))
        else:
            action = json.loads(json.dumps(legal[choice % len(legal)]))  # as it travels over HTTP
            assert adapter.check_action(state, action) is None
            moved = adapter.apply(state, awaited, action, rng_for(seed, turn))
            if isinstance(moved, Impossible):  # pragma: no cover - a listed action must apply
                raise AssertionError(f"{mode}: legal action {action} refused: {moved}")
            state, events = moved.state, moved.events
            steps.append((awaited, action))
        for event in events:
            json.dumps(event.data)
            assert event.seats is None or event.seats <= set(range(seats))
        as_json = json.loads(json.dumps(adapter.state_to_json(state)))
        assert adapter.state_to_json(adapter.state_from_json(as_json)) == adapter.state_to_json(state)
        for seat in range(seats):
            json.dumps(adapter.view(state, seat))
    replayed = replay(adapter, settings=game_settings, seats=seats, seed=seed, steps=steps)
    assert adapter.state_to_json(replayed) == adapter.state_to_json(state)
