"""Benchmark of the labyrinth engine: generate_map, unreachable_cells (seed 003's check) and the
text format on 50x50 and 200x200 maps, per second on one core.

Run: python3 dev.py bench labyrinth [--seconds 2] [--sizes 50 200]
Every figure is printed next to a baseline measured in the same run, as a ratio:
- generation against building the same map's grid with no walls and no specials (Field.open), and
  against a bare breadth-first search over the generated grid's open passages;
- the check against that bare breadth-first search (one source, no states, no specials).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine import (  # noqa: E402 - after the path fix
    Field,
    LabyrinthMap,
    format_map,
    generate_map,
    parse_map,
    unreachable_cells,
)


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls per second of ``fn(i)``: one warm-up call, then calls until ``seconds`` have passed."""
    fn(-1)
    done, started = 0, time.perf_counter()
    while True:
        fn(done)
        done += 1
        now = time.perf_counter()
        if now - started >= seconds:
            return done / (now - started)


def bare_bfs(m: LabyrinthMap) -> int:
    """Cells of field 0 reached from (0, 0) over open passages, reading the wall arrays directly on a
    flat grid (as the check does): the least work a check can do."""
    fld = m.fields[0]
    rows, cols, right, down = fld.rows, fld.cols, fld.right, fld.down
    seen = [False] * (rows * cols)
    seen[0] = True
    queue = deque([0])
    reached = 1
    while queue:
        here = queue.popleft()
        r, c = divmod(here, cols)
        for there, open_ in ((here + 1, c + 1 < cols and not right[r][c]),
                             (here - 1, c > 0 and not right[r][c - 1]),
                             (here + cols, r + 1 < rows and not down[r][c]),
                             (here - cols, r > 0 and not down[r - 1][c])):
            if open_ and not seen[there]:
                seen[there] = True
                reached += 1
                queue.append(there)
    return reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    args = parser.parse_args()
    print(f"Labyrinth engine, one core, {args.seconds:g}s per figure, default generator settings")
    print(f"  {'size':>9} {'what':<30} {'per second':>11} {'baseline /s':>12} {'ratio':>7}")
    for side in args.sizes:
        maps = [generate_map(side, side, random.Random(seed)) for seed in range(4)]
        texts = [format_map(m) for m in maps]

        def generate(i: int, side: int = side) -> None:
            generate_map(side, side, random.Random(i))

        def empty(i: int, side: int = side) -> None:
            LabyrinthMap((Field.open(side, side),))

        def check(i: int, maps: list[LabyrinthMap] = maps) -> None:
            assert unreachable_cells(maps[i % len(maps)]) == []

        def bfs(i: int, maps: list[LabyrinthMap] = maps, side: int = side) -> None:
            assert bare_bfs(maps[i % len(maps)]) == side * side

        def parse(i: int, texts: list[str] = texts) -> None:
            parse_map(texts[i % len(texts)])

        def write(i: int, maps: list[LabyrinthMap] = maps) -> None:
            format_map(maps[i % len(maps)])

        base_empty = rate(empty, args.seconds)
        base_bfs = rate(bfs, args.seconds)
        rows = [("generate_map", rate(generate, args.seconds), "empty grid", base_empty),
                ("generate_map", None, "bare BFS", base_bfs),
                ("unreachable_cells (check)", rate(check, args.seconds), "bare BFS", base_bfs),
                ("parse_map", rate(parse, args.seconds), "bare BFS", base_bfs),
                ("format_map", rate(write, args.seconds), "bare BFS", base_bfs)]
        generated = rows[0][1]
        for what, per_second, base_name, base in rows:
            per_second = generated if per_second is None else per_second
            assert per_second is not None
            print(f"  {side:>4}x{side:<4} {what:<30} {per_second:>11,.2f} {base:>12,.2f} "
                  f"{base / per_second:>6.1f}x  (baseline: {base_name})")
        specials = sum(len(m.specials()) for m in maps) / len(maps)
        print(f"  {'':>9} (maps of {side}x{side} hold {specials:,.0f} special cells on average)")
    print("  ratio = how many times longer one call takes than one baseline call")


if __name__ == "__main__":
    main()
