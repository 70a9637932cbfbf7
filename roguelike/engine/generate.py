"""Seed 000's world generator: the same seed gives the same labyrinth, and every labyrinth is playable.

Each floor is a random spanning tree of its cells (so every cell of a floor is reachable without
a bomb) with a few more walls knocked out for loops; the lift joins the floors. The generator then
checks, with ``reachable``, that the gold, the exit and every arsenal can be reached from the
spawn (portals may cut corridors: a portal cell cannot be walked through), and draws again if not.
"""
from __future__ import annotations

import random
from collections import deque

from labyrinth.engine.grid import DIRECTIONS, Cell, Direction, LabyrinthMap, neighbour, with_wall
from roguelike.engine.model import (
    ARSENAL_ITEMS,
    FLOOR_RANGE,
    SIDE_RANGE,
    Building,
    Game,
    Loot,
    Monster,
    MonsterKind,
    Player,
    Settings,
    Side,
    SpawnLocation,
    World,
    buildings_needed,
    empty_floor,
    with_exit,
)

MAX_ATTEMPTS = 100
#: the share of a floor's inner walls (beyond the spanning tree) knocked out for loops
LOOP_SHARE = 0.15


class GenerationError(RuntimeError):
    """The settings leave no room for the buildings, or no playable labyrinth was drawn."""


def _carve(rng: random.Random, maze: LabyrinthMap, floor: int) -> LabyrinthMap:
    """A random spanning tree of the floor's cells (iterative depth-first search)."""
    start = (floor, rng.randrange(maze.fields[floor].rows), rng.randrange(maze.fields[floor].cols))
    seen = {start}
    stack = [start]
    while stack:
        cell = stack[-1]
        options = [(d, n) for d in DIRECTIONS
                   if (n := neighbour(maze, cell, d)) is not None and n not in seen]
        if not options:
            stack.pop()
            continue
        direction, there = rng.choice(options)
        maze = with_wall(maze, cell, direction, False)
        seen.add(there)
        stack.append(there)
    rows, cols = maze.fields[floor].rows, maze.fields[floor].cols
    inner = [((floor, r, c), d) for r in range(rows) for c in range(cols)
             for d in (Direction.RIGHT, Direction.DOWN) if neighbour(maze, (floor, r, c), d) is not None]
    for cell, direction in rng.sample(inner, int(len(inner) * LOOP_SHARE)):
        maze = with_wall(maze, cell, direction, False)
    return maze


def _boundary_sides(rows: int, cols: int) -> list[tuple[int, int, Direction]]:
    sides = [(0, c, Direction.UP) for c in range(cols)] + [(rows - 1, c, Direction.DOWN) for c in range(cols)]
    sides += [(r, 0, Direction.LEFT) for r in range(rows)]
    sides += [(r, cols - 1, Direction.RIGHT) for r in range(rows)]
    return sides


def _near(a: Cell, b: Cell) -> bool:
    return a[0] == b[0] and abs(a[1] - b[1]) + abs(a[2] - b[2]) <= 1


def _draw(settings: Settings, rng: random.Random, world_seed: int) -> Game:
    rows = settings.height or rng.randint(*SIDE_RANGE)
    cols = settings.width or rng.randint(*SIDE_RANGE)
    floors = settings.floors or rng.randint(*FLOOR_RANGE)
    cells = [(f, r, c) for f in range(floors) for r in range(rows) for c in range(cols)]
    if buildings_needed(settings, floors) > len(cells):
        raise GenerationError("the buildings do not fit in the labyrinth")
    maze = LabyrinthMap(tuple(empty_floor(rows, cols) for _ in range(floors)))
    for floor in range(floors):
        maze = _carve(rng, maze, floor)
    exit_floor = rng.randrange(floors)
    exit_row, exit_col, exit_side = rng.choice(_boundary_sides(rows, cols))
    exit_cell = (exit_floor, exit_row, exit_col)
    maze = with_exit(maze, exit_cell, exit_side)

    buildings: list[tuple[Cell, Building]] = []
    if floors > 1:
        r, c = rng.randrange(rows), rng.randrange(cols)
        buildings += [((f, r, c), Building.LIFT) for f in range(floors)]
    taken = {cell for cell, _ in buildings}
    free = [cell for cell in cells if cell not in taken]
    rng.shuffle(free)
    wanted = ([Building.GRAVEYARD] + [Building.ARSENAL] * settings.arsenal_count
              + [Building.HOSPITAL] * settings.hospital_count + [Building.MINES] * settings.mine_count
              + [Building.PORTAL] * settings.portal_count)
    buildings += list(zip(free, wanted))
    graveyard = free[0]
    portals = tuple(cell for cell, b in buildings if b is Building.PORTAL)
    world = World(maze=maze, buildings=tuple(buildings), portals=portals, exit_cell=exit_cell,
                  exit_side=exit_side, graveyard=graveyard)

    if settings.spawn_location is SpawnLocation.GRAVEYARD:
        spawn = graveyard
    else:
        spawn = rng.choice([cell for cell in cells if world.building(cell) is None] or cells)
    gold = rng.choice([cell for cell in cells if cell != spawn])
    safe = [cell for cell in cells if not _near(cell, spawn) and not _near(cell, graveyard)]
    apart = [cell for cell in cells if cell not in (spawn, graveyard)]
    monsters = []
    for ident in range(settings.dragon_count):
        cell = rng.choice(safe or apart or cells)
        monsters.append(Monster(ident, MonsterKind.DRAGON, cell, settings.dragon_health))
    for ident in range(settings.dragon_count, settings.dragon_count + settings.archer_count):
        cell = rng.choice(apart or cells)
        facing = rng.choice(DIRECTIONS)
        monsters.append(Monster(ident, MonsterKind.ARCHER, cell, settings.archer_health, facing))
    player = Player(cell=spawn, health=settings.player_health, max_health=settings.player_health,
                    arrows=settings.player_arrows, bombs=settings.player_bombs, slots=settings.arsenal_slots)
    stock = tuple(item for _ in range(settings.arsenal_count) for item in ARSENAL_ITEMS)
    return Game(settings=settings, world=world, player=player, monsters=tuple(monsters),
                ground=((gold, Loot.GOLD),), stock=stock, world_seed=world_seed)


def generate(settings: Settings, world_seed: int) -> Game:
    """A new game from the settings, all drawn from ``random.Random(world_seed)``: same seed, same game."""
    rng = random.Random(world_seed)
    for _ in range(MAX_ATTEMPTS):
        game = _draw(settings, rng, world_seed)
        if playable(game):
            return game
    raise GenerationError(f"no playable labyrinth in {MAX_ATTEMPTS} draws")


def gold_cell(game: Game) -> Cell | None:
    return next((cell for cell, loot in game.ground if loot is Loot.GOLD), None)


def reachable(world: World, start: Cell, bombs: int, refill: int) -> set[Cell]:
    """Every cell the player can stand on from ``start`` by walking, portals, the lift and ``bombs`` bombs
    (an arsenal refills them to ``refill``); monsters are ignored."""
    best: dict[Cell, int] = {}
    queue: deque[tuple[Cell, int]] = deque()

    def arrive(cell: Cell, left: int, by_portal: bool = False) -> None:
        building = world.building(cell)
        if building is Building.PORTAL and not by_portal:
            ring = world.portals
            arrive(ring[(ring.index(cell) + 1) % len(ring)], left, True)
            return
        if building is Building.ARSENAL:
            left = max(left, refill)
        if best.get(cell, -1) < left:
            best[cell] = left
            queue.append((cell, left))

    best[start] = bombs
    queue.append((start, bombs))
    while queue:
        cell, left = queue.popleft()
        if best[cell] > left:
            continue
        for d in DIRECTIONS:
            there = neighbour(world.maze, cell, d)
            if there is None:
                continue
            side = world.side(cell, d)
            if side is Side.SPACE:
                arrive(there, left)
            elif side is Side.WALL and left > 0:
                arrive(there, left - 1)
        if world.building(cell) is Building.LIFT:
            for f in range(world.floors):
                if f != cell[0]:
                    arrive((f, cell[1], cell[2]), left)
    return set(best)


def playable(game: Game) -> bool:
    """The gold, the exit and every arsenal are reachable from where the player stands with their bombs."""
    world = game.world
    reached = reachable(world, game.player.cell, game.player.bombs, game.settings.player_bombs)
    gold = gold_cell(game)
    needed = {world.exit_cell, *(cell for cell, b in world.buildings if b is Building.ARSENAL)}
    if gold is not None:
        needed.add(gold)
    return needed <= reached
