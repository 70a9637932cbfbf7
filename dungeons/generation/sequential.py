"""Generator version 3: the rules of version 2, drawn from one sequential stream, with cached plans.

Versions 1 and 2 (``generator.py``) seed a fresh ``random.Random`` for every floor and for the NPC,
story and sealed-room concerns: 5 to 9 seedings of about 5 us each, more than half the time of a
dungeon. Version 3 draws every random number straight from the caller's ``rng``, in this order:

1. each floor, from floor 0 down: one ``random()`` per marked room (treasure, then trap) for its
   position among the free rooms, then one ``random()`` per lottery room in room order (none when
   every weight is 0);
2. the NPC: one ``random()`` against the chance; on a hit one for the floor (``draw_weighted`` over
   ``2i/(F(F-1))``), one for the room, one for the kind;
3. story items: per floor one ``random()`` against the chance; on a hit one for the room, one for
   the item;
4. sealed rooms: per story-item room, in the order the party passes them, one ``random()`` against
   the chance; on a hit one for the later floor, one for the room.

A uniform choice among ``size`` things is ``int(random() * size)``: the 53-bit ``u`` makes every
index's probability ``1/size`` to within ``2**-53``, and ``u < 1`` keeps ``u * size`` below
``size`` for every size below ``2**53``. Stages come in that order, so retuning the story-item chance
leaves rooms and the NPC of a seed unchanged and retuning the sealed-room chance leaves everything
but the sealed rooms; a floor's layout depends on the floors before it (not on those after).

What does not depend on the seed is computed once per inputs and parameters and cached (a
``DungeonPlan``): floor and room counts, the fixed rooms of each floor and each lottery weight as a
table over the count it subtracts. Plain rooms are shared ``Room`` values (they are frozen, so a
shared one equals a fresh one). The formulas are those of ``formulas.py``, evaluated the same way.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

from dungeons.generation.draws import draw_weighted
from dungeons.generation.dungeon import Dungeon, Floor, Room
from dungeons.generation.formulas import clamp, floor_count, npc_chance, npc_floor_weights, room_count
from dungeons.generation.params import GenerationParams
from dungeons.generation.rules import (
    KIND_RULES,
    LOTTERY,
    LOTTERY_FALLBACK,
    STORY_FORBIDDEN,
    STORY_ITEMS,
    DungeonKind,
    RoomKind,
    lottery_terms,
)

#: The version whose rules this module runs (``rules.SUPPORTED_GENERATOR_VERSIONS`` lists it).
SEQUENTIAL_VERSION = 3

#: One shared value per room kind for rooms that hold nothing (every room but story rooms).
PLAIN_ROOMS: dict[RoomKind, Room] = {kind: Room(kind) for kind in RoomKind}

# The lottery loop below is written out for SPEC's three weights (X, Y, Z), in ``LOTTERY`` order.
assert len(LOTTERY) == 3, "sequential.lay_floor draws from exactly three lottery weights"
_LOTTERY_ROOMS = tuple(PLAIN_ROOMS[entry.kind] for entry in LOTTERY)
_FALLBACK_ROOM = PLAIN_ROOMS[LOTTERY_FALLBACK]
_NOT_FOR_SEALS = STORY_FORBIDDEN | {RoomKind.STORY}

Random01 = Callable[[], float]


class FloorPlan(NamedTuple):
    """What one floor's layout needs besides the random draws (a tuple: ``lay_floor`` unpacks it).

    ``template`` has the tail rooms (boss, rest) in place and None on the ``free_rooms`` before
    them; ``marked`` go to random free rooms; ``counts`` are the lottery kinds among the fixed rooms
    (T, P, E before the first draw); ``weights[k][c]`` is lottery weight k when c rooms of its kind
    are already on the floor, i.e. ``clamp(0, base + driver - c, cap)``.
    """

    template: tuple[Room | None, ...]
    free_rooms: tuple[int, ...]
    marked: tuple[Room, ...]
    counts: tuple[int, int, int]
    weights: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]


@dataclass(frozen=True, slots=True)
class DungeonPlan:
    """Everything about a dungeon that depends only on its kind, inputs and parameters."""

    kind: DungeonKind
    floors: tuple[FloorPlan, ...]
    npc_chance: float  # for a single-guild party; a mixed party has 0
    npc_floor_weights: tuple[float, ...]


def floor_plan(
    *, kind: DungeonKind, floor: int, rooms: int, n: int, completed: float, params: GenerationParams
) -> FloorPlan:
    """The seed-independent part of floor ``floor``'s layout, from the same rules as ``floor_layout``."""
    rules = KIND_RULES[kind]
    tail, marked = rules.fixed_rooms(rooms)
    template: list[Room | None] = [None] * rooms
    for back, room_kind in enumerate(tail):
        template[rooms - 1 - back] = PLAIN_ROOMS[room_kind]
    terms = lottery_terms(floor=floor, n=n, completed=completed, params=params, banned=rules.banned)
    w0, w1, w2 = (
        tuple(float(clamp(0, offset - count, cap)) for count in range(rooms + 1)) for _, offset, cap in terms
    )
    fixed = tail + marked
    t, p, e = (fixed.count(entry.kind) for entry in LOTTERY)
    return FloorPlan(
        template=tuple(template),
        free_rooms=tuple(range(rooms - len(tail))),
        marked=tuple(PLAIN_ROOMS[room_kind] for room_kind in marked),
        counts=(t, p, e),
        weights=(w0, w1, w2),
    )


def lay_floor(plan: FloorPlan, rnd: Random01) -> list[Room]:
    """One floor's rooms before story rooms: marked rooms placed, then the lottery in room order.

    The draw is ``draw_weighted``'s, written out for three weights: ``u = random() * (X + Y + Z)``
    picks the first kind whose running sum exceeds ``u``; a ``u`` that float rounding leaves at the
    total goes to the last kind with a positive weight. All weights 0 give the fallback without a
    draw; the weights only fall as counts grow, so they stay 0 for the rest of the floor.
    """
    template, free_rooms, marked, (c0, c1, c2), (w0, w1, w2) = plan
    layout = list(template)
    free = list(free_rooms)
    for room in marked:
        layout[free.pop(int(rnd() * len(free)))] = room
    room0, room1, room2 = _LOTTERY_ROOMS
    for index in free:  # ascending: the lottery runs in room order
        x = w0[c0]
        y = w1[c1]
        z = w2[c2]
        total = x + y + z
        if total <= 0:
            layout[index] = _FALLBACK_ROOM
            continue
        u = rnd() * total
        if u < x:
            layout[index] = room0
            c0 += 1
        elif u < x + y or (u >= total and z <= 0 < y):
            layout[index] = room1
            c1 += 1
        elif u < total or z > 0:
            layout[index] = room2
            c2 += 1
        else:  # u rounded up to the total and only X is positive
            layout[index] = room0
            c0 += 1
    return cast(list[Room], layout)  # every room is placed


def floor_layout_sequential(
    *,
    kind: DungeonKind,
    floor: int,
    rooms: int,
    n: int,
    completed: float,
    params: GenerationParams,
    rng: random.Random,
) -> tuple[RoomKind, ...]:
    """Version 3's ``floor_layout``: the room kinds of one floor, drawn from ``rng`` as a dungeon does."""
    plan = floor_plan(kind=kind, floor=floor, rooms=rooms, n=n, completed=completed, params=params)
    return tuple(room.kind for room in lay_floor(plan, rng.random))


def _build_plan(
    kind: DungeonKind, n: int, rank: float, completed: float, params: GenerationParams
) -> DungeonPlan:
    floors_total = floor_count(n=n, rank=rank, completed=completed, params=params)  # checks the inputs
    return DungeonPlan(
        kind=kind,
        floors=tuple(
            floor_plan(
                kind=kind,
                floor=i,
                rooms=room_count(floor=i, n=n, rank=rank, completed=completed, params=params),
                n=n,
                completed=completed,
                params=params,
            )
            for i in range(floors_total)
        ),
        npc_chance=npc_chance(rank=rank, completed=completed, params=params),
        npc_floor_weights=tuple(npc_floor_weights(floors=floors_total)),
    )


_PLANS: dict[tuple[object, ...], DungeonPlan] = {}
_PLANS_MAX = 1024


def dungeon_plan(
    *, kind: DungeonKind, n: int, rank: float, completed: float, params: GenerationParams
) -> DungeonPlan:
    """The plan for these inputs, computed once and cached (a ValueError for impossible inputs).

    The key holds the inputs' types too, so ``n=True`` never reuses the plan of ``n=1`` and still
    gets its ValueError; inputs that fail the checks are never cached.
    """
    key = (kind, n, rank, completed, params, type(n), type(rank), type(completed))
    plan = _PLANS.get(key)
    if plan is None:
        plan = _build_plan(kind, n, rank, completed, params)
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def generate_sequential(
    *,
    kind: DungeonKind,
    n: int,
    rank: float,
    completed: float,
    same_guild: bool,
    params: GenerationParams,
    candidates: tuple[str, ...],
    rng: random.Random,
) -> Dungeon:
    """Version 3 of ``generate_dungeon`` (which checks the arguments and calls this)."""
    plan = dungeon_plan(kind=kind, n=n, rank=rank, completed=completed, params=params)
    rnd = rng.random
    layouts = [lay_floor(floor, rnd) for floor in plan.floors]

    # The NPC: only for single-guild parties, at most one per dungeon.
    chance = plan.npc_chance if same_guild else 0.0
    npc: tuple[int, int] | None = None
    npc_kind: str | None = None
    if rnd() < chance:
        npc_floor = draw_weighted(plan.npc_floor_weights, rng)
        assert npc_floor is not None  # the weights always sum to 1
        layout = layouts[npc_floor]
        eligible = [j for j, room in enumerate(layout) if room.kind not in STORY_FORBIDDEN]
        # A floor of only rest and boss rooms (possible with tiny r_min) has no room for the NPC.
        if eligible:
            npc = (npc_floor, eligible[int(rnd() * len(eligible))])
            npc_kind = candidates[int(rnd() * len(candidates))]
            layout[npc[1]] = Room(RoomKind.STORY, npc_kind=npc_kind)

    # Story items: on each floor, with a small chance, one more room becomes a story room.
    story_chance = params.story_item_chance
    sources: list[tuple[int, str]] = []
    for i, layout in enumerate(layouts):
        if rnd() >= story_chance:
            continue
        taken = npc[1] if npc is not None and npc[0] == i else None
        eligible = [j for j, room in enumerate(layout) if room.kind not in STORY_FORBIDDEN and j != taken]
        if not eligible:
            continue
        j = eligible[int(rnd() * len(eligible))]
        item = STORY_ITEMS[int(rnd() * len(STORY_ITEMS))]
        layout[j] = Room(RoomKind.STORY, story_item=item)
        sources.append((i, item))

    # Sealed story rooms: each story-item room may be answered by one on a later floor.
    sealed_chance = params.sealed_room_chance
    floors_total = len(layouts)
    for source_floor, item in sources:
        if rnd() >= sealed_chance:
            continue
        later = floors_total - source_floor - 1
        if not later:
            continue
        layout = layouts[source_floor + 1 + int(rnd() * later)]
        eligible = [j for j, room in enumerate(layout) if room.kind not in _NOT_FOR_SEALS]
        if not eligible:
            continue
        layout[eligible[int(rnd() * len(eligible))]] = Room(RoomKind.STORY, seal=item)

    return Dungeon(
        kind=plan.kind.value,
        n=n,
        rank=rank,
        completed=completed,
        same_guild=bool(same_guild),
        params=params,
        floors=tuple(Floor(i, tuple(layout)) for i, layout in enumerate(layouts)),
        npc=npc,
        npc_kind=npc_kind,
        npc_chance=chance,
        generator_version=SEQUENTIAL_VERSION,
    )
