"""The balancing lab's simulator: seeded (same seed, same report), the report's invariants (hypothesis),
the Wilson interval, what-if copies, and the tuned defaults' aim (SPEC 17)."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.data import balance_data_load
from balance.engine import (
    AGGRESSIVE,
    CAUTIOUS,
    POLICIES,
    BalanceData,
    LabInputs,
    PartySpec,
    simulate,
    simulate_run,
    summarize,
    what_if,
    wilson,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def data() -> BalanceData:
    return balance_data_load()


def test_the_same_seed_gives_the_same_report(data: BalanceData) -> None:
    inputs = LabInputs(party=3, runs=20, seed=5)
    assert simulate(data, inputs, POLICIES) == simulate(data, inputs, POLICIES)


def test_another_seed_gives_other_runs(data: BalanceData) -> None:
    party = PartySpec.new_players(3)
    runs = {simulate_run(data, party, CAUTIOUS, seed) for seed in range(12)}
    assert len(runs) > 1


def test_a_run_is_a_function_of_its_seed_and_policy(data: BalanceData) -> None:
    party = PartySpec.new_players(2)
    assert simulate_run(data, party, AGGRESSIVE, 77) == simulate_run(data, party, AGGRESSIVE, 77)


def test_three_new_cautious_players_finish_one_first_dungeon_in_three(data: BalanceData) -> None:
    # given the data the migrations ship, when three new players play 300 first ordinary dungeons
    report = simulate(data, LabInputs(party=3, policy="cautious", runs=300, seed=1), POLICIES)
    # then at least one run in three completes, with the whole 95% interval above the aim's 1/3
    assert report.completion_low >= 1 / 3, report.completion_rate


def test_a_what_if_changes_the_copy_only(data: BalanceData) -> None:
    tougher = what_if(data, {"enemy.goblin-warlord.hp": 400, "run_rules.trap_damage_base": 12})
    assert next(t.hp for t in tougher.bestiary if t.slug == "goblin-warlord") == 400
    assert tougher.run_rules.trap_damage_base == 12
    assert data.run_rules.trap_damage_base != 12
    inputs = LabInputs(party=3, runs=40, seed=2)
    harder = simulate(tougher, inputs, POLICIES)
    assert harder.completion_rate < simulate(data, inputs, POLICIES).completion_rate


@pytest.mark.parametrize("name", ["run_rules.nope", "enemy.no-such-creature.hp", "item.999999.heal", "wat"])
def test_a_what_if_of_an_unknown_field_is_refused(data: BalanceData, name: str) -> None:
    with pytest.raises(KeyError):
        what_if(data, {name: 1})


@settings(max_examples=25, deadline=None)
@given(party=st.integers(1, 4), policy=st.sampled_from(sorted(POLICIES)), seed=st.integers(0, 2**32),
       runs=st.integers(1, 4), kind=st.sampled_from(["ordinary", "frenzy"]))
def test_the_report_keeps_its_invariants(party: int, policy: str, seed: int, runs: int, kind: str) -> None:
    data = balance_data_load()
    inputs = LabInputs(party=party, policy=policy, runs=runs, seed=seed, kind=kind)
    report = simulate(data, inputs, POLICIES)
    assert report.runs == runs == sum(report.outcomes.values())
    assert set(report.outcomes) <= {"completed", "failed", "escaped"}
    assert 0 <= report.completion_low <= report.completion_rate <= report.completion_high <= 1
    assert report.completion_rate == report.outcomes.get("completed", 0) / runs
    # nobody dies twice; deaths add up the same way by floor and by room kind
    assert 0 <= report.deaths_per_run <= party
    assert sum(report.deaths_by_floor.values()) == pytest.approx(report.deaths_per_run)
    assert sum(report.deaths_by_room_kind.values()) == pytest.approx(report.deaths_per_run)
    assert set(report.deaths_by_room_kind) <= {"enemy", "boss", "trap"}
    assert all(0 <= floor < report.floors_per_run * runs for floor in report.deaths_by_floor)
    # a failed run is one where every member died
    assert report.deaths_per_run * runs >= party * report.outcomes.get("failed", 0)
    assert report.coins_per_run >= 0 and report.charon_per_run >= 0 and report.items_per_run >= 0
    assert report.npcs_rescued <= min(report.npcs_met, report.outcomes.get("completed", 0))
    assert report.rooms_per_run >= 1 and report.battle_turns_per_run >= 0


@given(successes=st.integers(0, 500), extra=st.integers(0, 500))
def test_the_wilson_interval_holds_the_rate(successes: int, extra: int) -> None:
    trials = successes + extra
    low, high = wilson(successes, trials)
    assert 0 <= low <= high <= 1
    if trials:
        assert low <= successes / trials <= high


def test_the_wilson_interval_known_value() -> None:
    # 5 of 10 at 95%: 0.2366 .. 0.7634 (Wilson 1927; the textbook figure)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


def test_summarize_an_empty_sample_is_defined() -> None:
    report = summarize(LabInputs(runs=0), [])
    assert (report.completion_low, report.completion_high) == (0.0, 1.0)


def test_new_guilds_play_until_their_first_npc(data: BalanceData) -> None:
    # given a designer's what-if where a dungeon stays at three floors and the NPC chance is high from the
    # first completion on (c_opt small), when four new guilds play for their first NPC
    generous = what_if(data, {"generation.c_opt": 0.3, "generation.f_max": 3})
    inputs = LabInputs(party=3, runs=2, seed=3, npc_careers=4, npc_career_runs=40)
    report = simulate(generous, inputs, POLICIES)
    # then every guild rescued one, and the expected runs are the mean of their paths
    assert all(c["rescued"] for c in report.careers), report.careers
    assert report.runs_to_first_npc == sum(c["runs"] for c in report.careers) / 4
    # a first run has no NPC (the chance at 0 completed dungeons is 0, SPEC 5): a rescue needs two runs
    assert min(c["runs"] for c in report.careers) >= 2
    played = sum(c["runs"] for c in report.careers)
    assert sum(runs for runs, _ in report.completion_by_completed.values()) == played


def test_a_finished_member_keeps_the_items_and_counts_a_dungeon(data: BalanceData) -> None:
    party = PartySpec.new_players(3)
    result = next(r for r in (simulate_run(data, party, CAUTIOUS, seed) for seed in range(50))
                  if r.status == "completed")
    assert {m.player_id for m in result.members} == {1, 2, 3}
    finished = [m for m in result.members if m.completed == 1]
    assert len(finished) == result.completed_by
    assert sum(len(m.items) for m in finished) >= result.items  # the run's items kept, and what they had


def test_policies_are_named() -> None:
    assert {"cautious", "aggressive"} <= set(POLICIES)
    assert POLICIES["cautious"] is CAUTIOUS and dataclasses.is_dataclass(CAUTIOUS)
