"""``ModeAdapter.bot_action``: the registry of a mode's bots (``bot_policies``, named by ``bots``), and the
guard that a bot's answer is one of the seat's allowed actions."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cell_capture.mode import CellCaptureMode
from gamekit.bots import JSON, Memory, random_policy
from matches.modes import rng_for

MODE = CellCaptureMode()


def _view_allowed() -> tuple[JSON, list[JSON]]:
    state = MODE.create(settings={"width": 5, "height": 5}, seats=2, rng=rng_for(1, 0))
    seat = MODE.awaiting(state)
    return MODE.view(state, seat), MODE.legal_actions(state, seat)


def test_the_random_bot_draws_every_allowed_action_from_its_rng_alone() -> None:
    view, allowed = _view_allowed()
    drawn = {tuple(random_policy(view, allowed, None, random.Random(seed))[0]["cell"]) for seed in range(400)}
    assert drawn == {tuple(action["cell"]) for action in allowed}
    assert random_policy(view, allowed, None, random.Random(3)) == random_policy(view, allowed, None,
                                                                                 random.Random(3))


def test_an_unknown_level_is_a_callers_mistake() -> None:
    view, allowed = _view_allowed()
    with pytest.raises(KeyError):
        MODE.bot_action("grandmaster", view, allowed, None, random.Random(0))


def test_a_bot_that_answers_outside_allowed_actions_is_stopped() -> None:
    class Cheating(CellCaptureMode):
        @staticmethod
        def _cheat(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: random.Random,
                   events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
            return {"cell": [99, 99]}, memory

        bot_policies = {"cheat": _cheat}

    view, allowed = _view_allowed()
    with pytest.raises(ValueError, match="not allowed"):
        Cheating().bot_action("cheat", view, allowed, None, random.Random(0))
