"""The seeded turn order: a random interleaving that keeps the players' formation order."""
from __future__ import annotations

import random
from collections.abc import Sequence


def turn_order(players: Sequence[str], enemies: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """Players keep their formation order; enemies are shuffled into the remaining slots.

    Choosing the players' slots as a uniform sample of positions makes every interleaving
    that respects the formation equally likely.
    """
    total = len(players) + len(enemies)
    player_slots = set(rng.sample(range(total), len(players)))
    shuffled = list(enemies)
    rng.shuffle(shuffled)
    formation = iter(players)
    others = iter(shuffled)
    return tuple(next(formation) if slot in player_slots else next(others) for slot in range(total))
