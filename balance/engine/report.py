"""Many simulated runs summed up for a designer: completion with its Wilson interval, deaths per floor
and room kind, coins, items, Charon's take, NPCs, rooms and battle turns per run, and the expected number
of runs until a new guild's first NPC. Seeded: the same inputs and seed give the same report."""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from balance.engine.policies import Policy
from balance.engine.simulator import RunResult, simulate_run
from balance.engine.values import BalanceData, PartySpec

#: A run's seed is drawn below this (the server's run seeds are signed 64-bit).
MAX_SEED = 2**63 - 1
#: The normal quantile of a 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1 both ends; (0, 1) for no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # rounding must not push an end past the rate itself (0 of n: the low end is 0 exactly)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def run_seeds(seed: int, runs: int, stream: str = "runs") -> list[int]:
    """The runs' seeds, drawn from the lab's seed (a stream per purpose)."""
    rng = random.Random(f"deepdelve-balance/{seed}/{stream}")
    return [rng.randrange(MAX_SEED) for _ in range(runs)]


@dataclass(frozen=True)
class LabInputs:
    """What to simulate: a party of ``party`` new players (or ``members`` as given), its guild's rank and
    completed count, the dungeon kind, the policy, how many runs and the seed."""

    party: int = 3
    rank: int = 0
    completed: int = 0
    kind: str = "ordinary"
    policy: str = "cautious"
    runs: int = 100
    seed: int = 1
    guild: bool = True
    #: new guilds whose path to the first NPC is played (0: not computed)
    npc_careers: int = 0
    #: the most runs a guild's path plays before it is given up
    npc_career_runs: int = 60
    #: what every member carries at the start (catalog ids, worn or in hand); () is a new player's nothing
    gear: tuple[tuple[int, bool], ...] = ()

    def party_spec(self) -> PartySpec:
        return PartySpec.new_players(self.party, completed=self.completed, rank=self.rank, guild=self.guild,
                                     items=self.gear)


@dataclass(frozen=True)
class Report:
    inputs: LabInputs
    runs: int
    outcomes: dict[str, int]
    completion_rate: float
    completion_low: float
    completion_high: float
    deaths_per_run: float
    deaths_by_floor: dict[int, float]  # deaths per run on each floor (0-based)
    deaths_by_room_kind: dict[str, float]  # deaths per run by the kind of room they died in
    coins_per_run: float
    items_per_run: float
    charon_per_run: float
    npcs_met: int
    npcs_rescued: int
    floors_per_run: float
    rooms_per_run: float
    battle_turns_per_run: float
    #: the mean runs until a new guild's first NPC (None: not computed, or a guild did not get there)
    runs_to_first_npc: float | None = None
    #: each new guild's path: {"runs", "completions", "rescued"} (rescued: the NPC kind, or None)
    careers: list[dict[str, Any]] = field(default_factory=list)
    #: over those paths, by the party's completed dungeons at a run's start: [runs, completed runs]
    completion_by_completed: dict[int, list[int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        found = asdict(self)
        found["deaths_by_floor"] = {str(k): v for k, v in self.deaths_by_floor.items()}
        found["completion_by_completed"] = {str(k): v for k, v in self.completion_by_completed.items()}
        return found


def summarize(inputs: LabInputs, results: Sequence[RunResult]) -> Report:
    runs = len(results)
    per = 1 / runs if runs else 0.0
    outcomes = Counter(r.status for r in results)
    completed = outcomes.get("completed", 0)
    low, high = wilson(completed, runs)
    by_floor: Counter[int] = Counter()
    by_kind: Counter[str] = Counter()
    for result in results:
        for floor, kind in result.deaths:
            by_floor[floor] += 1
            by_kind[kind] += 1
    return Report(
        inputs=inputs, runs=runs, outcomes=dict(sorted(outcomes.items())),
        completion_rate=completed * per, completion_low=low, completion_high=high,
        deaths_per_run=sum(by_floor.values()) * per,
        deaths_by_floor={f: n * per for f, n in sorted(by_floor.items())},
        deaths_by_room_kind={k: n * per for k, n in sorted(by_kind.items())},
        coins_per_run=sum(r.coins for r in results) * per, items_per_run=sum(r.items for r in results) * per,
        charon_per_run=sum(r.charon for r in results) * per,
        npcs_met=sum(1 for r in results if r.npc_met), npcs_rescued=sum(1 for r in results if r.rescued),
        floors_per_run=sum(r.floors for r in results) * per,
        rooms_per_run=sum(r.rooms_entered for r in results) * per,
        battle_turns_per_run=sum(r.battle_turns for r in results) * per,
    )


Progress = Callable[[int, int], None]


def _quiet(done: int, total: int) -> None:
    return None


def simulate(data: BalanceData, inputs: LabInputs, policies: dict[str, Policy], *,
             progress: Progress = _quiet) -> Report:
    """Play ``inputs.runs`` runs (and the path to the first NPC if asked); ``progress(done, total)`` after
    each."""
    policy = policies[inputs.policy]
    party = inputs.party_spec()
    path_total = inputs.npc_careers * inputs.npc_career_runs
    total = inputs.runs + path_total
    results = []
    for index, seed in enumerate(run_seeds(inputs.seed, inputs.runs)):
        results.append(simulate_run(data, party, policy, seed, kind=inputs.kind))
        progress(index + 1, total)
    report = summarize(inputs, results)
    if not inputs.npc_careers:
        return report
    careers, by_completed = first_npc_paths(data, inputs, policy,
                                            progress=lambda done: progress(inputs.runs + done, total))
    reached = [c["runs"] for c in careers if c["rescued"]]
    expected = sum(reached) / len(reached) if len(reached) == len(careers) else None
    return Report(**{**report.__dict__, "runs_to_first_npc": expected, "careers": careers,
                     "completion_by_completed": by_completed})


def first_npc_paths(data: BalanceData, inputs: LabInputs, policy: Policy, *,
                    progress: Callable[[int], None] = lambda done: None,
                    ) -> tuple[list[dict[str, Any]], dict[int, list[int]]]:
    """New guilds (rank 0; ``inputs.party`` new players) play run after run with the policy until they
    rescue their first NPC, or ``npc_career_runs`` runs: each run's party is the last one as it left the
    run (the items kept, the money, each member's completed dungeons; a dead member respawns with what they
    did not lose), so the path is the game's, gear and all. Returns each guild's path and, over all of
    them, the runs and completions by the party's mean completed count (rounded down) at a run's start.
    """
    careers: list[dict[str, Any]] = []
    by_completed: dict[int, list[int]] = {}
    done = 0
    for career in range(inputs.npc_careers):
        party = PartySpec.new_players(inputs.party, guild=True)
        completions = 0
        rescued = None
        runs = 0
        for seed in run_seeds(inputs.seed, inputs.npc_career_runs, stream=f"career/{career}"):
            level = sum(m.completed for m in party.members) // len(party.members)
            result = simulate_run(data, party, policy, seed, kind=inputs.kind)
            runs += 1
            done += 1
            progress(done)
            counted = by_completed.setdefault(level, [0, 0])
            counted[0] += 1
            if result.status == "completed":
                counted[1] += 1
                completions += 1
            party = PartySpec(result.members, guild=True)
            if result.rescued:
                rescued = result.rescued
                break
        if runs < inputs.npc_career_runs:  # the path ended early: its remaining runs count as done
            done += inputs.npc_career_runs - runs
            progress(done)
        careers.append({"runs": runs, "completions": completions, "rescued": rescued})
    return careers, dict(sorted(by_completed.items()))
