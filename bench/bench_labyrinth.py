"""Benchmark of the labyrinth engine: generate_map, unreachable_cells (seed 003's check) and the
text format on 50x50 and 200x200 maps, per second on one core; and the per-call cost of the hosted
paper Labyrinth (mode labyrinth_paper, seed 002) in-process.

Run: python3 dev.py bench labyrinth [--seconds 2] [--sizes 50 200] [--part engine|paper|all]
Every figure is printed next to a baseline measured in the same run, as a ratio:
- generation against building the same map's grid with no walls and no specials (Field.open), and
  against a bare breadth-first search over the generated grid's open passages;
- the check against that bare breadth-first search (one source, no states, no specials);
- paper mode: the adapter calls a request makes on a stored (JSON) state of a 3-player match on a
  generated 4x5 map, a few turns in (allowed_actions; view; a step: the one decode, check_action,
  apply, then outcome, awaiting and state_to_json of the new state, as matches/services.py does), against cell
  capture's legal_actions on its stored state (a cheap mode's read). No database: the adapters only.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def paper_states(adapter: Any, variant: str, count: int = 8) -> list[dict[str, Any]]:
    """Stored states of one labyrinth_paper match, each a few turns further than the last, with the
    awaited seat's first allowed action (moves drawn from a fixed seed)."""
    rng = random.Random(2)
    settings = adapter.validate_settings({"variant": variant, "starts": "random"})
    state = adapter.create(settings=settings, seats=3, rng=rng)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        for _ in range(3):
            seat = adapter.awaiting(state)
            state = adapter.apply(state, seat, rng.choice(adapter.legal_actions(state, seat)), rng).state
        assert adapter.outcome(state) is None, "the bench's match ended early: change its seed"
        found.append(json.loads(json.dumps(adapter.state_to_json(state))))
    return found


def paper(seconds: float) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    import django

    django.setup()
    from cell_capture.mode import CellCaptureMode
    from gamekit import Impossible
    from paper_labyrinth.mode import PaperLabyrinthMode

    capture, adapter = CellCaptureMode(), PaperLabyrinthMode()
    settings = capture.validate_settings({})
    assert not isinstance(settings, Impossible)
    game = capture.create(settings=settings, seats=2, rng=random.Random(1))
    assert not isinstance(game, Impossible)
    board = capture.state_to_json(game)
    board = json.loads(json.dumps(board))
    mover = capture.awaiting(capture.state_from_json(board))
    assert mover is not None

    def base(i: int) -> None:
        capture.legal_actions(capture.state_from_json(board), mover)

    print(f"Paper Labyrinth (labyrinth_paper) per call, in-process, {seconds:g}s per figure")
    print(f"  {'variant':>9} {'call':<30} {'ms per call':>11} {'baseline ms':>12} {'ratio':>7}")
    for variant in ("classic", "quantum"):
        states = paper_states(adapter, variant)
        typed = [adapter.state_from_json(s) for s in states]
        awaited = [seat for s in typed if (seat := adapter.awaiting(s)) is not None]
        actions = [adapter.legal_actions(s, seat)[0] for s, seat in zip(typed, awaited)]

        # The loop's values are bound as defaults (as engine() does): each variant times its own states.
        def allowed(i: int, states: list[dict[str, Any]] = states, awaited: list[int] = awaited) -> None:
            k = i % len(states)
            adapter.legal_actions(adapter.state_from_json(states[k]), awaited[k])

        def view(i: int, states: list[dict[str, Any]] = states, awaited: list[int] = awaited) -> None:
            k = i % len(states)
            adapter.view(adapter.state_from_json(states[k]), awaited[k])

        def step(i: int, states: list[dict[str, Any]] = states, awaited: list[int] = awaited,
                 actions: list[Any] = actions) -> None:  # one decode for the request, as the services do
            k = i % len(states)
            before = adapter.state_from_json(states[k])
            adapter.check_action(before, actions[k])
            played = adapter.apply(before, awaited[k], actions[k], random.Random(i))
            assert not isinstance(played, Impossible)
            new = played.state
            adapter.outcome(new)
            adapter.awaiting(new)
            adapter.state_to_json(new)

        baseline = 1000 / rate(base, seconds)
        for what, fn in (("allowed_actions", allowed), ("view", view), ("step", step)):
            ms = 1000 / rate(fn, seconds)
            print(f"  {variant:>9} {what:<30} {ms:>11.3f} {baseline:>12.3f} {ms / baseline:>6.1f}x  "
                  "(baseline: cell capture legal_actions)")
    print("  ratio = how many times longer one call takes than one baseline call")


def engine(seconds: float, sizes: list[int]) -> None:
    print(f"Labyrinth engine, one core, {seconds:g}s per figure, default generator settings")
    print(f"  {'size':>9} {'what':<30} {'per second':>11} {'baseline /s':>12} {'ratio':>7}")
    for side in sizes:
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

        base_empty = rate(empty, seconds)
        base_bfs = rate(bfs, seconds)
        rows = [("generate_map", rate(generate, seconds), "empty grid", base_empty),
                ("generate_map", None, "bare BFS", base_bfs),
                ("unreachable_cells (check)", rate(check, seconds), "bare BFS", base_bfs),
                ("parse_map", rate(parse, seconds), "bare BFS", base_bfs),
                ("format_map", rate(write, seconds), "bare BFS", base_bfs)]
        generated = rows[0][1]
        for what, per_second, base_name, base in rows:
            per_second = generated if per_second is None else per_second
            assert per_second is not None
            print(f"  {side:>4}x{side:<4} {what:<30} {per_second:>11,.2f} {base:>12,.2f} "
                  f"{base / per_second:>6.1f}x  (baseline: {base_name})")
        specials = sum(len(m.specials()) for m in maps) / len(maps)
        print(f"  {'':>9} (maps of {side}x{side} hold {specials:,.0f} special cells on average)")
    print("  ratio = how many times longer one call takes than one baseline call")



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--part", choices=["engine", "paper", "all"], default="all")
    args = parser.parse_args()
    if args.part != "paper":
        engine(args.seconds, args.sizes)
    if args.part != "engine":
        paper(args.seconds)

if __name__ == "__main__":
    main()
