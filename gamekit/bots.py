"""The shape every game's bots share (no Django): a pure policy and the one ``random`` bot.

A bot plays a seat exactly as a person at the API does: its only inputs are what the API gives that
seat (its ``view``, the ``events`` it saw since it last acted, its ``allowed_actions``) and its own
``memory``, a JSON value the server stores between its turns (None before its first action). It
returns the action (always one of ``allowed``) and its new memory. Every draw comes from the
``random.Random`` it is handed, so the same inputs give the same choice.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, Protocol

JSON = dict[str, Any]
#: the bot's notebook between turns: any JSON value (None before its first action)
Memory = Any


class Policy(Protocol):
    """``choose(view, allowed, memory, rng, events) -> (action, memory)``, ``action`` one of ``allowed``."""

    def __call__(self, view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
                 events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]: ...


def random_policy(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
                  events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
    """The ``random`` bot of every game: a uniformly random entry of ``allowed``; it remembers nothing."""
    if not allowed:
        raise ValueError("a bot is asked to act only when it has an allowed action")
    return dict(allowed[rng.randrange(len(allowed))]), memory
