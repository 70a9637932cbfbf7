"""A pure random player of seed 002's paper Labyrinth: ``random_request`` draws a legal request.

Legal means the rules engine accepts it (``rules.apply`` answers no ``Impossible``): the bot reads only
what the player may know or what the engine's checks read (the variant and table options, whose
turn it is, the player's own status), never the map. Classic: one movement (or a skip, never when
the table forbids it) with up to ``MAX_EXTRA`` shots, grenades, throws, leaves and mines around it,
sometimes conditional, sometimes dark or half-dark, a re-order when one is offered, a treasure
choice. Quantum: exactly one step. Every draw comes from the given ``random.Random``.
"""
from __future__ import annotations

import random

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Cycle,
    Downstream,
    Grenade,
    Item,
    Move,
    PlaceMine,
    Reorder,
    Shoot,
    Skip,
    Step,
    Throw,
    Turn,
    Visibility,
)
from paper_labyrinth.engine.rules import can_reorder
from paper_labyrinth.engine.state import GameState

MAX_EXTRA = 3
ITEMS = tuple(Item)
CONDITIONS = tuple(Condition)


def _movement(rng: random.Random) -> Step:
    roll = rng.random()
    if roll < 0.1:
        return Downstream()
    if roll < 0.2:
        return Cycle()
    return Move(rng.choice(DIRECTIONS))


def _direction(rng: random.Random, own_cell: bool) -> Direction | None:
    return None if own_cell and rng.random() < 0.25 else rng.choice(DIRECTIONS)


def _action(state: GameState, rng: random.Random) -> Step:
    """One non-movement step the table's options allow."""
    o = state.options
    quantum = o.variant == "quantum"
    kind = rng.randrange(5)
    if kind == 0:
        return Shoot(_direction(rng, quantum))
    if kind == 1:
        return Grenade(rng.choice(DIRECTIONS))
    if kind == 2:
        return Throw(rng.choice(ITEMS), None)
    if kind == 3:
        return Throw(rng.choice(ITEMS), rng.choice(DIRECTIONS) if o.allow_throw else None)
    return PlaceMine(_direction(rng, True) if o.allow_adjacent_mines else None)


def _classic_extra(state: GameState, rng: random.Random) -> Step:
    if state.options.allow_conditional and rng.random() < 0.2:
        then = tuple(_action(state, rng) for _ in range(rng.randint(1, 2)))
        return Conditional(rng.choice(CONDITIONS), then)
    return _action(state, rng)


def random_request(state: GameState, seat: int, rng: random.Random) -> Turn:
    """A random turn ``seat`` may post now (it must be their turn)."""
    o = state.options
    player = state.players[seat]
    visibility = Visibility.NORMAL
    roll = rng.random()
    if roll < 0.05 and o.allow_dark:
        visibility = Visibility.DARK
    elif roll < 0.1 and o.allow_half_dark:
        visibility = Visibility.HALF_DARK
    reorder = None
    if can_reorder(state, seat) and rng.random() < 0.5:
        reorder = Reorder(rng.choice(sorted(state.map.cells)))
    treasure = rng.choice((None, None, None, 0, 1, 2))
    refill = rng.random() < 0.9
    skip_allowed = not o.no_skip_or_repeat
    if o.variant == "quantum":
        roll = rng.random()
        if roll < 0.05 and skip_allowed:
            step: Step = Skip()
        elif roll < 0.6 or player.outside is not None:
            step = _movement(rng)
        else:
            step = _action(state, rng)
        return Turn((step,), visibility, None, treasure, refill)
    if skip_allowed and rng.random() < 0.05:
        return Turn((Skip(),), visibility, reorder, treasure, refill)
    before = [] if player.outside is not None else [_classic_extra(state, rng)
                                                     for _ in range(rng.randint(0, MAX_EXTRA))]
    after = [_classic_extra(state, rng) for _ in range(rng.randint(0, MAX_EXTRA))]
    return Turn((*before, _movement(rng), *after), visibility, reorder, treasure, refill)


__all__ = ["random_request"]
