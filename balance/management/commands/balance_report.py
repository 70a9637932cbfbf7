"""balance_report: simulate whole runs with a bot policy over the saved admin data (or a what-if copy of it)
and print the figures as a table, or as one JSON object (``--json``). docs/balance.md."""
from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from balance.data import balance_data_load
from balance.engine import POLICIES, LabInputs, Report, simulate, what_if
from dungeons.management.commands.dungeon_report import ProgressBar


def _what_if(pairs: list[str]) -> dict[str, Any]:
    """``field=value`` pairs; a value is read as JSON (numbers, true/false), else kept as text."""
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise CommandError(f"--what-if takes field=value, not {pair!r}")
        try:
            changes[name] = json.loads(text)
        except json.JSONDecodeError:
            changes[name] = text
    return changes


def _table(report: Report) -> list[str]:
    i = report.inputs
    rows = [
        (f"Balancing lab: {report.runs} runs, {i.kind}, party {i.party}, rank {i.rank}, "
         f"completed {i.completed}, policy {i.policy}, seed {i.seed}"),
        "",
        (f"{'completion rate':<28}{report.completion_rate:>8.3f}   95% CI [{report.completion_low:.3f}, "
         f"{report.completion_high:.3f}]"),
        f"{'outcomes':<28}{', '.join(f'{k} {v}' for k, v in report.outcomes.items())}",
        f"{'deaths per run':<28}{report.deaths_per_run:>8.2f}",
    ]
    rows += [f"{'  on floor ' + str(f):<28}{value:>8.2f}" for f, value in report.deaths_by_floor.items()]
    rows += [f"{'  in ' + k + ' rooms':<28}{value:>8.2f}" for k, value in report.deaths_by_room_kind.items()]
    rows += [
        f"{'coins found per run':<28}{report.coins_per_run:>8.1f}",
        f"{'items kept per run':<28}{report.items_per_run:>8.2f}",
        f"{'Charon takes per run':<28}{report.charon_per_run:>8.1f}",
        f"{'NPCs met / rescued':<28}{report.npcs_met:>8} / {report.npcs_rescued}",
        f"{'floors per run':<28}{report.floors_per_run:>8.2f}",
        f"{'rooms entered per run':<28}{report.rooms_per_run:>8.2f}",
        f"{'battle turns per run':<28}{report.battle_turns_per_run:>8.1f}",
    ]
    if report.careers:
        expected = report.runs_to_first_npc
        reached = sum(1 for c in report.careers if c["rescued"])
        shown = "not reached" if expected is None else f"{expected:.1f}"
        rows.append(f"{'runs to a first NPC':<28}{shown:>8}   ({reached} of {len(report.careers)} new guilds "
                    f"within {i.npc_career_runs} runs)")
        rows.append("  new guilds' runs by completed dungeons at the start: completed  runs  completion")
        rows += [f"  {level:>57}  {runs:>4}  {done / runs:>10.3f}"
                 for level, (runs, done) in report.completion_by_completed.items()]
    return rows


class Command(BaseCommand):
    help = "Simulate whole runs with a bot policy over the admin's data: completion, deaths, loot."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--party", type=int, default=3, help="party size N (new players)")
        parser.add_argument("--rank", type=int, default=0, help="the party's guild rank R")
        parser.add_argument("--completed", type=int, default=0, help="completed dungeons of every member (C)")
        parser.add_argument("--kind", choices=["ordinary", "frenzy"], default="ordinary")
        parser.add_argument("--policy", choices=sorted(POLICIES), default="cautious")
        parser.add_argument("--runs", type=int, default=200, help="runs to simulate (default 200)")
        parser.add_argument("--seed", type=int, default=1, help="the lab's seed; the report is reproducible")
        parser.add_argument("--mixed", action="store_true", help="a party of no one guild (no NPC)")
        parser.add_argument("--npc-careers", type=int, default=0,
                            help="new guilds played until their first NPC, for the expected runs (0: skip)")
        parser.add_argument("--npc-career-runs", type=int, default=60,
                            help="the most runs a new guild plays for its first NPC (default 60)")
        parser.add_argument("--what-if", action="append", default=[], metavar="FIELD=VALUE",
                            help="simulate a copy of the data with a field changed, e.g. "
                                 "run_rules.trap_damage_base=2, enemy.giant-rat.hp=6 (repeatable)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["party"] <= 6:
            raise CommandError("--party is 1..6")
        if options["runs"] < 1 or min(options["rank"], options["completed"], options["npc_careers"]) < 0 \
                or options["npc_career_runs"] < 1:
            raise CommandError("--runs and --npc-career-runs are at least 1; --rank, --completed and "
                               "--npc-careers are not negative")
        data = balance_data_load()
        try:
            data = what_if(data, _what_if(options["what_if"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise CommandError(f"--what-if: unknown or invalid field {exc}") from exc
        inputs = LabInputs(party=options["party"], rank=options["rank"], completed=options["completed"],
                           kind=options["kind"], policy=options["policy"], runs=options["runs"],
                           seed=options["seed"], guild=not options["mixed"],
                           npc_careers=options["npc_careers"], npc_career_runs=options["npc_career_runs"])
        progress = ProgressBar(self.stderr)
        report = simulate(data, inputs, POLICIES,
                          progress=(lambda done, total: None) if options["no_progress"] else progress)
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), sort_keys=True))
        else:
            self.stdout.write("\n".join(_table(report)))
