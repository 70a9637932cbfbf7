"""Benchmark: the cell capture engine resolving worst-case chains on a 50x50 board.

Every cell holds a level-3 piece and the mover upgrades one: every cell explodes at least once.
Scenarios:
- checker:  two colours in a checkerboard, the upgrade in a corner (the chain captures its way
            across the board; the win ends it when the last opponent piece falls);
- far:      every piece the mover's but one opponent piece in the opposite corner (the longest
            way for the chain to go before the win);
- stripes:  ten colours in stripes, the upgrade in the middle;
- centre:   every piece the mover's but one opponent piece in a corner, the upgrade in the middle
            (the chain floods the board from its centre: every cell explodes about 9 times).
Times are wall clock (perf_counter) and CPU time of this process (process_time): on a machine
shared with other work the wall clock includes waiting for a core, the CPU time does not.
Baseline measured in the same run: copying the 2500-cell board and counting its colours once,
the least any immutable move on this board costs. SPEC target: at most 50 ms per chain.
Run: .venv/bin/python bench/bench_cell_capture.py [--repeat N] [--size S]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cell_capture.engine import Exploded, Game

COLOURS = tuple(f"p{i}" for i in range(10))


def scenario(name: str, size: int) -> tuple[Game, tuple[int, int]]:
    cells = [(x, y) for x in range(size) for y in range(size)]
    if name == "checker":
        board = {(x, y): (COLOURS[(x + y) % 2], 3) for x, y in cells}
        order, start = COLOURS[:2], (0, 0)
    elif name == "far":
        board = {cell: (COLOURS[0], 3) for cell in cells}
        board[(size - 1, size - 1)] = (COLOURS[1], 3)
        order, start = COLOURS[:2], (0, 0)
    elif name == "stripes":
        board = {(x, y): (COLOURS[y * 10 // size], 3) for x, y in cells}
        start = (size // 2, size // 2)
        order = COLOURS
    else:
        board = {cell: (COLOURS[0], 3) for cell in cells}
        board[(0, 0)] = (COLOURS[1], 1)
        order, start = COLOURS[:2], (size // 2, size // 2)
    mover = board[start][0]
    return Game(width=size, height=size, order=order, to_move=mover, round=10, board=board), start


def timed(call: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of ``repeat`` calls."""
    wall, cpu = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--size", type=int, default=50)
    args = parser.parse_args(argv)

    game, _ = scenario("checker", args.size)
    copies = timed(lambda: Counter(o for o, _ in dict(game.board).values()), args.repeat)[0]
    baseline = statistics.median(copies)
    print(f"board {args.size}x{args.size}, every cell at level 3, one upgrade; median of {args.repeat} runs")
    print(f"baseline (copy the board, count colours): {baseline * 1000:8.3f} ms")
    worst = worst_cpu = 0.0
    for name in ("checker", "far", "stripes", "centre"):
        game, start = scenario(name, args.size)
        new, events = game.play(start)
        waves = max(e.wave for e in events if isinstance(e, Exploded))
        explosions = sum(len(e.pieces) for e in events if isinstance(e, Exploded))
        game.play(start)  # warm the per-size tables
        wall, cpu = timed(partial(game.play, start), args.repeat)
        median, median_cpu = statistics.median(wall), statistics.median(cpu)
        worst, worst_cpu = max(worst, median), max(worst_cpu, median_cpu)
        print(f"{name:8} {waves:3} waves {explosions:6} explosions {len(events):4} events  "
              f"wall median {median * 1000:6.2f} ms (max {max(wall) * 1000:6.2f})  "
              f"cpu median {median_cpu * 1000:6.2f} ms  x{median / baseline:5.0f} baseline  "
              f"winner {new.winner}")
    verdict = "ok" if worst_cpu <= 0.05 else "OVER"
    print(f"worst chain, median: wall {worst * 1000:.2f} ms, cpu {worst_cpu * 1000:.2f} ms "
          f"(target: cpu <= 50 ms): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
