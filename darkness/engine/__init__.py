"""The Labyrinth of Darkness (SPEC 9.5): a guild's sectioned maze, one move of the party, what a guild
may be shown of it, and what fills a room. Pure: plain values in, plain values out, seeded randomness.

Layout: the grid's rows are cut into ``sections`` bands (section 0 at the top). Each band is a perfect
maze of its own; band s (s >= 1) is joined to band s-1 by exactly one passage, which leads into a camp
room on band s's top row. The entrance is on row 0, the heart (the boss) is the cell of the last band
farthest from that band's way in. Teleports (to a cell of the same section), rubber rooms and stun
cells are placed at the given rates; a placement that would leave a room unreachable from the entrance,
or a room from which the heart cannot be reached, is skipped, so the rates are upper bounds.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from labyrinth.engine.grid import (
    DIRECTIONS,
    Direction,
    Field,
    LabyrinthMap,
    RubberRoom,
    Special,
    StepOutcome,
    Stun,
    Teleport,
    has_wall,
    step,
)

DARKNESS_GENERATOR_VERSION = 1
Pos = tuple[int, int]
"""(row, col) on the maze's only field."""

MAX_SIDE = 40


@dataclass(frozen=True)
class MazeParams:
    """The designer's numbers for a new guild maze (darkness.DarknessSettings in the admin)."""

    rows: int = 10
    cols: int = 10
    sections: int = 4
    teleport_rate: float = 0.03
    rubber_rate: float = 0.03
    stun_rate: float = 0.05
    stun_turns: int = 2

    def problems(self) -> list[str]:
        """What makes these numbers unusable ([] when they are fine)."""
        found = []
        for name in ("rows", "cols"):
            if not 2 <= getattr(self, name) <= MAX_SIDE:
                found.append(f"{name} must be between 2 and {MAX_SIDE}, not {getattr(self, name)}")
        if not 1 <= self.sections <= self.rows:
            found.append(f"sections must be between 1 and the number of rows ({self.rows}), "
                         f"not {self.sections}")
        rates = (self.teleport_rate, self.rubber_rate, self.stun_rate)
        if any(not 0 <= rate <= 1 for rate in rates) or sum(rates) > 0.5:
            found.append("special-cell rates must each be between 0 and 1 and add up to at most 0.5")
        if self.stun_turns < 1:
            found.append(f"stun_turns must be at least 1, not {self.stun_turns}")
        return found


@dataclass(frozen=True)
class GuildMaze:
    """One generated maze. ``section_of_row[r]`` is row r's section; ``camps[s - 1]`` is section s's camp."""

    map: LabyrinthMap
    section_of_row: tuple[int, ...]
    entrance: Pos
    heart: Pos
    camps: tuple[Pos, ...]

    @property
    def rows(self) -> int:
        return self.map.fields[0].rows

    @property
    def cols(self) -> int:
        return self.map.fields[0].cols

    def section(self, pos: Pos) -> int:
        return self.section_of_row[pos[0]]

    def index(self, pos: Pos) -> int:
        """The room's number, row-major (a run's ``room``)."""
        return pos[0] * self.cols + pos[1]

    def position(self, index: int) -> Pos:
        return divmod(index, self.cols)

    def special(self, pos: Pos) -> Special | None:
        return self.map.special((0, *pos))

    def room_kind(self, pos: Pos) -> str:
        """What a room is as a place: entrance, camp, heart, teleport, rubber, stun or room."""
        if pos == self.entrance:
            return "entrance"
        if pos == self.heart:
            return "heart"
        if pos in self.camps:
            return "camp"
        special = self.special(pos)
        if isinstance(special, Teleport):
            return "teleport"
        if isinstance(special, RubberRoom):
            return "rubber"
        if isinstance(special, Stun):
            return "stun"
        return "room"


def section_bands(rows: int, sections: int) -> tuple[int, ...]:
    """Each row's section: ``sections`` bands as equal as possible, the bigger ones first."""
    base, extra = divmod(rows, sections)
    bands: list[int] = []
    for s in range(sections):
        bands.extend([s] * (base + (1 if s < extra else 0)))
    return tuple(bands)


def generate_guild_maze(params: MazeParams, rng: random.Random) -> GuildMaze:
    """A new guild maze (DARKNESS_GENERATOR_VERSION); ValueError names bad params."""
    problems = params.problems()
    if problems:
        raise ValueError("; ".join(problems))
    rows, cols = params.rows, params.cols
    bands = section_bands(rows, params.sections)
    right = [[True] * (cols - 1) for _ in range(rows)]
    down = [[True] * cols for _ in range(rows - 1)]

    def open_wall(a: Pos, b: Pos) -> None:
        (r1, c1), (r2, _c2) = sorted((a, b))
        if r1 == r2:
            right[r1][c1] = False
        else:
            down[r1][c1] = False

    for s in range(params.sections):
        band = [r for r in range(rows) if bands[r] == s]
        start = (rng.choice(band), rng.randrange(cols))
        seen = {start}
        stack = [start]
        while stack:  # recursive backtracker inside the band
            r, c = stack[-1]
            options = [(r + dr, c + dc) for dr, dc in (d.delta for d in DIRECTIONS)
                       if 0 <= r + dr < rows and 0 <= c + dc < cols and bands[r + dr] == s
                       and (r + dr, c + dc) not in seen]
            if not options:
                stack.pop()
                continue
            nxt = rng.choice(options)
            open_wall((r, c), nxt)
            seen.add(nxt)
            stack.append(nxt)
    camps = []
    for s in range(1, params.sections):
        top = bands.index(s)
        camp = (top, rng.randrange(cols))
        open_wall((top - 1, camp[1]), camp)
        camps.append(camp)
    entrance = (0, rng.randrange(cols))
    plain = _field(rows, cols, right, down, {})
    way_in = camps[-1] if camps else entrance
    heart = _farthest(plain, way_in, lambda pos: bands[pos[0]] == params.sections - 1)
    fixed = {entrance, heart, *camps}
    specials: dict[Pos, Special] = {}
    candidates = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in fixed]
    rng.shuffle(candidates)
    wanted = [("teleport", round(params.teleport_rate * rows * cols)),
              ("rubber", round(params.rubber_rate * rows * cols)),
              ("stun", round(params.stun_rate * rows * cols))]
    at = 0
    for kind, count in wanted:
        placed = 0
        while placed < count and at < len(candidates):
            pos = candidates[at]
            at += 1
            special = _candidate(kind, pos, plain, bands, fixed, specials, params, rng)
            if special is None:
                continue
            specials[pos] = special
            if _sound(rows, cols, right, down, specials, entrance, heart):
                placed += 1
            else:
                del specials[pos]
    final = _field(rows, cols, right, down, specials)
    return GuildMaze(final, bands, entrance, heart, tuple(camps))


def _field(rows: int, cols: int, right: list[list[bool]], down: list[list[bool]],
           specials: dict[Pos, Special]) -> LabyrinthMap:
    cells = tuple(tuple(specials.get((r, c)) for c in range(cols)) for r in range(rows))
    return LabyrinthMap((Field(rows, cols, tuple(map(tuple, right)), tuple(map(tuple, down)), cells),))


def _farthest(m: LabyrinthMap, start: Pos, within: Callable[[Pos], bool]) -> Pos:
    """The cell ``within`` farthest (in steps, walls only) from ``start``; the first row-major on ties."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for d in DIRECTIONS:
            if not has_wall(m, (0, *pos), d):
                nxt = (pos[0] + d.delta[0], pos[1] + d.delta[1])
                if nxt not in dist:
                    dist[nxt] = dist[pos] + 1
                    queue.append(nxt)
    best = max(value for pos, value in dist.items() if within(pos))
    return min(pos for pos, value in dist.items() if value == best and within(pos))


def _candidate(kind: str, pos: Pos, plain: LabyrinthMap, bands: tuple[int, ...], fixed: set[Pos],
               specials: dict[Pos, Special], params: MazeParams, rng: random.Random) -> Special | None:
    if kind == "stun":
        return Stun(params.stun_turns)
    if kind == "rubber":
        open_sides = [d for d in DIRECTIONS if not has_wall(plain, (0, *pos), d)]
        return RubberRoom(rng.choice(open_sides)) if open_sides else None
    targets = [(r, c) for r in range(plain.fields[0].rows) for c in range(plain.fields[0].cols)
               if bands[r] == bands[pos[0]] and (r, c) != pos and (r, c) not in specials
               and (r, c) not in fixed]
    return Teleport(rng.choice(targets)) if targets else None


def _ways_out(rows: int, cols: int, right: list[list[bool]], down: list[list[bool]],
              specials: dict[Pos, Special], pos: Pos) -> list[tuple[Pos, Pos]]:
    """(entered, standing) for each way out of ``pos`` that ``move`` lets the party take (MOVED or
    TELEPORTED), read from the walls and specials being generated rather than a built map: the generator
    asks this of every room after every special it tries, and building a map for each ask was most of a
    guild's creation (tests/darkness/engine/test_maze.py holds it to ``move`` on every room)."""
    r, c = pos
    here = specials.get(pos)
    only = here.direction if isinstance(here, RubberRoom) else None
    found = []
    for d, (dr, dc) in _DIRECTION_DELTAS:
        if only is not None and d is not only:
            continue  # a rubber room holds the party in every direction but its own
        nr, nc = r + dr, c + dc
        if not (0 <= nr < rows and 0 <= nc < cols):
            continue
        if dr:
            wall = down[min(r, nr)][c]
        else:
            wall = right[r][min(c, nc)]
        if wall:
            continue
        there = specials.get((nr, nc))
        found.append(((nr, nc), there.destination if isinstance(there, Teleport) else (nr, nc)))
    return found


_DIRECTION_DELTAS = tuple((d, d.delta) for d in DIRECTIONS)


def _sound(rows: int, cols: int, right: list[list[bool]], down: list[list[bool]],
           specials: dict[Pos, Special], entrance: Pos, heart: Pos) -> bool:
    """Every room is entered on some walk from the entrance, and the heart is reachable from anywhere
    the party can stand."""
    standing = {entrance}
    entered = {entrance}
    queue = deque([entrance])
    reverse: dict[Pos, list[Pos]] = {}
    while queue:
        pos = queue.popleft()
        for room, stand in _ways_out(rows, cols, right, down, specials, pos):
            entered.add(room)
            reverse.setdefault(stand, []).append(pos)
            if stand not in standing:
                standing.add(stand)
                queue.append(stand)
    if len(entered) != rows * cols:
        return False
    good = {heart}
    queue = deque([heart])
    while queue:
        pos = queue.popleft()
        for before in reverse.get(pos, []):
            if before not in good:
                good.add(before)
                queue.append(before)
    return standing <= good


# --- one move -----------------------------------------------------------------------------------


class MoveOutcome(Enum):
    MOVED = "moved"            # walked into the next room
    WALL = "wall"              # a wall: refused, nothing burns
    RUBBER = "rubber"          # a rubber room held the party: it walked and is where it was
    TELEPORTED = "teleported"  # walked into a teleport and stands on its destination


@dataclass(frozen=True)
class MoveResult:
    outcome: MoveOutcome
    position: Pos          # where the party stands afterwards
    entered: Pos | None    # the room walked into (the teleport itself when teleported)
    burn: int              # torch units this move burns: 1 per move, plus a stun cell's turns


def move(m: LabyrinthMap, pos: Pos, direction: Direction) -> MoveResult:
    """One move of a darkness party. A wall (the room's own walls are always known to the party) is
    refused even in a rubber room; otherwise the engine's ``step`` decides. Entering a stun cell
    burns its turns on top of the move's unit."""
    cell = (0, *pos)
    if has_wall(m, cell, direction):
        return MoveResult(MoveOutcome.WALL, pos, None, 0)
    result = step(m, cell, direction)
    if result.outcome is StepOutcome.RUBBER:
        return MoveResult(MoveOutcome.RUBBER, pos, None, 1)
    assert result.entered is not None
    entered = (result.entered[1], result.entered[2])
    there = (result.cell[1], result.cell[2])
    if result.outcome is StepOutcome.TELEPORTED:
        return MoveResult(MoveOutcome.TELEPORTED, there, entered, 1)
    special = m.special(result.entered)
    extra = special.turns if isinstance(special, Stun) else 0
    return MoveResult(MoveOutcome.MOVED, there, entered, 1 + extra)


# --- what a guild knows -------------------------------------------------------------------------


def known_rooms(maze: GuildMaze, visited: set[Pos]) -> list[dict[str, Any]]:
    """The visited rooms as a client may see them: position, section, what the room is, and its four
    sides (True: a wall). Nothing is said about any room not in ``visited``."""
    out = []
    for pos in sorted(visited):
        out.append({
            "row": pos[0], "col": pos[1], "section": maze.section(pos), "kind": maze.room_kind(pos),
            "walls": {d.value: has_wall(maze.map, (0, *pos), d) for d in DIRECTIONS},
        })
    return out


# --- what fills a room --------------------------------------------------------------------------


@dataclass(frozen=True)
class RoomWeights:
    """Relative chances of a room's content; enemies grow by ``enemy_per_section`` each section deeper."""

    enemy: float = 4.0
    enemy_per_section: float = 1.0
    trap: float = 2.0
    treasure: float = 2.0
    empty: float = 3.0


ROOM_CONTENTS = ("enemy", "trap", "treasure", "empty")


def room_content(section: int, weights: RoomWeights, rng: random.Random) -> str:
    """An ordinary room's content (one of ROOM_CONTENTS), drawn anew for each run."""
    values = [max(0.0, weights.enemy + weights.enemy_per_section * section), max(0.0, weights.trap),
              max(0.0, weights.treasure), max(0.0, weights.empty)]
    if sum(values) <= 0:
        return "empty"
    return rng.choices(ROOM_CONTENTS, weights=values, k=1)[0]
