"""The machinery decodes a match's stored state once per request and encodes it once per stored step,
whatever the mode (each hook of the request gets the one typed value)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from matches.modes import ModeAdapter, get_mode, registered_modes
from tests.matches.helpers import act, awaited, read, started

pytestmark = pytest.mark.django_db

SMALL_SETTINGS = {"cell_capture": {"width": 5, "height": 5}, "labyrinth_console": {"rows": 3, "cols": 3},
                  "labyrinth_roguelike": {"width": 3, "height": 3, "floors": 1}}


def counted(monkeypatch: pytest.MonkeyPatch, adapter: ModeAdapter[Any]) -> Counter[str]:
    """Counts of the adapter's own decode and encode calls (the real ones run)."""
    calls: Counter[str] = Counter()
    for name in ("state_from_json", "state_to_json"):
        real: Callable[..., Any] = getattr(adapter, name)

        def spy(*args: Any, _name: str = name, _real: Callable[..., Any] = real) -> Any:
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(adapter, name, spy)
    return calls


@pytest.mark.parametrize("mode", sorted(registered_modes()))
def test_a_read_decodes_once_and_an_action_decodes_once_and_encodes_its_step_once(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: a started match (two seats where the mode has them) and the decodes counted from now on
    adapter = get_mode(mode)
    assert adapter is not None
    people, match = started(mode, players=min(2, adapter.max_players), settings=SMALL_SETTINGS.get(mode))
    calls = counted(monkeypatch, adapter)
    for _ in range(3):
        mover = awaited(people, match.pk)
        # when: the awaited player reads the match
        body = read(mover, match.pk)
        # then: one decode, nothing stored
        assert calls == Counter({"state_from_json": 1}), calls
        calls.clear()
        # when: it sends one of its allowed actions
        reply = act(mover, match.pk, body["allowed_actions"][0], turn=body["turn"])
        # then: one decode for the whole request (deadline, check, move) and one encode of the step
        assert reply.status_code == 200, reply.json()
        assert calls == Counter({"state_from_json": 1, "state_to_json": 1}), calls
        calls.clear()
