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
from dungeons.generation import npc_chance

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
    #: runs per completed count for the path to the first NPC (0: not computed)
    npc_path_runs: int = 0
    #: completed counts the path looks at (0 .. this)
    npc_path_levels: int = 30

    def party_spec(self) -> PartySpec:
        return PartySpec.new_players(self.party, completed=self.completed, rank=self.rank, guild=self.guild)


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
    runs_to_first_npc: float | None = None
    npc_path: list[dict[str, float]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        found = asdict(self)
        found["deaths_by_floor"] = {str(k): v for k, v in self.deaths_by_floor.items()}
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
    path_total = inputs.npc_path_runs * (inputs.npc_path_levels + 1)
    total = inputs.runs + path_total
    results = []
    for index, seed in enumerate(run_seeds(inputs.seed, inputs.runs)):
        results.append(simulate_run(data, party, policy, seed, kind=inputs.kind))
        progress(index + 1, total)
    report = summarize(inputs, results)
    if not inputs.npc_path_runs:
        return report
    expected, path = first_npc_path(data, inputs, policy,
                                    progress=lambda done, _: progress(inputs.runs + done, total))
    return Report(**{**report.__dict__, "runs_to_first_npc": expected, "npc_path": path})


def first_npc_path(data: BalanceData, inputs: LabInputs, policy: Policy, *,
                   progress: Progress = _quiet) -> tuple[float | None, list[dict[str, float]]]:
    """The expected number of runs until a new guild (rank 0, its members at 0 completed dungeons) rescues
    its first NPC, playing parties of ``inputs.party`` with the policy.

    A Markov chain over the party's completed count C: at C a run completes with the rate p(C) measured by
    ``npc_path_runs`` simulated runs, holds an NPC with the generator's chance P(C) (rank 0), and a
    completed run with an NPC rescues it with the share s of the NPCs met in completed runs that survived
    (over every level; 1 when none was met). A rescue (r = p P s) ends the path; another completion moves
    to C + 1; a failure stays. E(C) = (1 + (p - r) E(C + 1)) / p; the last level looked at is taken to hold
    for every count after it (E = 1 / r there), which overstates the path a little.
    """
    levels = inputs.npc_path_levels
    rates: list[float] = []
    met = saved = 0
    done = 0
    for level in range(levels + 1):
        party = PartySpec.new_players(inputs.party, completed=level, guild=True)
        completed = 0
        for seed in run_seeds(inputs.seed, inputs.npc_path_runs, stream=f"npc-path/{level}"):
            result = simulate_run(data, party, policy, seed, kind=inputs.kind)
            if result.status == "completed":
                completed += 1
                if result.npc_met:
                    met += 1
                    saved += result.rescued is not None
            done += 1
            progress(done, (levels + 1) * inputs.npc_path_runs)
        rates.append(completed / inputs.npc_path_runs)
    survival = saved / met if met else 1.0
    path = []
    expected: float | None = None
    for level in range(levels, -1, -1):
        p = rates[level]
        chance = npc_chance(rank=0.0, completed=float(level), params=data.generation)
        r = p * chance * survival
        if level == levels:
            expected = 1 / r if r > 0 else None
        elif p > 0 and expected is not None:
            expected = (1 + (p - r) * expected) / p
        else:
            expected = None
        path.append({"completed": level, "completion_rate": p, "npc_chance": chance,
                     "runs_from_here": expected if expected is not None else math.inf})
    path.reverse()
    return expected, path
