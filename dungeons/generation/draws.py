"""The engine's own random draws, written out so the consumed randomness is part of its contract."""
from __future__ import annotations

import random
from collections.abc import Sequence


def draw_weighted(weights: Sequence[float], rng: random.Random) -> int | None:
    """Index drawn with probability proportional to its weight, or None if all weights are zero.

    Written out rather than ``rng.choices`` so the consumed randomness (one ``random()``) is part
    of this engine's contract, not of the standard library's implementation.
    """
    total = sum(weights)
    if total <= 0:
        return None
    u = rng.random() * total
    acc = 0.0
    for index, weight in enumerate(weights):
        acc += weight
        if u < acc:
            return index
    # Float rounding can leave u a hair above the running sum: give it to the last real candidate.
    return max(index for index, weight in enumerate(weights) if weight > 0)
