"""Cell capture's bots (SPEC 15), pure: ``random`` and ``greedy``, which reads only its seat's view.

The view hides nothing (the whole board), so ``greedy`` rebuilds the game from it and plays every
allowed cell on that copy, chain reactions included, keeping the one that leaves it best off: a
win first, else the most of its own levels on the board minus the most any opponent keeps, then
(placement) the cell with fewest free neighbours (a corner explodes soonest); ties are drawn from
the rng. One move ahead, no search: cheap enough for 50 x 50 boards within a bot's second.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from cell_capture.engine.events import neighbours
from cell_capture.engine.game import Game
from gamekit.bots import JSON, Memory, Policy, random_policy
from gamekit.results import Impossible


def game_from_view(view: Mapping[str, Any], seat: int) -> Game:
    """The game as ``seat`` sees it, to play moves on: the board, the round, ``seat`` to move."""
    colours = {int(s): colour for s, colour in view["colours"].items()}
    board = {(p["x"], p["y"]): (p["colour"], p["level"]) for p in view["board"]}
    return Game(width=view["width"], height=view["height"], order=tuple(colours.values()),
                to_move=colours[seat], round=view["round"], board=board,
                eliminated=tuple(colours[s] for s in view["eliminated"]))


def _score(game: Game, me: str) -> float:
    if game.winner is not None:
        return float("inf") if game.winner == me else float("-inf")
    levels: dict[str, int] = {}
    for owner, level in game.board.values():
        levels[owner] = levels.get(owner, 0) + level
    mine = levels.pop(me, 0)
    return mine - max(levels.values(), default=0)


def greedy(view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory, rng: Random,
           events: Sequence[Mapping[str, Any]] = (), /) -> tuple[JSON, Memory]:
    """The allowed cell that leaves this seat best off after the chain reaction (see the module)."""
    seat = view["to_move"]
    game = game_from_view(view, seat)
    me = game.to_move
    assert me is not None, "a bot is asked to act only on its turn"
    best: list[JSON] = []
    best_key: tuple[float, int] | None = None
    for action in allowed:
        x, y = action["cell"]
        moved = game.move((x, y))
        if isinstance(moved, Impossible):
            continue
        free = sum(1 for n in neighbours((x, y), game.width, game.height) if n not in game.board)
        key = (_score(moved.state, me), -free if game.round == 1 else 0)
        if best_key is None or key > best_key:
            best, best_key = [action], key
        elif key == best_key:
            best.append(action)
    if not best:
        return random_policy(view, allowed, memory, rng)
    return dict(best[rng.randrange(len(best))]), memory


#: the levels a host may seat, in the order the modes list shows them
BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy}
