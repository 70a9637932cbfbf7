"""Seed 000's roguelike: the values of a game (settings, world, player, monsters) and their JSON.

The walls of every floor are a ``labyrinth.engine`` field (a floor is a field; the one exit is an
``Exit`` special on its cell); everything the grid model does not know (buildings, gold, monsters,
the arsenal's stock) lives next to it in these frozen values.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any, TypeAlias

from labyrinth.engine.grid import Cell, Direction, Exit, Field, LabyrinthMap, has_wall, neighbour

GENERATOR_VERSION = 1
SIDE_RANGE = (3, 8)
FLOOR_RANGE = (1, 3)

JSONValue: TypeAlias = Any


class Building(Enum):
    """The buildings of section 5; one per cell."""

    ARSENAL = "arsenal"
    HOSPITAL = "hospital"
    PORTAL = "portal"
    MINES = "mines"
    LIFT = "lift"
    GRAVEYARD = "graveyard"


class Item(Enum):
    """The arsenal's items (section 4.2): chosen in an arsenal, they take a slot."""

    ARMOR = "armor"
    DOUBLEGUN = "doublegun"
    MINE_DETECTOR = "mine_detector"
    CEMENT = "cement"


ARSENAL_ITEMS: tuple[Item, ...] = (Item.DOUBLEGUN, Item.ARMOR, Item.MINE_DETECTOR, Item.CEMENT)


class Loot(Enum):
    """What lies on a cell and is picked up on entering it (section 4.1)."""

    GOLD = "gold"
    DRAGON_RING = "dragon_ring"
    BAG = "bag"


class MonsterKind(Enum):
    DRAGON = "dragon"
    ARCHER = "archer"


LOOT_OF: Mapping[MonsterKind, Loot] = {MonsterKind.DRAGON: Loot.DRAGON_RING, MonsterKind.ARCHER: Loot.BAG}


class Side(Enum):
    """What one side of a cell is (section 1.2)."""

    SPACE = "space"
    WALL = "wall"
    OUTER_WALL = "outer_wall"
    EXIT = "exit"


class SpawnLocation(Enum):
    GRAVEYARD = "graveyard"
    RANDOM = "random"


@dataclass(frozen=True)
class Settings:
    """The 26 parameters of the seed's section 12, with its defaults (None: drawn at random)."""

    seed: int | None = None
    width: int | None = None
    height: int | None = None
    floors: int | None = None
    player_health: int = 5
    player_arrows: int = 5
    player_bombs: int = 2
    arsenal_slots: int = 1
    dragon_count: int = 2
    dragon_health: int = 5
    dragon_damage: int = 1
    archer_count: int = 0
    archer_health: int = 5
    archer_damage: int = 1
    portal_count: int = 5
    mine_count: int = 1
    mine_damage: int = 1
    hospital_count: int = 1
    arsenal_count: int = 1
    death_limit: int = 0
    respawn_health_percent: int = 80
    arrow_damage: int = 1
    doublegun_multiplier: int = 2
    dragon_ring_health_bonus: int = 1
    bag_slot_bonus: int = 1
    spawn_location: SpawnLocation = SpawnLocation.GRAVEYARD

    def to_json(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["spawn_location"] = self.spawn_location.value
        return data


#: each parameter's smallest value (section 12's ranges); None: no upper limit
MINIMUMS: Mapping[str, int] = {
    "width": SIDE_RANGE[0], "height": SIDE_RANGE[0], "floors": FLOOR_RANGE[0],
    "player_health": 1, "player_arrows": 0, "player_bombs": 0, "arsenal_slots": 1,
    "dragon_count": 0, "dragon_health": 1, "dragon_damage": 1, "archer_count": 0, "archer_health": 1,
    "archer_damage": 1, "portal_count": 0, "mine_count": 0, "mine_damage": 1, "hospital_count": 0,
    "arsenal_count": 0, "death_limit": 0, "respawn_health_percent": 1, "arrow_damage": 1,
    "doublegun_multiplier": 1, "dragon_ring_health_bonus": 0, "bag_slot_bonus": 0,
}
MAXIMUMS: Mapping[str, int] = {"width": SIDE_RANGE[1], "height": SIDE_RANGE[1], "floors": FLOOR_RANGE[1],
                               "respawn_health_percent": 100}
#: a sanity bound on the unbounded numbers ("1+", "0+") so a typo cannot build a monster of a game
UNBOUNDED_LIMIT = 1000
NULLABLE = frozenset({"seed", "width", "height", "floors"})
SEED_LIMIT = 2**63 - 1


class SettingsError(ValueError):
    """Bad settings: ``name`` is the parameter, the message says what is wrong."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def settings_from_json(data: Mapping[str, JSONValue]) -> Settings:
    """Settings from JSON (missing keys take the seed's defaults); SettingsError on an unknown or bad one."""
    known = {f.name for f in fields(Settings)}
    for name in data:
        if name not in known:
            raise SettingsError(str(name), "unknown parameter")
    values: dict[str, JSONValue] = {}
    for name, value in data.items():
        if name == "spawn_location":
            try:
                values[name] = SpawnLocation(value)
            except ValueError:
                raise SettingsError(name, "is 'graveyard' or 'random'") from None
            continue
        if value is None:
            if name not in NULLABLE:
                raise SettingsError(name, "must be a number")
            values[name] = None
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise SettingsError(name, "must be a whole number")
        if name == "seed":
            if not 0 <= value <= SEED_LIMIT:
                raise SettingsError(name, f"is 0..{SEED_LIMIT}")
        else:
            low, high = MINIMUMS[name], MAXIMUMS.get(name, UNBOUNDED_LIMIT)
            if not low <= value <= high:
                raise SettingsError(name, f"is {low}..{high}")
        values[name] = value
    settings = Settings(**values)
    width, height = settings.width or SIDE_RANGE[0], settings.height or SIDE_RANGE[0]
    floors = settings.floors or FLOOR_RANGE[0]
    if buildings_needed(settings, floors) > width * height * floors:
        raise SettingsError("portal_count", "the buildings do not fit in the smallest labyrinth "
                                            "these settings allow")
    return settings


def buildings_needed(settings: Settings, floors: int) -> int:
    """Cells the buildings take: the counted ones, one graveyard and a lift cell per floor when floors > 1."""
    lift = floors if floors > 1 else 0
    return (settings.portal_count + settings.mine_count + settings.hospital_count + settings.arsenal_count
            + 1 + lift)


@dataclass(frozen=True)
class Monster:
    """A dragon or an archer; an archer shoots in ``facing`` every turn."""

    ident: int
    kind: MonsterKind
    cell: Cell
    health: int
    facing: Direction | None = None


@dataclass(frozen=True)
class Player:
    cell: Cell
    health: int
    max_health: int
    arrows: int
    bombs: int
    slots: int
    items: tuple[Item, ...] = ()
    gold: bool = False
    rings: int = 0
    bags: int = 0
    deaths: int = 0


@dataclass(frozen=True)
class World:
    """The fixed part of a labyrinth: the walls (``maze``, changed only by bombs and cement) and buildings.

    ``portals`` is the ring in order (portal i leads to portal i+1, the last to the first); the
    lift shaft is the cells holding ``Building.LIFT`` (one per floor, the same row and column).
    """

    maze: LabyrinthMap
    buildings: tuple[tuple[Cell, Building], ...]
    portals: tuple[Cell, ...]
    exit_cell: Cell
    exit_side: Direction
    graveyard: Cell
    _by_cell: Mapping[Cell, Building] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_cell", dict(self.buildings))
        if len(self._by_cell) != len(self.buildings):
            raise ValueError("one building per cell")

    @property
    def floors(self) -> int:
        return len(self.maze.fields)

    @property
    def rows(self) -> int:
        return self.maze.fields[0].rows

    @property
    def cols(self) -> int:
        return self.maze.fields[0].cols

    def building(self, cell: Cell) -> Building | None:
        return self._by_cell.get(cell)

    def cells(self) -> list[Cell]:
        return [(f, r, c) for f in range(self.floors) for r in range(self.rows) for c in range(self.cols)]

    def side(self, cell: Cell, direction: Direction) -> Side:
        if cell == self.exit_cell and direction is self.exit_side:
            return Side.EXIT
        if neighbour(self.maze, cell, direction) is None:
            return Side.OUTER_WALL
        return Side.WALL if has_wall(self.maze, cell, direction) else Side.SPACE


@dataclass(frozen=True)
class Game:
    """A whole game: its settings, world, player, monsters, what lies on cells, the arsenal's stock."""

    settings: Settings
    world: World
    player: Player
    monsters: tuple[Monster, ...]
    ground: tuple[tuple[Cell, Loot], ...]
    stock: tuple[Item, ...]
    world_seed: int
    turn: int = 0
    won: bool = False
    lost: bool = False
    generator_version: int = GENERATOR_VERSION

    @property
    def over(self) -> bool:
        return self.won or self.lost

    def monsters_at(self, cell: Cell) -> tuple[Monster, ...]:
        return tuple(m for m in self.monsters if m.cell == cell)

    def loot_at(self, cell: Cell) -> tuple[Loot, ...]:
        return tuple(loot for at, loot in self.ground if at == cell)


def empty_floor(rows: int, cols: int) -> Field:
    return Field.closed(rows, cols)


def with_exit(maze: LabyrinthMap, cell: Cell, side: Direction) -> LabyrinthMap:
    f, r, c = cell
    fld = maze.fields[f]
    cells = tuple(tuple(Exit(side) if (r, c) == (row, col) else None for col in range(fld.cols))
                  for row in range(fld.rows))
    return replace(maze, fields=maze.fields[:f] + (replace(fld, cells=cells),) + maze.fields[f + 1:])


# --- JSON ------------------------------------------------------------------------------------


def _cell(value: JSONValue) -> Cell:
    f, r, c = value
    return (int(f), int(r), int(c))


def _bits(grid: tuple[tuple[bool, ...], ...]) -> list[str]:
    return ["".join("1" if wall else "0" for wall in line) for line in grid]


def _unbits(lines: JSONValue) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(ch == "1" for ch in line) for line in lines)


def game_to_json(game: Game) -> dict[str, JSONValue]:
    world, player = game.world, game.player
    return {
        "generator_version": game.generator_version, "world_seed": game.world_seed, "turn": game.turn,
        "won": game.won, "lost": game.lost, "settings": game.settings.to_json(),
        "world": {
            "rows": world.rows, "cols": world.cols,
            "floors": [{"right": _bits(f.right), "down": _bits(f.down)} for f in world.maze.fields],
            "buildings": [[list(cell), building.value] for cell, building in world.buildings],
            "portals": [list(cell) for cell in world.portals],
            "exit": [list(world.exit_cell), world.exit_side.value], "graveyard": list(world.graveyard),
        },
        "player": {
            "cell": list(player.cell), "health": player.health, "max_health": player.max_health,
            "arrows": player.arrows, "bombs": player.bombs, "slots": player.slots,
            "items": [item.value for item in player.items], "gold": player.gold, "rings": player.rings,
            "bags": player.bags, "deaths": player.deaths,
        },
        "monsters": [{"id": m.ident, "kind": m.kind.value, "cell": list(m.cell), "health": m.health,
                      "facing": None if m.facing is None else m.facing.value} for m in game.monsters],
        "ground": [[list(cell), loot.value] for cell, loot in game.ground],
        "stock": [item.value for item in game.stock],
    }


def game_from_json(data: Mapping[str, JSONValue]) -> Game:
    w, p = data["world"], data["player"]
    rows, cols = int(w["rows"]), int(w["cols"])
    floors = tuple(Field(rows, cols, _unbits(f["right"]), _unbits(f["down"]),
                         tuple((None,) * cols for _ in range(rows))) for f in w["floors"])
    exit_cell, exit_side = _cell(w["exit"][0]), Direction(w["exit"][1])
    world = World(
        maze=with_exit(LabyrinthMap(floors), exit_cell, exit_side),
        buildings=tuple((_cell(cell), Building(b)) for cell, b in w["buildings"]),
        portals=tuple(_cell(cell) for cell in w["portals"]),
        exit_cell=exit_cell, exit_side=exit_side, graveyard=_cell(w["graveyard"]),
    )
    player = Player(cell=_cell(p["cell"]), health=p["health"], max_health=p["max_health"], arrows=p["arrows"],
                    bombs=p["bombs"], slots=p["slots"], items=tuple(Item(i) for i in p["items"]),
                    gold=p["gold"],
                    rings=p["rings"], bags=p["bags"], deaths=p["deaths"])
    monsters = tuple(Monster(ident=m["id"], kind=MonsterKind(m["kind"]), cell=_cell(m["cell"]),
                             health=m["health"],
                             facing=None if m["facing"] is None else Direction(m["facing"]))
                     for m in data["monsters"])
    return Game(settings=settings_from_json(data["settings"]), world=world, player=player, monsters=monsters,
                ground=tuple((_cell(cell), Loot(loot)) for cell, loot in data["ground"]),
                stock=tuple(Item(i) for i in data["stock"]), world_seed=data["world_seed"], turn=data["turn"],
                won=data["won"], lost=data["lost"], generator_version=data["generator_version"])

