"""labyrinth: seed 003's command line: `check` maps, play a hot-seat `game`, `generate` a map."""
from __future__ import annotations

import random
import re
import sys
from argparse import ArgumentParser
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

from labyrinth.engine import (
    LabyrinthMap,
    MapFormatError,
    format_map,
    generate_map,
    parse_map,
    unreachable_cells,
)
from labyrinth.engine.console import (
    ConsoleGame,
    Event,
    StartPositionError,
    TurnSkipped,
    Won,
    describe,
    new_game,
    play,
    start_cell,
)

_POSITION = re.compile(r"\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?")


def parse_positions(values: list[str]) -> list[tuple[int, int]]:
    """`(0,0)` `(0, 2)` or `"(0,0) (0,2)"` as 2D positions; CommandError on anything else."""
    text = " ".join(values)
    found = [(int(r), int(c)) for r, c in _POSITION.findall(text)]
    if _POSITION.sub("", text).strip() or not found and text.strip():
        raise CommandError(f"bad start positions {text!r}: write them as (row,col) (row,col) ...")
    return found


def read_map(path: str) -> LabyrinthMap:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: cannot read the map: {exc.strerror or exc}") from exc
    try:
        return parse_map(text)
    except MapFormatError as exc:
        raise CommandError(f"{path}: {exc}") from exc


class Command(BaseCommand):
    help = ("Seed 003's Labyrinth: `check --map a.txt b.txt`, `game --map m.txt [--players N] "
            "[--start_positions (r,c) ...] [--random_positions]`, "
            "`generate --size R C --out m.txt [--seed N]`.")
    # call_command(..., stdin=StringIO(...)) drives the interactive game in tests.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: ArgumentParser) -> None:
        modes = parser.add_subparsers(dest="mode", required=True, metavar="{check,game,generate}")
        check = modes.add_parser("check", help="is the exit reachable from every cell?")
        check.add_argument("--map", nargs="+", required=True, metavar="PATH")
        game = modes.add_parser("game", help="an interactive hot-seat game in this terminal")
        game.add_argument("--map", required=True, metavar="PATH")
        game.add_argument("--players", type=int, default=1, help="number of players (default 1)")
        game.add_argument("--start_positions", nargs="+", default=[], metavar="(R,C)",
                          help="start positions on field 0; missing ones are asked for or drawn")
        game.add_argument("--random_positions", action="store_true",
                          help="draw the missing start positions at random instead of asking")
        game.add_argument("--seed", type=int, default=None, help="seed of the random start positions")
        generate = modes.add_parser("generate", help="write a random map that passes check")
        generate.add_argument("--size", nargs=2, type=int, required=True, metavar=("ROWS", "COLS"))
        generate.add_argument("--out", required=True, metavar="PATH")
        generate.add_argument("--seed", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        mode = options["mode"]
        if mode == "check":
            self.run_check(options["map"])
        elif mode == "game":
            self.run_game(options, options.get("stdin") or sys.stdin)
        else:
            self.run_generate(options)

    # -- check --

    def run_check(self, paths: list[str]) -> None:
        failed = 0
        for path in paths:
            try:
                m = read_map(path)
            except CommandError as exc:
                self.stdout.write(f"{exc} (FAILED)")
                failed += 1
                continue
            cells = unreachable_cells(m)
            if not cells:
                self.stdout.write(f"{path}: OK, the exit can be reached from every cell")
                continue
            failed += 1
            shown = ", ".join(f"({r}, {c})" for _, r, c in cells)
            self.stdout.write(f"{path}: FAILED, no way out from {len(cells)} cell(s): {shown}")
        if failed:
            raise CommandError(f"{failed} of {len(paths)} map(s) failed the check")

    # -- generate --

    def run_generate(self, options: dict[str, Any]) -> None:
        rows, cols = options["size"]
        seed = options["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        try:
            m = generate_map(rows=rows, cols=cols, rng=random.Random(seed))
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        try:
            Path(options["out"]).write_text(format_map(m), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{options['out']}: cannot write the map: {exc.strerror or exc}") from exc
        self.stdout.write(f"wrote {options['out']}: a {rows}x{cols} labyrinth, seed {seed}")

    # -- game --

    def run_game(self, options: dict[str, Any], stdin: TextIO) -> None:
        m = read_map(options["map"])
        players = options["players"]
        if players < 1:
            raise CommandError("--players must be at least 1")
        given = parse_positions(options["start_positions"])
        if len(given) > players:
            raise CommandError(f"{len(given)} start positions for {players} player(s)")
        lines = iter(stdin.readline, "")
        rng = random.Random(options["seed"])
        starts: list[tuple[int, int] | None] = []
        for index in range(players):
            if index < len(given):
                try:
                    start_cell(m, given[index])
                except StartPositionError as exc:
                    raise CommandError(f"player {index + 1}'s start position: {exc}") from exc
                starts.append(given[index])
            elif options["random_positions"]:
                starts.append(None)
            else:
                asked = self.ask_start(m, index, lines)
                if asked is None:
                    return
                starts.append(asked)
        self.play_game(new_game(m, starts, rng), lines)

    def ask_start(self, m: LabyrinthMap, index: int, lines: Iterator[str]) -> tuple[int, int] | None:
        rows, cols = m.fields[0].rows, m.fields[0].cols
        while True:
            self.stdout.write(f"Player {index + 1}, your start position (row,col) on the {rows}x{cols} field "
                              f"(rows 0..{rows - 1}, cols 0..{cols - 1}):")
            line = next(lines, None)
            if line is None:
                self.stdout.write("Input ended before the game started.")
                return None
            try:
                found = parse_positions([line.strip()])
                if len(found) != 1:
                    raise CommandError("one position, please")
                start_cell(m, found[0])
            except (CommandError, StartPositionError) as exc:
                self.stdout.write(str(exc))
                continue
            return found[0]

    def play_game(self, game: ConsoleGame, lines: Iterator[str]) -> None:
        count = len(game.players)
        waiting: dict[int, list[Event]] = {p: [] for p in range(count)}
        self.stdout.write(f"The game begins: {count} player(s). Type ? for help.")
        while game.awaiting is not None:
            player = game.awaiting
            for event in waiting[player]:
                self.say(player, event)
            waiting[player] = []
            self.stdout.write(f"Player {player + 1}, your move:")
            line = next(lines, None)
            if line is None:
                self.stdout.write("Input ended: the game is abandoned.")
                return
            game, events = play(game, line)
            speaker = player
            for event in events:
                if isinstance(event, TurnSkipped):
                    speaker = event.player if event.player is not None else speaker
                if isinstance(event, Won):
                    self.stdout.write(describe(event))
                elif event.player == speaker:
                    self.say(speaker, event)
                elif event.player is not None:
                    waiting[event.player].append(event)

    def say(self, player: int, event: Event) -> None:
        for line in describe(event).splitlines():
            self.stdout.write(f"[player {player + 1}] {line}")
