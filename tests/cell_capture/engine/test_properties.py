"""Cell capture under hypothesis: the engine against a naive model of seed 001's rules, and invariants."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cell_capture.engine import Exploded, Game, IllegalMove, neighbours, new_game

STEPS = 160


class Model:
    """Seed 001 written as plainly as possible: a grid of [colour, level], the 9.1 loop, a turn index."""

    def __init__(self, width: int, height: int, order: tuple[str, ...]) -> None:
        self.width, self.height, self.order = width, height, list(order)
        self.grid: list[list[list | None]] = [[None] * height for _ in range(width)]
        self.index, self.round, self.out, self.winner = 0, 1, [], None

    def mover(self) -> str | None:
        return None if self.winner else self.order[self.index]

    def colours(self) -> set[str]:
        return {piece[0] for column in self.grid for piece in column if piece}

    def board(self) -> dict:
        return {(x, y): tuple(p) for x in range(self.width) for y in range(self.height)
                if (p := self.grid[x][y])}

    def legal(self) -> list:
        me = self.mover()
        if me is None:
            return []
        cells = [(x, y) for x in range(self.width) for y in range(self.height)]
        if self.round == 1:
            return [c for c in cells if self.grid[c[0]][c[1]] is None]
        return [c for c in cells if (p := self.grid[c[0]][c[1]]) and p[0] == me]

    def play(self, x: int, y: int) -> None:
        me = self.mover()
        if self.round == 1:
            self.grid[x][y] = [me, 1]
        else:
            self.grid[x][y][1] += 1
            while True:
                boom = [(a, b) for a in range(self.width) for b in range(self.height)
                        if self.grid[a][b] and self.grid[a][b][1] >= 4]
                if not boom:
                    break
                for a, b in boom:
                    self.grid[a][b] = None
                drops: dict = {}
                for a, b in boom:
                    for c, d in ((a, b + 1), (a, b - 1), (a - 1, b), (a + 1, b)):
                        if 0 <= c < self.width and 0 <= d < self.height:
                            drops[(c, d)] = drops.get((c, d), 0) + 1
                for (c, d), k in drops.items():
                    old = self.grid[c][d]
                    self.grid[c][d] = [me, k + (old[1] if old else 0)]
                if len(self.colours()) == 1:
                    self.winner = me
                    return
        self.advance()

    def advance(self) -> None:
        while True:
            self.index += 1
            if self.index == len(self.order):
                self.index = 0
                if self.round > 1 or self.colours():
                    self.round += 1
            if self.round >= 2 and len(self.colours()) == 1:
                self.winner = next(iter(self.colours()))
                return
            who = self.order[self.index]
            if who in self.out:
                continue
            if self.round >= 2 and who not in self.colours():
                self.out.append(who)
                continue
            return


def replay_events(board: dict, events: list) -> dict:
    """The board the events describe, applied to ``board``: the page animates exactly this."""
    board = dict(board)
    for e in events:
        if e.kind == "placed":
            board[e.cell] = (e.player, 1)
        elif e.kind == "upgraded":
            board[e.cell] = (e.player, e.level)
        elif e.kind == "exploded":
            for cell, _ in e.pieces:
                del board[cell]
        elif e.kind in ("drops", "captured"):
            for cell, *_, level in e.landings:
                board[cell] = (e.player, level)
    return board


games = st.tuples(
    st.integers(5, 6), st.integers(5, 6), st.integers(2, 4), st.integers(0, 2**32),
    st.lists(st.tuples(st.integers(0, 19), st.integers(0, 10**6)), min_size=STEPS, max_size=STEPS),
)
COLOURS = ("red", "blue", "green", "gold")


def start(game_spec) -> tuple[Game, list]:
    """A new game from a drawn spec and its steps: (skip roll, 0 skips; index into the legal cells)."""
    width, height, players, seed, steps = game_spec
    return new_game(width, height, COLOURS[:players], random.Random(seed)), steps


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_engine_plays_exactly_like_the_naive_model(game_spec):
    game, steps = start(game_spec)
    model = Model(game.width, game.height, game.order)
    for skip_roll, pick in steps:
        if game.winner:
            break
        legal = model.legal()
        assert list(game.legal_moves()) == sorted(legal)
        before = game.to_dict()
        if skip_roll == 0:
            new, events = game.skip()
            model.advance()
        else:
            cell = legal[pick % len(legal)]
            new, events = game.play(cell)
            model.play(*cell)
        assert game.to_dict() == before  # immutable
        assert new.board == model.board()
        assert (new.to_move, new.round, new.winner, new.eliminated) == \
            (model.mover(), model.round, model.winner, tuple(model.out))
        assert replay_events(game.board, events) == new.board
        game = new


@settings(max_examples=60, deadline=None)
@given(games)
def test_invariants_hold_after_every_move(game_spec):
    game, steps = start(game_spec)
    width, height = game.width, game.height
    for _, pick in steps:
        if game.winner:
            assert game.to_move is None and {owner for owner, _ in game.board.values()} == {game.winner}
            break
        legal = game.legal_moves()
        mover, total = game.to_move, sum(level for _, level in game.board.values())
        new, events = game.play(legal[pick % len(legal)])
        # nothing is created or destroyed but the upgrade, drops off the board and levels above 4
        lost = sum(4 - len(neighbours(cell, width, height)) + level - 4
                   for e in events if isinstance(e, Exploded) for cell, level in e.pieces)
        assert sum(level for _, level in new.board.values()) == total + 1 - lost
        assert all(level >= 1 for _, level in new.board.values())
        assert all(owner in game.order for owner, _ in new.board.values())
        assert new.board, "no draws: the board never empties"
        assert mover in {owner for owner, _ in new.board.values()}
        if new.winner is None:
            assert all(level < 4 for _, level in new.board.values())
            assert new.to_move not in new.eliminated
            if new.round >= 2:
                assert new.pieces(new.to_move) > 0
            assert all(new.pieces(out) == 0 for out in new.eliminated)
        # every cell outside the legal moves is refused
        others = [(x, y) for x in range(width) for y in range(height) if (x, y) not in set(legal)]
        for cell in others[:5]:
            try:
                game.play(cell)
            except IllegalMove as refused:
                assert refused.code in ("occupied", "empty_cell", "not_your_piece")
            else:
                raise AssertionError(f"{cell} was accepted")
        game = new


@settings(max_examples=80, deadline=None)
@given(st.integers(5, 12), st.integers(5, 12), st.integers(2, 3), st.integers(0, 2**32))
def test_a_chain_on_a_saturated_board_always_ends(width, height, players, seed):
    rng = random.Random(seed)
    colours = ("red", "blue", "green")[:players]
    board = {(x, y): (rng.choice(colours), 3) for x in range(width) for y in range(height)}
    start = (rng.randrange(width), rng.randrange(height))
    board[start] = ("red", 3)
    for colour in colours:  # everybody is on the board
        board[(rng.randrange(width), rng.randrange(height))] = (colour, 3)
    board[start] = ("red", 3)
    game = Game(width=width, height=height, order=colours, to_move="red", round=9, board=board)
    new, _events = game.play(start)
    model = Model(width, height, colours)
    model.round, model.grid = 9, [[list(board[(x, y)]) for y in range(height)] for x in range(width)]
    model.play(*start)
    assert new.board == model.board()
    assert new.winner == model.winner
    assert new.winner == "red" or all(level < 4 for _, level in new.board.values())
