"""dungeon_report: generate many dungeons with the settings in force and print their distributions."""
from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError, OutputWrapper

from dungeons import generation
from dungeons.generation.sampling import SampleStats, sample_dungeons
from dungeons.selectors import generation_params_get


def _plain(text: str) -> str:
    return text


class ProgressBar:
    """A one-line text progress bar on a stream (stderr), redrawn at most once per percent."""

    def __init__(self, stream: OutputWrapper, width: int = 40) -> None:
        self.stream = stream
        self.width = width
        self.shown = -1
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // total
        if percent == self.shown and done != total:
            return
        self.shown = percent
        filled = self.width * done // total
        elapsed = time.perf_counter() - self.started
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {percent:3d}% {done}/{total} {elapsed:.1f}s"
        # ending="" keeps the line open for the next redraw; no error colouring on a progress bar.
        self.stream.write(line + ("\n" if done == total else ""), style_func=_plain, ending="")
        self.stream.flush()


class Command(BaseCommand):
    help = "Generate many dungeons for one party (N, R, C) and print floor, room-kind and NPC distributions."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--count", type=int, default=1000, help="dungeons to generate (default 1000)")
        parser.add_argument("--kind", choices=["ordinary", "frenzy"], default="ordinary")
        parser.add_argument("--players", type=int, default=4, help="party size N")
        parser.add_argument("--rank", type=float, default=0.0, help="guild rank R")
        parser.add_argument("--completed", type=float, default=0.0, help="mean completed dungeons C")
        parser.add_argument("--mixed", action="store_true", help="a mixed-guild party (no NPC)")
        parser.add_argument("--seed", type=int, default=0, help="master seed; the report is reproducible")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    def handle(self, *args: Any, **options: Any) -> None:
        params = generation_params_get()
        progress = None if options["no_progress"] else ProgressBar(self.stderr)
        try:
            stats = sample_dungeons(
                kind=options["kind"], n=options["players"], rank=options["rank"],
                completed=options["completed"], same_guild=not options["mixed"], params=params,
                samples=options["count"], seed=options["seed"], on_progress=progress,
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.render(stats, options, params))

    @staticmethod
    def render(stats: SampleStats, options: dict[str, Any], params: generation.GenerationParams) -> str:
        def bar(share: float, width: int = 30) -> str:
            return "#" * round(share * width)

        lines = [
            (f"{stats.dungeons} {options['kind']} dungeons, N={options['players']} R={options['rank']:g} "
             f"C={options['completed']:g} {'mixed guilds' if options['mixed'] else 'one guild'}, "
             f"seed {options['seed']}, generator v{generation.GENERATOR_VERSION}"),
            "params: " + ", ".join(f"{k}={v:g}" for k, v in params.as_dict().items()),
            "",
            "floors per dungeon:",
        ]
        lines += [f"  {f:>3}  {n / stats.dungeons:6.1%}" for f, n in sorted(stats.floor_counts.items())]
        floors_total = sum(stats.room_counts.values())
        lines += ["", "rooms per floor:"]
        lines += [f"  {r:>3}  {n / floors_total:6.1%}  {bar(n / floors_total)}"
                  for r, n in sorted(stats.room_counts.items())]
        lines += ["", "room kinds (share of all rooms, mean per dungeon):"]
        per_dungeon = stats.kinds_per_dungeon()
        lines += [
            f"  {kind:<9} {share:6.1%}  {per_dungeon[kind]:6.2f}  {bar(share)}"
            for kind, share in stats.kind_shares().items()
        ]
        lines += [
            "",
            (f"NPC: {stats.npc_dungeons} of {stats.dungeons} ({stats.npc_rate:.1%}); "
             f"formula {stats.expected_npc_chance:.1%}"),
        ]
        npc_total = stats.npc_dungeons or 1
        for i, weight in enumerate(stats.expected_npc_floor_weights):
            lines.append(f"  floor {i}: {stats.npc_floors[i] / npc_total:6.1%} (formula {weight:6.1%})")
        if stats.npc_kinds:
            lines.append("  kinds: " + ", ".join(f"{k} {n}" for k, n in stats.npc_kinds.most_common()))
        story_items = ", ".join(f"{k} {n}" for k, n in stats.story_items.most_common())
        lines += ["", "story items: " + (story_items or "none")]
        return "\n".join(lines) + "\n"
