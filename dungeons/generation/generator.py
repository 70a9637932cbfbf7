"""generate_dungeon: floors, room kinds per floor (fixed rooms + lottery), the NPC and story items."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from dungeons.generation.draws import draw_weighted
from dungeons.generation.dungeon import Dungeon, Floor, Room
from dungeons.generation.formulas import clamp, floor_count, npc_chance, npc_floor_weights, room_count
from dungeons.generation.params import GenerationParams
from dungeons.generation.rules import (
    ALWAYS_RESCUABLE,
    GENERATOR_VERSION,
    KIND_RULES,
    LOTTERY,
    LOTTERY_FALLBACK,
    NPC_KINDS,
    STORY_FORBIDDEN,
    STORY_ITEMS,
    SUPPORTED_GENERATOR_VERSIONS,
    UNSUPPORTED_KINDS,
    DungeonKind,
    LotteryTerm,
    RoomKind,
    lottery_terms,
)
from dungeons.generation.sequential import SEQUENTIAL_VERSION, generate_sequential
from dungeons.generation.streams import Stream, base_seed, stream_rng

_DEFAULT_PARAMS = GenerationParams()


def parse_kind(kind: str) -> DungeonKind:
    """The dungeon kind this engine lays out, or a ValueError saying why not."""
    try:
        parsed = DungeonKind(kind)
    except ValueError:
        known = ", ".join(k.value for k in KIND_RULES)
        raise ValueError(f"unknown dungeon kind {kind!r}; expected one of: {known}") from None
    if parsed in UNSUPPORTED_KINDS:
        raise ValueError(f"dungeon kind {kind!r} is not generated here: {UNSUPPORTED_KINDS[parsed]}")
    return parsed


def _weights(terms: list[LotteryTerm], counts: Mapping[RoomKind, int]) -> list[float]:
    return [float(clamp(0, offset - counts.get(kind, 0), cap)) for kind, offset, cap in terms]


def lottery_weights(
    *,
    counts: Mapping[RoomKind, int],
    floor: int,
    n: int,
    completed: float,
    params: GenerationParams,
    banned: frozenset[RoomKind] = frozenset(),
) -> tuple[float, ...]:
    """SPEC's ``(X, Y, Z)`` for the next lottery room, in the order of ``rules.LOTTERY``.

    ``counts`` are the rooms of each kind already on this floor, the pre-marked ones included.
    """
    terms = lottery_terms(floor=floor, n=n, completed=completed, params=params, banned=banned)
    return tuple(_weights(terms, counts))


def floor_layout(
    *,
    kind: DungeonKind,
    floor: int,
    rooms: int,
    n: int,
    completed: float,
    params: GenerationParams,
    rng: random.Random,
) -> tuple[RoomKind, ...]:
    """The room kinds of one floor, before story rooms are placed.

    The tail rooms (boss last, then rest) go to the end; each marked room (treasure, then trap)
    to a random free room; every other room, in order, comes from the lottery. A floor too short
    keeps its fixed rooms in priority order (boss, rest, treasure, trap).
    """
    rules = KIND_RULES[kind]
    tail, marked = rules.fixed_rooms(rooms)
    layout: list[RoomKind | None] = [None] * rooms
    for offset, room_kind in enumerate(tail):
        layout[rooms - 1 - offset] = room_kind
    free = list(range(rooms - len(tail)))
    for room_kind in marked:
        layout[free.pop(rng.randrange(len(free)))] = room_kind
    counts: Counter[RoomKind] = Counter(k for k in layout if k is not None)
    terms = lottery_terms(floor=floor, n=n, completed=completed, params=params, banned=rules.banned)
    for index in free:  # still ascending: the lottery runs in room order, as SPEC says
        weights = _weights(terms, counts)
        drawn = draw_weighted(weights, rng)
        room_kind = LOTTERY_FALLBACK if drawn is None else LOTTERY[drawn].kind
        layout[index] = room_kind
        counts[room_kind] += 1
    return tuple(k for k in layout if k is not None)


def npc_candidates(npc_kinds: Iterable[str] | None) -> tuple[str, ...]:
    """The NPC kinds a dungeon may hold, in canonical order; peasants are always among them."""
    if npc_kinds is None:
        return NPC_KINDS
    if isinstance(npc_kinds, str):
        # ValueError, not TypeError: callers turn ValueError into the refusal they answer
        raise ValueError("npc_kinds must be a collection of NPC kinds, not one string")  # noqa: TRY004
    wanted = set(npc_kinds)
    unknown = wanted - set(NPC_KINDS)
    if unknown:
        raise ValueError(f"unknown NPC kinds: {', '.join(sorted(unknown))}")
    wanted |= ALWAYS_RESCUABLE
    return tuple(k for k in NPC_KINDS if k in wanted)


def _story_eligible(kinds: Sequence[RoomKind], taken: int | None = None) -> list[int]:
    return [j for j, k in enumerate(kinds) if k not in STORY_FORBIDDEN and j != taken]


def generate_dungeon(
    kind: str,
    n: int,
    rank: float,
    completed: float,
    same_guild: bool,
    params: GenerationParams | None = None,
    rng: random.Random | None = None,
    *,
    npc_kinds: Iterable[str] | None = None,
    version: int = GENERATOR_VERSION,
) -> Dungeon:
    """Generate an ordinary or frenzy dungeon per SPEC section 5; equal inputs and seed, equal dungeon.

    ``npc_kinds`` are the kinds the guild has not rescued yet (default: all of them).
    ``kind="darkness"`` raises ValueError: the labyrinth has its own engine.
    ``version`` picks the rules (``SUPPORTED_GENERATOR_VERSIONS``), so a stored dungeon regenerates
    unchanged with the version that made it:

    - version 1: ``rng`` is consumed by exactly one draw (64 bits) from which independent streams
      derive: one per floor for its rooms, one for the NPC, one for story items (see ``streams``);
    - version 2: version 1 plus sealed story rooms, from a stream of their own;
    - version 3 (the default): the rules of version 2 drawn straight from ``rng`` in a fixed order,
      with what does not depend on the seed cached (see ``sequential``): several times faster.
    """
    if version not in SUPPORTED_GENERATOR_VERSIONS:
        raise ValueError(f"generator version {version!r} is not one of {SUPPORTED_GENERATOR_VERSIONS}")
    if rng is None or not isinstance(rng, random.Random):
        raise TypeError("generate_dungeon needs rng=random.Random(seed); it never uses the global random")
    params = _DEFAULT_PARAMS if params is None else params
    dungeon_kind = parse_kind(kind)
    candidates = npc_candidates(npc_kinds)
    if version == SEQUENTIAL_VERSION:
        return generate_sequential(
            kind=dungeon_kind, n=n, rank=rank, completed=completed, same_guild=same_guild, params=params,
            candidates=candidates, rng=rng,
        )
    floors_total = floor_count(n=n, rank=rank, completed=completed, params=params)
    base = base_seed(rng)

    layouts: list[list[RoomKind]] = [
        list(
            floor_layout(
                kind=dungeon_kind,
                floor=i,
                rooms=room_count(floor=i, n=n, rank=rank, completed=completed, params=params),
                n=n,
                completed=completed,
                params=params,
                rng=stream_rng(base, Stream.FLOOR, i),
            )
        )
        for i in range(floors_total)
    ]
    contents: dict[tuple[int, int], Room] = {}

    # The NPC: only for single-guild parties, at most one per dungeon.
    chance = npc_chance(rank=rank, completed=completed, params=params) if same_guild else 0.0
    npc: tuple[int, int] | None = None
    npc_kind: str | None = None
    npc_rng = stream_rng(base, Stream.NPC)
    if npc_rng.random() < chance:
        npc_floor = draw_weighted(npc_floor_weights(floors=floors_total), npc_rng)
        assert npc_floor is not None  # the weights always sum to 1
        eligible = _story_eligible(layouts[npc_floor])
        # A floor of only rest and boss rooms (possible with tiny r_min) has no room for the NPC.
        if eligible:
            npc = (npc_floor, eligible[npc_rng.randrange(len(eligible))])
            npc_kind = candidates[npc_rng.randrange(len(candidates))]
            layouts[npc[0]][npc[1]] = RoomKind.STORY
            contents[npc] = Room(RoomKind.STORY, npc_kind=npc_kind)

    # Story items: on each floor, with a small chance, one more room becomes a story room.
    story_rng = stream_rng(base, Stream.STORY)
    for i, layout in enumerate(layouts):
        if story_rng.random() >= params.story_item_chance:
            continue
        eligible = _story_eligible(layout, taken=npc[1] if npc and npc[0] == i else None)
        if not eligible:
            continue
        j = eligible[story_rng.randrange(len(eligible))]
        item = STORY_ITEMS[story_rng.randrange(len(STORY_ITEMS))]
        layout[j] = RoomKind.STORY
        contents[(i, j)] = Room(RoomKind.STORY, story_item=item)

    if version >= 2:
        _place_sealed_rooms(layouts, contents, params=params, rng=stream_rng(base, Stream.SEALED))

    floors = tuple(
        Floor(index=i, rooms=tuple(contents.get((i, j)) or Room(k) for j, k in enumerate(layout)))
        for i, layout in enumerate(layouts)
    )
    return Dungeon(
        kind=dungeon_kind.value,
        n=n,
        rank=rank,
        completed=completed,
        same_guild=bool(same_guild),
        params=params,
        floors=floors,
        npc=npc,
        npc_kind=npc_kind,
        npc_chance=chance,
        generator_version=version,
    )


def _place_sealed_rooms(
    layouts: list[list[RoomKind]], contents: dict[tuple[int, int], Room], *, params: GenerationParams,
    rng: random.Random,
) -> None:
    """Version 2: each story-item room, in the order the party passes them, is answered with chance
    ``sealed_room_chance`` by a sealed story room on a uniformly chosen later floor, in a random room
    that is neither rest, boss nor already a story room; it opens for that story item only.
    A story-item room on the last floor, or a later floor without a free room, gets none."""
    sources = sorted(position for position, room in contents.items() if room.story_item)
    for floor, index in sources:
        item = contents[(floor, index)].story_item
        if rng.random() >= params.sealed_room_chance:
            continue
        later = range(floor + 1, len(layouts))
        if not later:
            continue
        target = later[rng.randrange(len(later))]
        eligible = [j for j in _story_eligible(layouts[target]) if (target, j) not in contents]
        if not eligible:
            continue
        room = eligible[rng.randrange(len(eligible))]
        layouts[target][room] = RoomKind.STORY
        contents[(target, room)] = Room(RoomKind.STORY, seal=item)
