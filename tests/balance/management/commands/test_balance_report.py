"""balance_report: SPEC 17's options, a progress bar on stderr, a table or one JSON object, what-ifs."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from balance.data import balance_data_load
from balance.engine import POLICIES, LabInputs, simulate

pytestmark = pytest.mark.django_db


def report(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("balance_report", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_json_prints_one_object_with_the_completion_rate() -> None:
    out, err = report("--party", "3", "--rank", "0", "--completed", "0", "--kind", "ordinary", "--policy",
                      "cautious", "--runs", "12", "--seed", "4", "--json")
    found = json.loads(out)
    assert 0 <= found["completion_rate"] <= 1
    assert found["runs"] == 12 and sum(found["outcomes"].values()) == 12
    # the figures are the simulator's for the same inputs and seed
    expected = simulate(balance_data_load(), LabInputs(party=3, runs=12, seed=4), POLICIES)
    assert found["completion_rate"] == expected.completion_rate
    assert found["battle_turns_per_run"] == expected.battle_turns_per_run
    assert "100% 12/12" in err and "\r[" in err


def test_the_table_names_every_figure() -> None:
    out, _ = report("--runs", "6", "--policy", "aggressive", "--party", "2", "--no-progress",
                    "--npc-careers", "1", "--npc-career-runs", "2")
    for label in ("completion rate", "95% CI", "deaths per run", "coins found per run",
                  "items kept per run", "Charon takes per run", "NPCs met / rescued", "rooms entered per run",
                  "battle turns per run", "runs to a first NPC", "policy aggressive"):
        assert label in out, label


def test_the_same_seed_prints_the_same_report() -> None:
    assert report("--runs", "5", "--seed", "8", "--no-progress") == report("--runs", "5", "--seed", "8",
                                                                           "--no-progress")


def test_a_what_if_simulates_the_changed_copy_without_saving_it() -> None:
    base = json.loads(report("--runs", "20", "--seed", "2", "--json", "--no-progress")[0])
    harder = json.loads(report("--runs", "20", "--seed", "2", "--json", "--no-progress",
                               "--what-if", "enemy.goblin-warlord.hp=500")[0])
    assert harder["completion_rate"] < base["completion_rate"]
    assert json.loads(report("--runs", "20", "--seed", "2", "--json", "--no-progress")[0]) == base


@pytest.mark.parametrize("args", [
    ["--party", "0"], ["--party", "7"], ["--runs", "0"], ["--rank", "-1"],
    ["--what-if", "nonsense"], ["--what-if", "enemy.nobody.hp=3"], ["--what-if", "run_rules.nope=1"],
])
def test_bad_inputs_are_refused(args: list[str]) -> None:
    with pytest.raises(CommandError):
        report(*args, "--runs" if "--runs" not in args else "--seed", "1")
