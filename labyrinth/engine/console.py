"""Seed 003's console Labyrinth as pure rules: hidden starts, moves, shots, key, stuns, dreams.

The game master's answers are events addressed to one player (``Event.player``) or to everyone
(``player`` None, only the win); a client shows each player only their own. Every random draw
(random start positions) comes from the injected ``random.Random``. See docs/labyrinth.md,
"Seed 003's game", for the rules as built and the decisions on the seed's gaps.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, ClassVar

from labyrinth.engine.grid import (
    Armory,
    Cell,
    Direction,
    Key,
    LabyrinthMap,
    Sleep,
    StepOutcome,
    Stun,
    has_wall,
    neighbour,
    step,
)

# The seed: "меньше 3х патронов ... становится равно 3м (максимум)".
MAX_AMMO = 3
# The seed: a shot player "пропускает один ход, будучи оглушённым".
SKIPPED_TURNS_AFTER_DEATH = 1

HELP_TEXT = (
    "W / A / S / D - step up / left / down / right (one turn)\n"
    "X <W/A/S/D>  - shoot in that direction (one turn; a turn is spent only with a bullet)\n"
    "E            - your inventory (free)\n"
    "?            - this help (free)\n"
    "Commands are case-insensitive."
)

_LETTERS = {Direction.UP: "W", Direction.LEFT: "A", Direction.DOWN: "S", Direction.RIGHT: "D"}


class StartPositionError(ValueError):
    """A start position that is not a cell of field 0."""


# --- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    direction: Direction


@dataclass(frozen=True)
class Shoot:
    direction: Direction


@dataclass(frozen=True)
class ShowInventory:
    pass


@dataclass(frozen=True)
class ShowHelp:
    pass


Command = Move | Shoot | ShowInventory | ShowHelp

_COMMAND = re.compile(r"^\s*(?:(?P<move>[wasd])|x\s*(?P<shot>[wasd])|(?P<inv>e)|(?P<help>\?))\s*$",
                      re.IGNORECASE)


def parse_command(text: str) -> Command | None:
    """The command a player typed (any case: ``w``, ``X d``, ``xD``, ``e``, ``?``), or None."""
    found = _COMMAND.match(text)
    if found is None:
        return None
    if found["move"]:
        return Move(Direction.from_wasd(found["move"]))
    if found["shot"]:
        return Shoot(Direction.from_wasd(found["shot"]))
    if found["inv"]:
        return ShowInventory()
    return ShowHelp()


def command_text(command: Command) -> str:
    """The canonical text of a command (the inverse of ``parse_command``)."""
    if isinstance(command, Move):
        return _LETTERS[command.direction]
    if isinstance(command, Shoot):
        return f"X {_LETTERS[command.direction]}"
    return "E" if isinstance(command, ShowInventory) else "?"


# --- events: the game master's answers ----------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One answer of the game master; ``player`` is the only one who hears it (None: everyone)."""

    kind: ClassVar[str] = "event"
    player: int | None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            data[f.name] = getattr(self, f.name)
        return data


@dataclass(frozen=True)
class Moved(Event):
    """The step succeeded, or the player stands in a rubber room and is lied to."""

    kind: ClassVar[str] = "moved"


@dataclass(frozen=True)
class HitWall(Event):
    kind: ClassVar[str] = "wall"


@dataclass(frozen=True)
class Stunned(Event):
    kind: ClassVar[str] = "stunned"
    turns: int


@dataclass(frozen=True)
class TurnSkipped(Event):
    """At the start of a stunned player's turn: this turn is lost, ``remaining`` more after it."""

    kind: ClassVar[str] = "turn_skipped"
    remaining: int


@dataclass(frozen=True)
class Teleported(Event):
    kind: ClassVar[str] = "teleported"


@dataclass(frozen=True)
class ArmoryVisited(Event):
    kind: ClassVar[str] = "armory"
    ammo: int


@dataclass(frozen=True)
class KeyFound(Event):
    kind: ClassVar[str] = "key_found"


@dataclass(frozen=True)
class ExitLocked(Event):
    """The player tried to leave through the exit without the key."""

    kind: ClassVar[str] = "exit_locked"


@dataclass(frozen=True)
class NoAmmo(Event):
    """The shot did not happen (the turn is not spent)."""

    kind: ClassVar[str] = "no_ammo"


@dataclass(frozen=True)
class ShotFired(Event):
    kind: ClassVar[str] = "shot"
    hit: bool
    ammo: int


@dataclass(frozen=True)
class Killed(Event):
    """The player (``in_dream``: their spirit in a dream) was shot."""

    kind: ClassVar[str] = "killed"
    in_dream: bool


@dataclass(frozen=True)
class WokeUp(Event):
    """The dream ended; the real inventory (not how long they slept, nor where they are)."""

    kind: ClassVar[str] = "woke_up"
    ammo: int
    has_key: bool


@dataclass(frozen=True)
class InventoryShown(Event):
    kind: ClassVar[str] = "inventory"
    ammo: int
    has_key: bool


@dataclass(frozen=True)
class HelpShown(Event):
    kind: ClassVar[str] = "help"
    text: str


@dataclass(frozen=True)
class Won(Event):
    """Public: ``winner`` left the labyrinth; the game is over for everyone."""

    kind: ClassVar[str] = "won"
    winner: int


def describe(event: Event) -> str:
    """The game master's answer as a sentence for the player who hears it."""
    if isinstance(event, Moved):
        return "You moved."
    if isinstance(event, HitWall):
        return "A wall: you stay where you are."
    if isinstance(event, Stunned):
        return f"You are stunned: you will skip your next {event.turns} turn(s)."
    if isinstance(event, TurnSkipped):
        return f"You are stunned and skip this turn; {event.remaining} more to skip after it."
    if isinstance(event, Teleported):
        return "You were teleported."
    if isinstance(event, ArmoryVisited):
        return f"An armory: you have {event.ammo} bullets."
    if isinstance(event, KeyFound):
        return "You found the key and picked it up."
    if isinstance(event, ExitLocked):
        return "This is the exit, but it is locked: you need the key."
    if isinstance(event, NoAmmo):
        return "You have no bullets (your turn is not spent)."
    if isinstance(event, ShotFired):
        return f"Bang! {'You hit someone' if event.hit else 'You missed'}. Bullets left: {event.ammo}."
    if isinstance(event, Killed):
        if event.in_dream:
            return "You were shot!"
        return "You were shot! You are back at your start with an empty inventory and skip your next turn."
    if isinstance(event, (WokeUp, InventoryShown)):
        key = "the key" if event.has_key else "no key"
        opening = "You wake up. Your inventory" if isinstance(event, WokeUp) else "Inventory"
        return f"{opening}: {event.ammo} bullets, {key}."
    if isinstance(event, HelpShown):
        return event.text
    if isinstance(event, Won):
        return f"Player {event.winner + 1} found the way out and wins! The game is over."
    raise ValueError(f"unknown event {event!r}")


def events_for(events: Iterable[Event], player: int) -> list[Event]:
    """The events ``player`` hears: their own answers and the public ones."""
    return [e for e in events if e.player is None or e.player == player]


# --- state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dream:
    """One level of sleep: where the player wakes, the turns left, and the inventory to restore."""

    wake_cell: Cell
    turns_left: int
    ammo: int
    keys: int


@dataclass(frozen=True)
class PlayerState:
    """``cell``, ``ammo``, ``keys`` are the player's (their spirit's, while ``dreams`` is not empty)."""

    start: Cell
    cell: Cell
    ammo: int = 0
    keys: int = 0
    stun: int = 0
    dreams: tuple[Dream, ...] = ()

    @property
    def body(self) -> Cell:
        """Where the player's real body stands (on field 0)."""
        return self.dreams[0].wake_cell if self.dreams else self.cell


@dataclass(frozen=True)
class ConsoleGame:
    """The whole game: the hidden map, every player, the keys lying on the ground, whose turn."""

    map: LabyrinthMap
    players: tuple[PlayerState, ...]
    keys_on_ground: tuple[Cell, ...] = ()
    turn: int = 0
    turns_played: int = 0
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def awaiting(self) -> int | None:
        """The player who must type a command now; None once somebody has won."""
        return None if self.over else self.turn


# --- the keys --------------------------------------------------------------------------------------


def _key_cells(m: LabyrinthMap) -> tuple[Cell, ...]:
    return tuple(cell for cell, special in m.specials() if isinstance(special, Key))


# --- creating a game ----------------------------------------------------------------------------


def random_start(m: LabyrinthMap, rng: Random) -> Cell:
    """A random start cell: an empty (not special) cell of field 0, or any cell of field 0 if none."""
    cells = list(m.cells(0))
    plain = [c for c in cells if m.special(c) is None]
    return rng.choice(plain or cells)


def start_cell(m: LabyrinthMap, position: tuple[int, int]) -> Cell:
    """Seed 003's 2D start ``(r, c)`` as a cell of field 0, or StartPositionError."""
    row, col = position
    if not m.contains((0, row, col)):
        field0 = m.fields[0]
        raise StartPositionError(f"({row}, {col}) is not on the {field0.rows}x{field0.cols} field")
    return (0, row, col)


def new_game(m: LabyrinthMap, starts: Sequence[tuple[int, int] | None], rng: Random) -> ConsoleGame:
    """A game for ``len(starts)`` players; a None start is drawn at random (in player order).

    A player who starts on a key holds it (the first of them, when several start there).
    """
    if not starts:
        raise ValueError("a game needs at least one player")
    cells = [start_cell(m, s) if s is not None else random_start(m, rng) for s in starts]
    keys = list(_key_cells(m))
    players = []
    for cell in cells:
        held = keys.count(cell)
        keys = [k for k in keys if k != cell]
        players.append(PlayerState(start=cell, cell=cell, keys=held))
    return ConsoleGame(map=m, players=tuple(players), keys_on_ground=tuple(sorted(keys)))


# --- as JSON (the map is stored apart, as its text) ---------------------------------------------


def _cell(value: Sequence[int]) -> Cell:
    field_index, row, col = value
    return (int(field_index), int(row), int(col))


def game_to_dict(game: ConsoleGame) -> dict[str, Any]:
    """Everything but the map, as JSON values; ``game_from_dict(game.map, d)`` gives the game back."""
    return {
        "players": [{"start": list(p.start), "cell": list(p.cell), "ammo": p.ammo, "keys": p.keys,
                     "stun": p.stun, "dreams": [{"wake_cell": list(d.wake_cell), "turns_left": d.turns_left,
                                                 "ammo": d.ammo, "keys": d.keys} for d in p.dreams]}
                    for p in game.players],
        "keys_on_ground": [list(c) for c in game.keys_on_ground],
        "turn": game.turn, "turns_played": game.turns_played, "winner": game.winner,
    }


def game_from_dict(m: LabyrinthMap, data: dict[str, Any]) -> ConsoleGame:
    players = tuple(
        PlayerState(start=_cell(p["start"]), cell=_cell(p["cell"]), ammo=p["ammo"], keys=p["keys"],
                    stun=p["stun"],
                    dreams=tuple(Dream(_cell(d["wake_cell"]), d["turns_left"], d["ammo"], d["keys"])
                                 for d in p["dreams"]))
        for p in data["players"])
    return ConsoleGame(map=m, players=players, keys_on_ground=tuple(_cell(c) for c in data["keys_on_ground"]),
                       turn=data["turn"], turns_played=data["turns_played"], winner=data["winner"])


# --- playing ------------------------------------------------------------------------------------


class NotYourTurn(ValueError):
    """``act`` was called for a player who is not awaited (or after the end)."""


def act(game: ConsoleGame, player: int, command: Command) -> tuple[ConsoleGame, tuple[Event, ...]]:
    """``player`` plays ``command``: the new game and the game master's answers.

    E and ? are free, and so is a shot without bullets: the same player stays awaited.
    Every other command spends the turn; the next players' stunned turns are skipped here.
    """
    if game.awaiting != player:
        raise NotYourTurn(f"it is not player {player}'s turn")
    me = game.players[player]
    if isinstance(command, ShowInventory):
        return game, (InventoryShown(player, me.ammo, me.keys > 0),)
    if isinstance(command, ShowHelp):
        return game, (HelpShown(player, HELP_TEXT),)
    if isinstance(command, Shoot) and me.ammo == 0:
        return game, (NoAmmo(player),)
    turn = _Turn(game)
    depth = len(me.dreams)
    if isinstance(command, Move):
        turn.move(player, command.direction)
    else:
        turn.shoot(player, command.direction)
    if not turn.won:
        turn.dream_tick(player, depth)
        turn.next_turn()
    return turn.result()


def pass_turn(game: ConsoleGame, player: int) -> tuple[ConsoleGame, tuple[Event, ...]]:
    """``player`` lets their turn go by (a hosted match's deadline): spent like a move, nothing done."""
    if game.awaiting != player:
        raise NotYourTurn(f"it is not player {player}'s turn")
    turn = _Turn(game)
    turn.dream_tick(player, len(game.players[player].dreams))
    turn.next_turn()
    return turn.result()


def play(game: ConsoleGame, text: str) -> tuple[ConsoleGame, tuple[Event, ...]]:
    """The awaited player types ``text``; an unknown command is answered with the help (free)."""
    player = game.awaiting
    if player is None:
        raise NotYourTurn("the game is over")
    command = parse_command(text)
    if command is None:
        return game, (HelpShown(player, f"Unknown command {text.strip()!r}.\n{HELP_TEXT}"),)
    return act(game, player, command)


@dataclass
class _Turn:
    """The mutable scratchpad of one turn; ``result()`` freezes it back into a ConsoleGame."""

    game: ConsoleGame
    players: list[PlayerState] = field(init=False)
    keys: list[Cell] = field(init=False)
    events: list[Event] = field(default_factory=list)
    won: bool = False
    next_player: int | None = None

    def __post_init__(self) -> None:
        self.players = list(self.game.players)
        self.keys = list(self.game.keys_on_ground)

    @property
    def map(self) -> LabyrinthMap:
        return self.game.map

    def result(self) -> tuple[ConsoleGame, tuple[Event, ...]]:
        state = replace(self.game, players=tuple(self.players), keys_on_ground=tuple(sorted(self.keys)),
                        turns_played=self.game.turns_played + 1)
        if self.won:
            return replace(state, winner=self.game.turn), tuple(self.events)
        assert self.next_player is not None
        return replace(state, turn=self.next_player), tuple(self.events)

    # -- moving --

    def move(self, player: int, direction: Direction) -> None:
        me = self.players[player]
        result = step(self.map, me.cell, direction)
        if result.outcome is StepOutcome.EXITED:
            self.leave(player)
        elif result.outcome is StepOutcome.WALL:
            self.events.append(HitWall(player))
        elif result.outcome is StepOutcome.RUBBER:
            self.events.append(Moved(player))  # the rubber room's lie: a plain step's answer
        elif result.outcome is StepOutcome.TELEPORTED:
            self.events.extend((Moved(player), Teleported(player)))
            self.arrive(player, result.cell, transported=True)
        else:
            self.events.append(Moved(player))
            self.arrive(player, result.cell, transported=False)

    def leave(self, player: int) -> None:
        me = self.players[player]
        if self.map.key_required() and me.keys == 0:
            self.events.append(ExitLocked(player))
            return
        if me.dreams:  # leaving a dream's field wakes the player up
            self.wake(player, levels=1)
            return
        self.events.append(Won(None, player))
        self.won = True

    def arrive(self, player: int, cell: Cell, *, transported: bool) -> None:
        """The player enters ``cell`` (by a step, or transported there: then a sleep does not fire).

        Teleports are ``step``'s; stun, armory, key and sleep are the game's.
        """
        me = replace(self.players[player], cell=cell)
        special = self.map.special(cell)
        if not transported and isinstance(special, Sleep):
            dream = Dream(wake_cell=cell, turns_left=special.turns, ammo=me.ammo, keys=me.keys)
            self.players[player] = replace(me, dreams=(*me.dreams, dream))
            self.arrive(player, special.destination, transported=True)
            return
        if isinstance(special, Stun):
            me = replace(me, stun=special.turns)
            self.events.append(Stunned(player, special.turns))
        elif isinstance(special, Armory):
            me = replace(me, ammo=max(me.ammo, MAX_AMMO))
            self.events.append(ArmoryVisited(player, me.ammo))
        found = self.keys.count(cell)
        if found:
            self.keys = [k for k in self.keys if k != cell]
            me = replace(me, keys=me.keys + found)
            self.events.append(KeyFound(player))
        self.players[player] = me

    # -- shooting --

    def shoot(self, player: int, direction: Direction) -> None:
        me = self.players[player]
        me = replace(me, ammo=me.ammo - 1)
        self.players[player] = me
        cell: Cell | None = me.cell
        victims: list[tuple[int, bool]] = []
        while cell is not None and not victims:  # straight on until a wall or a player
            cell = None if has_wall(self.map, cell, direction) else neighbour(self.map, cell, direction)
            if cell is not None:
                victims = self._standing_at(cell, shooter=player)
        self.events.append(ShotFired(player, hit=bool(victims), ammo=me.ammo))
        for victim, in_dream in victims:
            self.kill(victim, in_dream=in_dream)

    def _standing_at(self, cell: Cell, *, shooter: int) -> list[tuple[int, bool]]:
        """Who a bullet hits in ``cell``: real bodies and dreaming spirits (flag: a spirit)."""
        found = []
        for index, p in enumerate(self.players):
            if index == shooter:
                continue
            if p.body == cell:
                found.append((index, False))
            elif p.dreams and p.cell == cell:
                found.append((index, True))
        return found

    def kill(self, victim: int, *, in_dream: bool) -> None:
        if in_dream:
            self.events.append(Killed(victim, in_dream=True))
            self.wake(victim, levels=1)
            return
        self.wake(victim, levels=len(self.players[victim].dreams), announce=False)
        me = self.players[victim]
        self.keys.extend([me.cell] * me.keys)
        self.players[victim] = PlayerState(start=me.start, cell=me.start, stun=SKIPPED_TURNS_AFTER_DEATH)
        self.events.append(Killed(victim, in_dream=False))

    # -- dreams --

    def wake(self, player: int, *, levels: int, announce: bool = True) -> None:
        """End ``levels`` dreams: keys found in them stay where the spirit stood; the inventory returns."""
        me = self.players[player]
        for _ in range(levels):
            dream = me.dreams[-1]
            self.keys.extend([me.cell] * max(0, me.keys - dream.keys))
            me = replace(me, cell=dream.wake_cell, ammo=dream.ammo, keys=dream.keys, stun=0,
                         dreams=me.dreams[:-1])
        self.players[player] = me
        if announce and levels:
            self.events.append(WokeUp(player, me.ammo, me.keys > 0))

    def dream_tick(self, player: int, depth: int) -> None:
        """A turn ``player`` began ``depth`` dreams deep has passed: that dream shortens by one."""
        me = self.players[player]
        if depth == 0 or len(me.dreams) < depth:
            return
        dream = me.dreams[depth - 1]
        left = dream.turns_left - 1
        if left > 0:
            dreams = (*me.dreams[:depth - 1], replace(dream, turns_left=left), *me.dreams[depth:])
            self.players[player] = replace(me, dreams=dreams)
            return
        self.wake(player, levels=len(me.dreams) - depth + 1)

    # -- whose turn --

    def next_turn(self) -> None:
        count = len(self.players)
        nxt = (self.game.turn + 1) % count
        while self.players[nxt].stun > 0:
            me = self.players[nxt]
            depth = len(me.dreams)
            self.players[nxt] = replace(me, stun=me.stun - 1)
            self.events.append(TurnSkipped(nxt, remaining=me.stun - 1))
            self.dream_tick(nxt, depth)
            nxt = (nxt + 1) % count
        self.next_player = nxt
