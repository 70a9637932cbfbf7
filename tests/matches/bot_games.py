"""Whole games played by bots through a mode adapter's public functions, as the match machinery plays them.

Each step asks the awaited seat's bot with exactly what the API gives that seat: its view, its
``allowed_actions`` and the data of the events it may see since it last acted (``Event.visible_to``),
plus its own memory; the game draws from ``rng_for(seed, step)``, the bot from its own seeded stream.
"""
from __future__ import annotations

import json
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matches.modes import JSON, ModeAdapter, Outcome, rng_for


@dataclass(frozen=True)
class BotGame:
    """A bots' game: its outcome (None: ``max_steps`` ran out first), each (seat, action) in order."""

    outcome: Outcome | None
    steps: tuple[tuple[int, JSON], ...]

    def won_by(self, seat: int, reason: str | None = None) -> bool:
        return (self.outcome is not None and seat in self.outcome.winners
                and (reason is None or self.outcome.reason == reason))


def bot_rng(seed: int, step: int) -> random.Random:
    return random.Random(f"test-bot/{seed}/{step}")


def play_bots(adapter: ModeAdapter[Any], settings: Mapping[str, Any], levels: Sequence[str], seed: int, *,
              max_steps: int = 20_000) -> BotGame:
    """Seat i is played by the bot ``levels[i]``; the game runs to its end or ``max_steps`` actions."""
    state = adapter.create(settings=settings, seats=len(levels), rng=rng_for(seed, 0))
    memory: list[Any] = [None] * len(levels)
    unseen: list[list[JSON]] = [[] for _ in levels]
    steps: list[tuple[int, JSON]] = []
    while adapter.outcome(state) is None and len(steps) < max_steps:
        seat = adapter.awaiting(state)
        assert seat is not None
        allowed = adapter.legal_actions(state, seat)
        view = adapter.view(state, seat)
        action, memory[seat] = adapter.bot_action(levels[seat], view, allowed, memory[seat],
                                                  bot_rng(seed, len(steps)), unseen[seat])
        assert action in allowed
        assert json.loads(json.dumps(memory[seat])) == memory[seat], "a bot's memory is stored as JSON"
        unseen[seat] = []
        steps.append((seat, action))
        moved = adapter.apply(state, seat, action, rng_for(seed, len(steps)))
        assert not hasattr(moved, "code"), f"an allowed action was refused: {moved}"
        state = moved.state
        for event in moved.events:
            for other in range(len(levels)):
                if event.visible_to(other):
                    unseen[other].append(event.data)
    return BotGame(adapter.outcome(state), tuple(steps))


def median_steps(games: Sequence[BotGame]) -> float:
    return statistics.median(len(game.steps) for game in games)
