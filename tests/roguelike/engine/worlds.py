"""Hand-made roguelike worlds for the rule tests: open floors unless walls are named."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from labyrinth.engine.grid import Cell, Direction, Field, LabyrinthMap, with_wall
from roguelike.engine import (
    ARSENAL_ITEMS,
    Building,
    Game,
    Item,
    Loot,
    Monster,
    MonsterKind,
    Player,
    Settings,
    World,
)
from roguelike.engine.model import with_exit

U, L, D, R = Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT


def world(rows: int = 3, cols: int = 3, floors: int = 1, *, walls: Iterable[tuple[Cell, Direction]] = (),
          buildings: Mapping[Cell, Building] | None = None, exit: tuple[Cell, Direction] = ((0, 0, 0), U),
          graveyard: Cell | None = None, portals: Iterable[Cell] = ()) -> World:
    maze = LabyrinthMap(tuple(Field.open(rows, cols) for _ in range(floors)))
    for cell, direction in walls:
        maze = with_wall(maze, cell, direction, True)
    maze = with_exit(maze, *exit)
    placed = dict(buildings or {})
    ring = tuple(portals)
    for cell in ring:
        placed[cell] = Building.PORTAL
    if graveyard is None:
        graveyard = next(cell for cell in ((f, r, c) for f in range(floors) for r in range(rows)
                                           for c in range(cols)) if cell not in placed)
    placed[graveyard] = Building.GRAVEYARD
    return World(maze=maze, buildings=tuple(placed.items()), portals=ring, exit_cell=exit[0],
                 exit_side=exit[1], graveyard=graveyard)


def dragon(cell: Cell, health: int = 5, ident: int = 0) -> Monster:
    return Monster(ident, MonsterKind.DRAGON, cell, health)


def archer(cell: Cell, facing: Direction, health: int = 5, ident: int = 1) -> Monster:
    return Monster(ident, MonsterKind.ARCHER, cell, health, facing)


def game(w: World | None = None, *, at: Cell = (0, 1, 1), settings: Settings | None = None,
         monsters: Iterable[Monster] = (), ground: Iterable[tuple[Cell, Loot]] = (),
         items: Iterable[Item] = (), stock: Iterable[Item] | None = None, **player: object) -> Game:
    s = settings or Settings()
    person = Player(cell=at, health=s.player_health, max_health=s.player_health, arrows=s.player_arrows,
                    bombs=s.player_bombs, slots=s.arsenal_slots, items=tuple(items))
    for key, value in player.items():
        person = Player(**{**person.__dict__, key: value})
    return Game(settings=s, world=w or world(), player=person, monsters=tuple(monsters), ground=tuple(ground),
                stock=tuple(ARSENAL_ITEMS if stock is None else stock), world_seed=0)
