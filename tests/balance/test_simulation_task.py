"""The Celery task of the page "Balance": run as a function for its logic (the figures are the simulator's,
the what-if is the change of one admin field, never saved; progress; idempotent; failures are a status),
and once by a real worker over Redis on PostgreSQL."""
from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from backend.celery import app as celery_app
from balance.data import FieldChange, balance_data_load
from balance.engine import POLICIES, LabInputs, simulate, what_if
from balance.models import Simulation, SimulationStatus
from balance.services import simulation_total, starting_gear
from balance.tasks import simulation_run
from combat.models import EnemyKind
from dungeons.models import RunSettings
from players.models import ItemKind

INPUTS = {"policy": "cautious", "party_sizes": [1, 3], "ranks": [0], "completed": [0], "kind": "ordinary",
          "gear": [], "runs": 6, "seed": 5}


def _simulation(change: FieldChange | None = None, **inputs: object) -> Simulation:
    given = {**INPUTS, **inputs}
    return Simulation.objects.create(inputs=given, change_field=change.key if change else "",
                                     change_value=change.value if change else "",
                                     total=simulation_total(given, what_if=change is not None))


@pytest.mark.django_db
def test_the_task_stores_the_simulators_figures_for_the_saved_data_and_the_what_if() -> None:
    # given: a what-if halving the Goblin Warlord's HP, as the admin page names it
    warlord = EnemyKind.objects.get(slug="goblin-warlord")
    change = FieldChange("combat.enemykind", warlord.pk, "hp", str(warlord.hp // 2))
    simulation = _simulation(change)

    # when: the task runs (the function itself, in this process)
    status = simulation_run(simulation.pk)

    # then: both columns are the simulator's reports for each party size, the what-if's those of the same data
    # changed at the engine's level
    simulation.refresh_from_db()
    assert status == simulation.status == SimulationStatus.DONE
    assert simulation.done == simulation.total == 2 * 2 * 6
    assert simulation.finished_at is not None
    saved = balance_data_load()
    changed = what_if(saved, {"enemy.goblin-warlord.hp": warlord.hp // 2})
    for column, data in (("saved", saved), ("what_if", changed)):
        cells = simulation.result[column]
        assert [(c["party"], c["rank"], c["completed"]) for c in cells] == [(1, 0, 0), (3, 0, 0)]
        for cell in cells:
            expected = simulate(data, LabInputs(party=cell["party"], runs=6, seed=5), POLICIES)
            assert cell["completion_rate"] == expected.completion_rate
            assert cell["outcomes"] == expected.outcomes
            assert cell["battle_turns_per_run"] == expected.battle_turns_per_run
    assert simulation.result["saved"] != simulation.result["what_if"]  # the change changed the runs
    # and the what-if was never saved
    assert EnemyKind.objects.get(pk=warlord.pk).hp == warlord.hp


@pytest.mark.django_db
def test_the_saved_data_alone_has_no_what_if_column() -> None:
    simulation = _simulation(party_sizes=[2], runs=3)
    simulation_run(simulation.pk)
    simulation.refresh_from_db()
    assert simulation.result["what_if"] is None and len(simulation.result["saved"]) == 1
    assert simulation.done == simulation.total == 3


@pytest.mark.django_db
def test_a_simulation_is_played_once() -> None:
    # given: a played simulation
    simulation = _simulation(party_sizes=[1], runs=2)
    simulation_run(simulation.pk)
    simulation.refresh_from_db()
    finished = simulation.finished_at

    # when: the task is delivered again
    assert simulation_run(simulation.pk) == SimulationStatus.DONE

    # then: nothing was played again
    simulation.refresh_from_db()
    assert simulation.finished_at == finished


@pytest.mark.django_db
def test_a_change_the_data_no_longer_takes_ends_as_a_failed_simulation() -> None:
    # given: a what-if checked when asked, then made invalid (a value its field refuses); the worker's thread
    # last served a Russian request (a request's language stays active in its thread after the answer)
    change = FieldChange("dungeons.runsettings", 1, "trap_damage_base", "-4")
    simulation = _simulation(change, party_sizes=[1], runs=2)

    # when
    with translation.override("ru"):
        status = simulation_run(simulation.pk)

    # then: a failed simulation saying why in the site's language, and the settings as they were
    simulation.refresh_from_db()
    assert status == simulation.status == SimulationStatus.FAILED
    assert "greater than or equal to 0" in simulation.error
    assert simulation.result is None
    assert RunSettings.load().trap_damage_base != -4


@pytest.mark.django_db
def test_a_field_change_is_checked_by_its_field_and_row() -> None:
    FieldChange("dungeons.runsettings", 1, "battle_loot_chance", "0.7").check()
    for key, value in (("dungeons.runsettings:1:trap_damage_base", "-1"),
                       ("dungeons.runsettings:1:trap_damage_base", "many"),
                       ("dungeons.runsettings:1:no_such_field", "1"),
                       ("dungeons.nosuchmodel:1:hp", "1"),
                       ("combat.enemykind:1:name", "Rat King")):  # a name is not a balancing field
        with pytest.raises(ValidationError):
            FieldChange.parse(key, value).check()


@pytest.mark.django_db
def test_starting_gear_is_what_a_new_player_can_carry() -> None:
    data = balance_data_load()
    weapons = list(ItemKind.objects.filter(category="weapon").order_by("pk")[:3])
    assert len(weapons) == 3
    # two weapons go into the hands
    assert starting_gear(data, [w.pk for w in weapons[:2]]) == ((weapons[0].pk, True), (weapons[1].pk, True))
    with pytest.raises(ValidationError):  # a third is over the carry limit (two weapons)
        starting_gear(data, [w.pk for w in weapons])


@pytest.mark.django_db
def test_the_starting_gear_reaches_the_simulated_party() -> None:
    weapon = ItemKind.objects.filter(category="weapon").order_by("-damage").first()
    assert weapon is not None
    simulation = _simulation(party_sizes=[3], runs=6, gear=[weapon.pk])
    simulation_run(simulation.pk)
    simulation.refresh_from_db()
    data = balance_data_load()
    expected = simulate(data, LabInputs(party=3, runs=6, seed=5, gear=((weapon.pk, True),)), POLICIES)
    bare = simulate(data, LabInputs(party=3, runs=6, seed=5), POLICIES)
    assert simulation.result["saved"][0]["battle_turns_per_run"] == expected.battle_turns_per_run
    assert expected.battle_turns_per_run != bare.battle_turns_per_run


# --- a real worker over Redis, on PostgreSQL -----------------------------------------------------------

@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_plays_a_simulation_sent_through_the_broker(
    balance_worker: Any, migrated_data: None
) -> None:
    from tests.guilds.test_activity_worker import BROKER_URL

    # given: a committed simulation, and a worker on a queue of its own
    simulation = _simulation(party_sizes=[1, 2], runs=4)

    # when: the task is sent through the broker
    with celery_app.connection_for_write(BROKER_URL) as broker:
        simulation_run.apply_async((simulation.pk,), connection=broker)

    # then: the worker played it and stored the result
    deadline = time.monotonic() + 120
    while Simulation.objects.filter(pk=simulation.pk, status__in=["queued", "running"]).exists():
        assert balance_worker.process.poll() is None, f"the worker died:\n{balance_worker.log()}"
        assert time.monotonic() < deadline, f"not played within 120 s:\n{balance_worker.log()}"
        time.sleep(0.2)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.DONE, simulation.error
    assert simulation.done == simulation.total == 8
    assert [c["party"] for c in simulation.result["saved"]] == [1, 2]
    assert "balance.tasks.simulation_run" in balance_worker.log()
