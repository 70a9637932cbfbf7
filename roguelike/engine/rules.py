"""Seed 000's turn: the player's action, the cell's effects, then every monster attacks at once.

``play(game, action)`` returns ``Success(game, events)`` or ``Impossible(code, message)`` (a value:
nothing changes), as ``action_from_json`` returns the action or the ``Impossible`` of a malformed
one. Only GO, SHOOT, BOMB and BUILD (and the soft lock's WAIT) take a turn (section 8.1): an
arsenal item chosen or a lift ridden is answered at once, with no monster phase and no turn
counted. The turn has no random outcome, so it takes no random generator; the world's randomness
is all in ``generate``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TypeAlias

from gamekit.results import Impossible, Result, Success
from labyrinth.engine.grid import DIRECTIONS, Cell, Direction, neighbour, with_wall
from roguelike.engine.model import (
    LOOT_OF,
    Building,
    Game,
    Item,
    JSONValue,
    Loot,
    MonsterKind,
    Player,
    Side,
    World,
)

# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Go:
    direction: Direction


@dataclass(frozen=True)
class Shoot:
    direction: Direction


@dataclass(frozen=True)
class Bomb:
    direction: Direction


@dataclass(frozen=True)
class Build:
    direction: Direction


@dataclass(frozen=True)
class Take:
    """The arsenal's item choice (a button of the arsenal)."""

    item: Item


@dataclass(frozen=True)
class Ride:
    """The lift's floor choice (a button of the lift)."""

    floor: int


@dataclass(frozen=True)
class Wait:
    """Only when no action that takes a turn is allowed (walled in by one's own cement, no arrows, no
    bombs): the monsters act. The seed forbids skipping a turn but admits soft locks; see
    docs/roguelike.md."""


Action: TypeAlias = Go | Shoot | Bomb | Build | Take | Ride | Wait
_DIRECTED: Mapping[str, Callable[[Direction], Action]] = {
    "go": Go, "shoot": Shoot, "bomb": Bomb, "build": Build}


def action_to_json(action: Action) -> dict[str, JSONValue]:
    if isinstance(action, Take):
        return {"type": "take", "item": action.item.value}
    if isinstance(action, Ride):
        return {"type": "lift", "floor": action.floor}
    if isinstance(action, Wait):
        return {"type": "wait"}
    name = {Go: "go", Shoot: "shoot", Bomb: "bomb", Build: "build"}[type(action)]
    return {"type": name, "direction": action.direction.value}


def action_from_json(data: Mapping[str, JSONValue]) -> Action | Impossible:
    """``{"type": "go"|"shoot"|"bomb"|"build", "direction": "UP"|...}``, ``{"type": "take", "item": ...}``
    or ``{"type": "lift", "floor": n}`` (floors from 0); anything else is Impossible ``bad_action`` (a
    malformed input)."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in _DIRECTED:
        if set(data) != {"type", "direction"}:
            return _malformed(data, f"a {kind} action is {{type, direction}}")
        try:
            direction = Direction(data["direction"])
        except (ValueError, TypeError):
            return _malformed(data, "direction is UP, LEFT, DOWN or RIGHT")
        return _DIRECTED[kind](direction)
    if kind == "take":
        if set(data) != {"type", "item"}:
            return _malformed(data, "a take action is {type, item}")
        try:
            return Take(Item(data["item"]))
        except (ValueError, TypeError):
            return _malformed(data, "item is " + ", ".join(i.value for i in Item))
    if kind == "lift":
        floor = data.get("floor")
        if set(data) != {"type", "floor"} or not isinstance(floor, int) or isinstance(floor, bool):
            return _malformed(data, "a lift action is {type, floor} with a whole floor number")
        return Ride(floor)
    if kind == "wait":
        if set(data) != {"type"}:
            return _malformed(data, "a wait action is {type}")
        return Wait()
    return _malformed(data, "type is go, shoot, bomb, build, take, lift or wait")


def _malformed(data: Mapping[str, JSONValue], problem: str) -> Impossible:
    return Impossible("bad_action", problem, {"action": dict(data)}, kind="input")


# --- events and results ----------------------------------------------------------------------

Detail: TypeAlias = str | int | bool | None | tuple[str, ...]


@dataclass(frozen=True)
class Event:
    """One message of the seed, as a value: ``kind`` and its details."""

    kind: str
    details: tuple[tuple[str, Detail], ...] = ()

    def to_json(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {"kind": self.kind}
        for key, value in self.details:
            data[key] = list(value) if isinstance(value, tuple) else value
        return data


def event(kind: str, **details: Detail) -> Event:
    return Event(kind, tuple(details.items()))


# --- what the player may do ------------------------------------------------------------------


def _free_slots(player: Player) -> int:
    return player.slots - len(player.items)


def takes_turn(game: Game, action: Action) -> bool:
    """Whether ``action`` takes a turn (section 8.1: GO, SHOOT, BOMB, BUILD; and WAIT): the monsters act
    after it and the turn counter rises. An arsenal item chosen, a lift ridden (instant, 5.5) and a GO
    out of the exit without the gold (nothing happens, 3.1) take none."""
    if isinstance(action, (Take, Ride)):
        return False
    if isinstance(action, Go):
        return game.player.gold or game.world.side(game.player.cell, action.direction) is not Side.EXIT
    return True


def legal_actions(game: Game) -> list[Action]:
    """Every action the player may take now, in a stable order (none once the game is over); WAIT only
    when none of them takes a turn."""
    if game.over:
        return []
    world, player = game.world, game.player
    found: list[Action] = [Go(d) for d in DIRECTIONS if world.side(player.cell, d) in (Side.SPACE, Side.EXIT)]
    if player.arrows > 0:
        found += [Shoot(d) for d in DIRECTIONS]
    if player.bombs > 0:
        found += [Bomb(d) for d in DIRECTIONS]
    if Item.CEMENT in player.items:
        found += [Build(d) for d in DIRECTIONS if world.side(player.cell, d) is Side.SPACE]
    here = world.building(player.cell)
    if here is Building.ARSENAL and _free_slots(player) > 0:
        found += [Take(item) for item in Item if item in game.stock]
    if here is Building.LIFT:
        found += [Ride(f) for f in range(world.floors) if f != player.cell[0]]
    if not any(takes_turn(game, action) for action in found):
        found.append(Wait())  # the only way to let a turn pass: the monsters may end the soft lock
    return found


def check(game: Game, action: Action) -> Impossible | None:
    """Why ``action`` is refused now, or None when the rules allow it."""
    if game.over:
        return Impossible("game_over", "The game is over.")
    world, player = game.world, game.player
    if isinstance(action, Go):
        side = world.side(player.cell, action.direction)
        if side in (Side.WALL, Side.OUTER_WALL):
            return Impossible("wall", "A wall is there.")
    elif isinstance(action, Shoot):
        if player.arrows <= 0:
            return Impossible("no_arrows", "You have no arrows left.")
    elif isinstance(action, Bomb):
        if player.bombs <= 0:
            return Impossible("no_bombs", "You have no bombs left.")
    elif isinstance(action, Build):
        if Item.CEMENT not in player.items:
            return Impossible("no_cement", "Building a wall needs Cement.")
        side = world.side(player.cell, action.direction)
        if side is Side.EXIT:
            return Impossible("exit_not_buildable", "The exit cannot be walled up.")
        if side is not Side.SPACE:
            return Impossible("not_a_passage", "A wall is built only where there is a passage.")
    elif isinstance(action, Take):
        if world.building(player.cell) is not Building.ARSENAL:
            return Impossible("not_in_arsenal", "Items are chosen in an arsenal.")
        if _free_slots(player) <= 0:
            return Impossible("no_free_slot", "Every inventory slot is taken.")
        if action.item not in game.stock:
            return Impossible("item_not_in_arsenal", "The arsenal has none of that item now.")
    elif isinstance(action, Wait):
        if Wait() not in legal_actions(game):
            return Impossible("must_act", "Skipping a turn is allowed only when no action takes one.")
    else:
        if world.building(player.cell) is not Building.LIFT:
            return Impossible("not_in_lift", "Floors are chosen in the lift.")
        if not 0 <= action.floor < world.floors:
            return Impossible("no_such_floor", f"Floors are 0..{world.floors - 1}.")
        if action.floor == player.cell[0]:
            return Impossible("same_floor", "The lift is on that floor already.")
    return None


# --- the turn --------------------------------------------------------------------------------


class _Turn:
    """The turn being played: a private copy-on-write workspace; ``play`` returns a new Game from it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.settings = game.settings
        self.world: World = game.world
        self.player: Player = game.player
        self.monsters = list(game.monsters)
        self.ground = list(game.ground)
        self.stock = list(game.stock)
        self.events: list[Event] = []
        self.won = False
        self.lost = False

    def say(self, kind: str, **details: Detail) -> None:
        self.events.append(event(kind, **details))

    def done(self, turns: int) -> Success[Game, Event]:
        game = replace(self.game, world=self.world, player=self.player, monsters=tuple(self.monsters),
                       ground=tuple(self.ground), stock=tuple(self.stock), turn=self.game.turn + turns,
                       won=self.won, lost=self.lost)
        return Success(game, tuple(self.events))

    # damage (section 7.2), for one source at a time

    def hurt(self, source: str, damage: int) -> None:
        p = self.player
        if source == "mines" and Item.MINE_DETECTOR in p.items:
            self.say("mine_detected", source=source)
            return
        if Item.ARMOR in p.items:
            items = list(p.items)
            items.remove(Item.ARMOR)
            self.stock.append(Item.ARMOR)
            self.player = replace(p, items=tuple(items))
            self.say("armor_absorbed", source=source)
            return
        health = p.health - damage
        self.player = replace(p, health=health, items=())
        self.stock.extend(p.items)
        self.say("damage", source=source, damage=damage, health=health)
        if p.items:
            self.say("items_lost", items=tuple(item.value for item in p.items))
        if health <= 0:
            self.die()

    def die(self) -> None:
        deaths = self.player.deaths + 1
        self.player = replace(self.player, deaths=deaths)
        self.say("died", deaths=deaths)
        limit = self.settings.death_limit
        if limit and deaths >= limit:
            self.lost = True
            self.say("defeat", deaths=deaths, death_limit=limit)
            return
        health = max(1, self.player.max_health * self.settings.respawn_health_percent // 100)
        self.player = replace(self.player, cell=self.world.graveyard, health=health)
        self.say("respawned", health=health)
        self.describe()

    # what the player learns of the cell they stand on (fog of war: nothing else)

    def describe(self) -> None:
        cell = self.player.cell
        building = self.world.building(cell)
        sides = {d.value: _felt(self.world.side(cell, d)) for d in DIRECTIONS}
        self.say("cell", building=None if building is None else building.value, **sides)
        for monster in self.monsters:
            if monster.cell != cell:
                continue
            if monster.kind is MonsterKind.DRAGON:
                self.say("dragon_discovered")
            else:
                assert monster.facing is not None
                self.say("archer_discovered", facing=monster.facing.value)
        if building is Building.ARSENAL:
            self.say("arsenal_stock", items=tuple(sorted(item.value for item in self.stock)))
        elif building is Building.LIFT:
            self.say("lift_buttons", floor=cell[0], floors=self.world.floors)

    # phase 2: the cell's effects, on entering it

    def enter(self, cell: Cell, *, by_portal: bool = False) -> None:
        self.player = replace(self.player, cell=cell)
        building = self.world.building(cell)
        if building is Building.PORTAL and not by_portal:
            ring = self.world.portals
            target = ring[(ring.index(cell) + 1) % len(ring)]
            if target != cell:
                self.say("teleported")
                self.enter(target, by_portal=True)
                return
        self.describe()
        if building is Building.MINES:
            self.say("mine_exploded")
            deaths = self.player.deaths
            self.hurt("mines", self.settings.mine_damage)
            if self.player.deaths != deaths:
                return  # respawned (or defeated) elsewhere: nothing here is picked up
        elif building is Building.HOSPITAL:
            self.player = replace(self.player, health=self.player.max_health)
            self.say("healed", health=self.player.health)
        elif building is Building.ARSENAL:
            self.player = replace(self.player, arrows=max(self.player.arrows, self.settings.player_arrows),
                                  bombs=max(self.player.bombs, self.settings.player_bombs))
            self.say("rearmed", arrows=self.player.arrows, bombs=self.player.bombs)
        self.pick_up(cell)

    def pick_up(self, cell: Cell) -> None:
        kept = []
        for at, loot in self.ground:
            if at != cell:
                kept.append((at, loot))
                continue
            p = self.player
            if loot is Loot.GOLD:
                self.player = replace(p, gold=True)
            elif loot is Loot.DRAGON_RING:
                bonus = self.settings.dragon_ring_health_bonus
                self.player = replace(p, rings=p.rings + 1, max_health=p.max_health + bonus,
                                      health=p.health + bonus)
            else:
                self.player = replace(p, bags=p.bags + 1, slots=p.slots + self.settings.bag_slot_bonus)
            self.say("picked_up", loot=loot.value)
        self.ground = kept

    # phase 3: every monster attacks at once (aimed at where the player stands when the phase begins)

    def monsters_attack(self) -> None:
        target = self.player.cell
        hits: list[tuple[str, int]] = []
        for dragon in (m for m in self.monsters if m.kind is MonsterKind.DRAGON):
            if target in _fire(self.world, dragon.cell):
                hits.append(("dragon", self.settings.dragon_damage))
        for archer in (m for m in self.monsters if m.kind is MonsterKind.ARCHER):
            assert archer.facing is not None
            if target in _flight(self.world, archer.cell, archer.facing):
                hits.append(("archer", self.settings.archer_damage))
        deaths = self.player.deaths
        for source, damage in hits:
            if self.player.deaths != deaths or self.lost:
                break  # the rest was aimed at the cell where the player died
            self.hurt(source, damage)

    # phase 1: the action

    def act(self, action: Action) -> None:
        p = self.player
        if isinstance(action, Go):
            if self.world.side(p.cell, action.direction) is Side.EXIT:
                if p.gold:
                    self.won = True
                    self.say("victory")
                else:
                    self.say("exit_needs_gold")
                return
            there = neighbour(self.world.maze, p.cell, action.direction)
            assert there is not None
            self.say("moved", direction=action.direction.value)
            self.enter(there)
        elif isinstance(action, Shoot):
            self.shoot(action.direction)
        elif isinstance(action, Bomb):
            self.player = replace(p, bombs=p.bombs - 1)
            if self.world.side(p.cell, action.direction) is Side.WALL:
                maze = with_wall(self.world.maze, p.cell, action.direction, False)
                self.world = replace(self.world, maze=maze)
                self.say("wall_destroyed", direction=action.direction.value)
            else:
                self.say("bomb_no_effect", direction=action.direction.value)
        elif isinstance(action, Build):
            self.world = replace(self.world, maze=with_wall(self.world.maze, p.cell, action.direction, True))
            items = list(p.items)
            items.remove(Item.CEMENT)
            self.stock.append(Item.CEMENT)
            self.player = replace(p, items=tuple(items))
            self.say("wall_built", direction=action.direction.value)
        elif isinstance(action, Take):
            self.stock.remove(action.item)
            self.player = replace(p, items=(*p.items, action.item))
            self.say("item_taken", item=action.item.value)
        elif isinstance(action, Wait):
            self.say("waited")
        else:
            self.say("lift_moved", floor=action.floor)
            self.enter((action.floor, p.cell[1], p.cell[2]))

    def shoot(self, direction: Direction) -> None:
        p = self.player
        self.player = replace(p, arrows=p.arrows - 1)
        damage = self.settings.arrow_damage
        if Item.DOUBLEGUN in p.items:
            damage *= self.settings.doublegun_multiplier
        for cell in _flight(self.world, p.cell, direction):
            struck = next((m for m in self.monsters if m.cell == cell), None)
            if struck is None:
                continue
            health = struck.health - damage
            # no kind, no loot: a monster is known only on its cell or by its attack (13.2)
            self.say("monster_hit", damage=damage)
            index = self.monsters.index(struck)
            if health > 0:
                self.monsters[index] = replace(struck, health=health)
                return
            del self.monsters[index]
            loot = LOOT_OF[struck.kind]
            self.ground.append((cell, loot))
            self.say("monster_killed")
            return
        self.say("arrow_hit_wall", direction=direction.value)


def _felt(side: Side) -> str:
    """What the player feels of a side: an outer wall feels like any wall."""
    return Side.WALL.value if side is Side.OUTER_WALL else side.value


def _fire(world: World, cell: Cell) -> list[Cell]:
    """A dragon's fire: its own cell and each neighbour no wall shields (section 6.2)."""
    reached = [cell]
    for d in DIRECTIONS:
        if world.side(cell, d) is Side.SPACE:
            there = neighbour(world.maze, cell, d)
            assert there is not None
            reached.append(there)
    return reached


def _flight(world: World, cell: Cell, direction: Direction) -> list[Cell]:
    """The cells an arrow shot from ``cell`` crosses, in order, until a wall (portals ignored: 14.2)."""
    crossed = []
    while world.side(cell, direction) is Side.SPACE:
        there = neighbour(world.maze, cell, direction)
        assert there is not None
        cell = there
        crossed.append(cell)
    return crossed


def play(game: Game, action: Action) -> Result[Game, Event]:
    """One turn of section 8: the action, the cell's effects on entering, then the monsters' attacks;
    an action that takes no turn (``takes_turn``) is only the action and its cell's effects."""
    refused = check(game, action)
    if refused is not None:
        return refused
    turn = _Turn(game)
    turn.act(action)
    if not takes_turn(game, action):
        return turn.done(turns=0)
    if not turn.won and not turn.lost:
        turn.monsters_attack()
    return turn.done(turns=1)


def view(game: Game) -> dict[str, JSONValue]:
    """What the player knows now (section 13): their own state and their cell, never the map."""
    p, world = game.player, game.world
    cell = p.cell
    building = world.building(cell)
    here: dict[str, JSONValue] = {
        "building": None if building is None else building.value,
        "sides": {d.value: _felt(world.side(cell, d)) for d in DIRECTIONS},
        "monsters": [{"kind": m.kind.value, **({} if m.facing is None else {"facing": m.facing.value})}
                     for m in game.monsters_at(cell)],
    }
    if building is Building.ARSENAL:
        here["arsenal"] = sorted(item.value for item in game.stock)
    if building is Building.LIFT:
        here["lift"] = {"floor": cell[0], "floors": world.floors}
    return {
        "health": p.health, "max_health": p.max_health, "arrows": p.arrows, "bombs": p.bombs,
        "slots": p.slots, "items": [item.value for item in p.items], "gold": p.gold, "rings": p.rings,
        "bags": p.bags, "deaths": p.deaths, "death_limit": game.settings.death_limit, "turn": game.turn,
        "won": game.won, "lost": game.lost, "here": here,
    }
