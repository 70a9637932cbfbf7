"""Small boards and helpers for the paper Labyrinth rules tests (seed 002)."""
from __future__ import annotations

from typing import Any

from gamekit.results import Impossible, Success
from labyrinth.engine.grid import Direction
from paper_labyrinth.engine.mapformat import parse_paper_map
from paper_labyrinth.engine.model import PaperMap, Pos
from paper_labyrinth.engine.requests import Message, Options, Result, Step, Turn
from paper_labyrinth.engine.rules import apply, new_game, outcome
from paper_labyrinth.engine.state import GameState, Pile, Slot

UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def board(text: str) -> PaperMap:
    """A map in the designers' text format (``map R C`` is added in front)."""
    lines = text.strip("\n").splitlines()
    keywords = ("holes", "treasure", "bullets", "grenades", "mines")
    picture = [line for line in lines if line.split(" ")[0] not in keywords]
    rows = (len(picture) - 1) // 2
    cols = (len(picture[1].split("  #")[0]) - 1) // 2
    return parse_paper_map(f"map {rows} {cols}\n" + text.strip("\n") + "\n")


def game(m: PaperMap, starts: list[Pos], variant: str = "classic", **options: Any) -> GameState:
    opts = Options.for_variant(variant, **options)  # type: ignore[arg-type]
    return new_game(m, opts, len(starts), starts)


def answered(result: Success[GameState, Message] | Impossible) -> tuple[GameState, list[Message]]:
    """The new state and the messages of a request the rules accept (fails the test on a refusal)."""
    assert isinstance(result, Success), result
    return result.state, list(result.events)


def play(state: GameState, seat: int, *steps: Step, **turn: Any) -> tuple[GameState, list[Message]]:
    return answered(apply(state, seat, Turn(steps=tuple(steps), **turn)))


def refusal(state: GameState, seat: int, *steps: Step, **turn: Any) -> Impossible:
    """How the rules refuse a turn (fails the test when they accept it)."""
    result = apply(state, seat, Turn(steps=tuple(steps), **turn))
    assert isinstance(result, Impossible), result
    return result


def ended(state: GameState) -> Result:
    """The game's result (fails the test when the game is not over)."""
    result = outcome(state)
    assert result is not None, "the game is not over"
    return result


def codes(msgs: list[Message]) -> list[str]:
    return [m.code for m in msgs]


def text(msgs: list[Message]) -> str:
    return " | ".join(m.text for m in msgs)


def put(state: GameState, pos: Pos, **items: Any) -> Pile:
    """Put items on a cell of a fresh game (bullets=2, treasures=[False], armed=1 ...)."""
    pile = state.pile(pos)
    for name, value in items.items():
        setattr(pile, name, value)
    return pile


def carry(state: GameState, seat: int, **fields: Any) -> None:
    p = state.players[seat]
    for name, value in fields.items():
        if name == "slot" and isinstance(value, str):
            value = Slot(value)  # type: ignore[arg-type]
        setattr(p, name, value)


# One row of land, walls all round: [С С С С]
ROW4 = """\
 _ _ _ _
|С С С С|
 _ _ _ _"""

# Hole cycle Я1 (0,0) -> Я2 (0,2) -> Я3 (1,1)
HOLES = """\
 _ _ _
|Я С Я|
       
|С Я С|
 _ _ _
holes (0,0) (0,2) (1,1)"""  # noqa: W293 - the row between is spaces: no wall
H1, H2, H3 = (0, 0), (0, 2), (1, 1)

# River R1 (0,0) -> R2 (0,1) -> mouth U (0,2); land below; an open exit left of (1,0)
RIVER = """\
 _ _ _
|Р>Р>У|
       
oС С С|
 _ _ _"""  # noqa: W293 - the row between is spaces: no wall
R1, R2, U = (0, 0), (0, 1), (0, 2)
