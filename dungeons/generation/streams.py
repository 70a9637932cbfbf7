"""Derivation of independent random streams from one injected random.Random, for reproducibility."""
from __future__ import annotations

import random
from enum import IntEnum

_MASK64 = (1 << 64) - 1


class Stream(IntEnum):
    """Each concern draws from its own stream, so changing one rule never reshuffles the others.

    E.g. retuning the story-item chance leaves every room layout and NPC of old seeds unchanged.
    The values are part of the generator's contract: never renumber them.
    """

    FLOOR = 1  # room kinds of one floor (one stream per floor index)
    NPC = 2  # whether there is an NPC, its floor, room and kind
    STORY = 3  # story rooms holding story items
    SEALED = 4  # sealed story rooms on later floors (generator version 2 on)


def splitmix64(x: int) -> int:
    """Sebastiano Vigna's SplitMix64 finaliser: a cheap, well-mixing bijection on 64-bit ints."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def derive_seed(base: int, stream: Stream, index: int = 0) -> int:
    """The seed of ``stream`` (number ``index`` of it, e.g. the floor) under the dungeon's ``base``."""
    return splitmix64(splitmix64((base ^ (int(stream) << 56)) & _MASK64) ^ index)


def stream_rng(base: int, stream: Stream, index: int = 0) -> random.Random:
    return random.Random(derive_seed(base, stream, index))


def base_seed(rng: random.Random) -> int:
    """The only draw taken from the caller's generator: 64 bits that every stream derives from."""
    return rng.getrandbits(64)
