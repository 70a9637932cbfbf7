"""Cell capture's rules (seed 001, SPEC 10): the game state, placement, upgrades and chain reactions.

Decisions where the seed is loose (docs/cell-capture.md explains each):
- all drops of a wave land at once, grouped by cell: k drops on an empty cell make a mover's
  piece of level k, on an own piece add k, on an opponent's piece capture it and add k;
- then every piece at level >= 4 explodes at once (a level 6 piece still throws only 4 drops);
- from round 2 on, the moment only one colour is on the board (checked after every wave, and when
  the turn passes) that colour wins and the move ends there, even with pieces still at >= 4;
- a player with no piece at the start of their turn is eliminated and skipped from then on;
- ``move(cell)`` is the move as a value (``Success | Impossible``: what the match mode uses);
  ``play(cell)`` is SPEC 10's form of it, raising ``IllegalMove`` for a refused move;
- ``skip()`` passes a turn (a hosted match's deadline); a player who skipped placement has no
  piece and is eliminated when their turn comes again; if nobody placed, round 1 starts over.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import chain
from random import Random
from typing import Any

from cell_capture.engine.events import (
    Captured,
    Cell,
    Drops,
    Eliminated,
    Event,
    Exploded,
    Placed,
    Skipped,
    Upgraded,
    Won,
    neighbours,
)
from gamekit.results import Impossible, Refusal, Result, Success

MIN_SIZE, MAX_SIZE = 5, 50
MIN_PLAYERS, MAX_PLAYERS = 2, 10
EXPLODES_AT = 4
STATE_VERSION = 1

# Every refusal code of ``Game.play`` (the message says which case it was).
ILLEGAL_MOVE_CODES: dict[str, str] = {
    "game_over": "the game has a winner; no more moves",
    "bad_cell": "a cell is a pair of integers (x, y)",
    "off_board": "the cell is outside the board",
    "occupied": "round 1 places a piece on an empty cell only",
    "empty_cell": "after round 1 a move upgrades one of the mover's pieces; this cell is empty",
    "not_your_piece": "after round 1 a move upgrades one of the mover's pieces; this one is an opponent's",
}
#: the codes of a cell that is not one of the board's (a malformed input rather than a move the rules refuse)
INPUT_CODES = frozenset({"bad_cell", "off_board"})


class IllegalMove(ValueError):
    """A move the rules refuse; ``code`` is one of ILLEGAL_MOVE_CODES."""

    def __init__(self, code: str, message: str = "") -> None:
        assert code in ILLEGAL_MOVE_CODES, code
        self.code = code
        self.message = message or ILLEGAL_MOVE_CODES[code]
        super().__init__(f"{code}: {self.message}")


class InvalidSetup(ValueError):
    """``new_game`` arguments or a stored state out of the rules' bounds; ``code`` names which."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


@dataclass(frozen=True, eq=True)
class Game:
    """One game, immutable: ``play`` and ``skip`` return a new Game (never mutate ``board``)."""

    width: int
    height: int
    order: tuple[str, ...]           # the colours in turn order
    to_move: str | None              # None once there is a winner
    round: int                       # 1 during placement
    board: dict[Cell, tuple[str, int]]  # occupied cells only: (colour, level)
    winner: str | None = None
    eliminated: tuple[str, ...] = ()  # in the order they went out
    turn: int = 0                    # moves and skips played so far

    __hash__ = None  # type: ignore[assignment]  # the board is a dict

    # --- reading ----------------------------------------------------------------------------

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def pieces(self, colour: str) -> int:
        return sum(1 for owner, _ in self.board.values() if owner == colour)

    def legal_moves(self) -> tuple[Cell, ...]:
        """Every cell the mover may play now, sorted by (x, y): empty cells in round 1, own pieces later."""
        if self.to_move is None:
            return ()
        if self.round == 1:
            return tuple((x, y) for x in range(self.width) for y in range(self.height)
                         if (x, y) not in self.board)
        return tuple(sorted(cell for cell, (owner, _) in self.board.items() if owner == self.to_move))

    # --- moving -----------------------------------------------------------------------------

    def move(self, cell: Sequence[int]) -> Result[Game, Event]:
        """The mover plays ``cell``: Success(the new game, the events), or Impossible when it is refused
        (``code`` one of ILLEGAL_MOVE_CODES; kind "input" for a cell that is not one of the board's)."""
        target = self._checked_cell(cell)
        if isinstance(target, Impossible):
            return target
        mover = self.to_move
        assert mover is not None
        board = dict(self.board)
        events: list[Event] = []
        where = f"({target[0]},{target[1]})"
        if self.round == 1:
            if target in board:
                return _refused("occupied", f"{where} is occupied", target)
            board[target] = (mover, 1)
            events.append(Placed(self.round, mover, target))
            return Success(*self._next_turn(board, events))
        if target not in board:
            return _refused("empty_cell", f"{where} is empty", target)
        owner, level = board[target]
        if owner != mover:
            return _refused("not_your_piece", f"{where} holds {owner}'s piece", target)
        board[target] = (mover, level + 1)
        events.append(Upgraded(self.round, mover, target, level + 1))
        if level + 1 >= EXPLODES_AT and self._chain(board, target, mover, events):
            return Success(replace(self, to_move=None, board=board, winner=mover, turn=self.turn + 1),
                           tuple(events))
        return Success(*self._next_turn(board, events))

    def play(self, cell: Sequence[int]) -> tuple[Game, list[Event]]:
        """The mover plays ``cell``: the new game and the events; IllegalMove if the rules refuse it
        (SPEC 10's public form of ``move``)."""
        moved = self.move(cell)
        if isinstance(moved, Impossible):
            raise IllegalMove(moved.code, moved.message)
        return moved.state, list(moved.events)

    def skip(self) -> tuple[Game, list[Event]]:
        """The mover's turn passes without a move (a hosted match's deadline ran out). Only a game with a
        mover has a turn to pass: on a finished game it is a caller's mistake (IllegalMove)."""
        if self.to_move is None:
            raise IllegalMove("game_over")
        game, events = self._next_turn(dict(self.board), [Skipped(self.round, self.to_move)])
        return game, list(events)

    def _checked_cell(self, cell: Sequence[int]) -> Cell | Impossible:
        if self.to_move is None:
            return _refused("game_over")
        try:
            x, y = cell
        except (TypeError, ValueError):
            return _refused("bad_cell")
        if type(x) is not int or type(y) is not int:
            return _refused("bad_cell")
        if not self.on_board((x, y)):
            return _refused("off_board", f"({x},{y}) is outside the {self.width}x{self.height} board", (x, y))
        return x, y

    def _chain(self, board: dict[Cell, tuple[str, int]], start: Cell, mover: str,
               events: list[Event]) -> bool:
        """Resolve the chain reaction in ``board`` (mutated), wave by wave; True if the mover won in it.

        This is the hot loop of a worst-case chain (on a 50x50 board at level 3 every cell explodes
        about 9 times over 50 waves), so it works on flat lists indexed by x * height + y (sorted
        indices are sorted cells) and writes one event per kind and wave, not one per piece.
        """
        cells, index, near = _board_tables(self.width, self.height)
        levels = [0] * len(cells)
        owners: list[str | None] = [None] * len(cells)
        for cell, (owner, level) in board.items():
            levels[index[cell]], owners[index[cell]] = level, owner
        others = sum(1 for colour in owners if colour is not None and colour != mover)
        rnd, wave, won = self.round, 0, False
        exploding = [index[start]]
        while exploding:
            wave += 1
            exploding.sort()
            pieces = tuple(zip(map(cells.__getitem__, exploding), map(levels.__getitem__, exploding)))
            events.append(Exploded(rnd, mover, wave, self.width, self.height, pieces))
            for i in exploding:
                levels[i], owners[i] = 0, None
            hits = Counter(chain.from_iterable(map(near.__getitem__, exploding)))
            exploding = []
            drops: list[tuple[Cell, int, int]] = []
            captured: list[tuple[Cell, int, str, int, int]] = []
            for i, count in sorted(hits.items()):
                before = levels[i]
                level = before + count
                held = owners[i]
                if held is None or held == mover:
                    drops.append((cells[i], count, level))
                else:
                    captured.append((cells[i], count, held, before, level))
                levels[i], owners[i] = level, mover
                if level >= EXPLODES_AT:
                    exploding.append(i)
            if drops:
                events.append(Drops(rnd, mover, wave, tuple(drops)))
            if captured:
                events.append(Captured(rnd, mover, wave, tuple(captured)))
                others -= len(captured)
                if not others:
                    events.append(Won(rnd, mover, wave))
                    won = True
                    break
        board.clear()
        board.update((cells[i], (colour, levels[i]))
                     for i, colour in enumerate(owners) if colour is not None)
        return won

    def _next_turn(self, board: dict[Cell, tuple[str, int]],
                   events: list[Event]) -> tuple[Game, tuple[Event, ...]]:
        """Pass the turn to the next player in order who is not out, eliminating those with no piece."""
        assert self.to_move is not None
        order, eliminated = self.order, list(self.eliminated)
        index, rnd = order.index(self.to_move), self.round
        owners = {owner for owner, _ in board.values()}
        while True:
            index += 1
            if index == len(order):
                index = 0
                # Nobody placed in round 1 (every placement skipped): placement starts over.
                rnd = rnd + 1 if board or rnd > 1 else rnd
            if rnd >= 2 and len(owners) == 1:
                (winner,) = owners
                events.append(Won(rnd, winner, 0))
                return replace(self, to_move=None, round=rnd, board=board, winner=winner,
                               eliminated=tuple(eliminated), turn=self.turn + 1), tuple(events)
            colour = order[index]
            if colour in eliminated:
                continue
            if rnd >= 2 and colour not in owners:
                eliminated.append(colour)
                events.append(Eliminated(rnd, colour))
                continue
            return replace(self, to_move=colour, round=rnd, board=board,
                           eliminated=tuple(eliminated), turn=self.turn + 1), tuple(events)

    # --- JSON -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON (the board as [x, y, colour, level] rows sorted by cell)."""
        return {
            "version": STATE_VERSION,
            "width": self.width,
            "height": self.height,
            "order": list(self.order),
            "to_move": self.to_move,
            "round": self.round,
            "board": [[x, y, colour, level] for (x, y), (colour, level) in sorted(self.board.items())],
            "winner": self.winner,
            "eliminated": list(self.eliminated),
            "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The inverse of ``to_dict``; InvalidSetup if the data cannot be a game state."""
        try:
            if data.get("version") != STATE_VERSION:
                raise InvalidSetup("bad_state", f"unknown state version {data.get('version')!r}")
            _check_setup(int(data["width"]), int(data["height"]), data["order"])
            board = {(int(x), int(y)): (str(colour), int(level)) for x, y, colour, level in data["board"]}
            game = cls(width=int(data["width"]), height=int(data["height"]),
                       order=tuple(str(c) for c in data["order"]),
                       to_move=None if data["to_move"] is None else str(data["to_move"]),
                       round=int(data["round"]), board=board,
                       winner=None if data["winner"] is None else str(data["winner"]),
                       eliminated=tuple(str(c) for c in data["eliminated"]), turn=int(data["turn"]))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, InvalidSetup):
                raise
            raise InvalidSetup("bad_state", f"not a cell capture state: {error}") from None
        colours = set(game.order)
        if not all(game.on_board(cell) and owner in colours and level >= 1
                   for cell, (owner, level) in board.items()) \
                or (game.to_move is None) == (game.winner is None) \
                or not colours.issuperset({game.to_move, game.winner} - {None}) \
                or not colours.issuperset(game.eliminated) or game.round < 1 or game.turn < 0:
            raise InvalidSetup("bad_state", "the state breaks the game's invariants")
        return game


def _refused(code: str, message: str = "", cell: Cell | None = None) -> Impossible:
    """A refused move: the code's standard message unless a more precise one is given; the cell played."""
    kind: Refusal = "input" if code in INPUT_CODES else "rule"
    return Impossible(code, message or ILLEGAL_MOVE_CODES[code], {} if cell is None else {"cell": list(cell)},
                      kind)


Tables = tuple[tuple[Cell, ...], dict[Cell, int], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=64)
def _board_tables(width: int, height: int) -> Tables:
    """For a width x height board: the cells by index (x * height + y), each cell's index, and each
    index's drop targets as indices (computed once per board size)."""
    cells = tuple((x, y) for x in range(width) for y in range(height))
    index = {cell: i for i, cell in enumerate(cells)}
    near = tuple(tuple(index[n] for n in neighbours(cell, width, height)) for cell in cells)
    return cells, index, near


def _check_setup(width: int, height: int, colors: Sequence[str]) -> None:
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise InvalidSetup("bad_size", f"the board is {MIN_SIZE}..{MAX_SIZE} cells each side")
    if isinstance(colors, str) or not MIN_PLAYERS <= len(colors) <= MAX_PLAYERS:
        raise InvalidSetup("bad_player_count", f"{MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not all(isinstance(c, str) and c for c in colors):
        raise InvalidSetup("bad_colour", "every colour is a non-empty string")
    if len(set(colors)) != len(colors):
        raise InvalidSetup("duplicate_colour", "every player has a colour of their own")


def new_game(width: int, height: int, colors: Sequence[str], rng: Random) -> Game:
    """A new game on a width x height board; the turn order is drawn with ``rng`` (seed 2.2)."""
    _check_setup(width, height, colors)
    order = list(colors)
    rng.shuffle(order)
    return Game(width=width, height=height, order=tuple(order), to_move=order[0], round=1, board={})


def game_from_dict(data: Mapping[str, Any]) -> Game:
    return Game.from_dict(data)
