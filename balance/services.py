"""The balancing lab's services for the admin page "Balance": start a simulation (a row, then the task on
commit), and play one (the simulator over the saved data and a what-if, progress written to the row as it
goes, the result stored once at the end). docs/balance.md, *The admin page*."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from balance.data import FieldChange, balance_data_load
from balance.engine import POLICIES, BalanceData, Held, LabInputs, simulate
from balance.engine.simulator import equips_on_pickup
from balance.models import Simulation, SimulationStatus

#: The most runs one simulation may ask for (both columns together): a few minutes of a worker.
MAX_TOTAL_RUNS = 20_000


def starting_gear(data: BalanceData, item_ids: Sequence[int]) -> tuple[tuple[int, bool], ...]:
    """What a new player carries into the run when given ``item_ids``: each worn or in hand as a picked-up
    item would be; ``ValidationError`` if a new player (strength 0, no belt) cannot carry them all."""
    held: list[Held] = []
    for number, item_id in enumerate(item_ids, start=1):
        try:
            kind = data.item(item_id)
        except KeyError:
            raise ValidationError(_("No item %(id)s in the catalog."), params={"id": item_id},
                                  code="unknown_item") from None
        if not data.carry(held, kind, 0):
            raise ValidationError(_("A new player cannot carry %(item)s with the rest of the gear."),
                                  params={"item": kind.name}, code="too_much_gear")
        held.append(Held(number, kind, equips_on_pickup(held, kind)))
    return tuple((h.item_kind.id, h.equipped) for h in held)


def cells(inputs: dict[str, Any]) -> list[tuple[int, int, int]]:
    """The grid a simulation plays: (party size, rank, completed) in that order."""
    return [(n, r, c) for n in inputs["party_sizes"] for r in inputs["ranks"] for c in inputs["completed"]]


def simulation_total(inputs: dict[str, Any], *, what_if: bool) -> int:
    return len(cells(inputs)) * int(inputs["runs"]) * (2 if what_if else 1)


@transaction.atomic
def simulation_start(*, user: AbstractBaseUser | None, inputs: dict[str, Any],
                     change: FieldChange | None) -> Simulation:
    """A queued simulation of ``inputs`` (validated by the page's form), played by a worker once this
    transaction commits."""
    from balance.tasks import simulation_run

    simulation = Simulation.objects.create(
        created_by_id=user.pk if user is not None and user.is_authenticated else None, inputs=inputs,
        change_field=change.key if change else "", change_value=change.value if change else "",
        total=simulation_total(inputs, what_if=change is not None))
    simulation_run.delay_on_commit(simulation.pk)
    return simulation


class _Progress:
    """Writes the runs done to the row, at most once per percent, each write a statement of its own."""

    def __init__(self, simulation_id: int, total: int) -> None:
        self.simulation_id, self.total = simulation_id, total
        self.offset = 0
        self.percent = -1

    def __call__(self, done: int, total: int) -> None:
        done += self.offset
        percent = done * 100 // max(1, self.total)
        if percent != self.percent:
            self.percent = percent
            Simulation.objects.filter(pk=self.simulation_id).update(done=min(done, self.total))


def _column(data: BalanceData, inputs: dict[str, Any], gear: tuple[tuple[int, bool], ...],
            progress: _Progress) -> list[dict[str, Any]]:
    found = []
    for party, rank, completed in cells(inputs):
        lab = LabInputs(party=party, rank=rank, completed=completed, kind=inputs["kind"],
                        policy=inputs["policy"], runs=inputs["runs"], seed=inputs["seed"], gear=gear)
        report = simulate(data, lab, POLICIES, progress=progress).to_json()
        for path_only in ("inputs", "careers", "completion_by_completed", "runs_to_first_npc"):
            del report[path_only]
        found.append({"party": party, "rank": rank, "completed": completed, **report})
        progress.offset += inputs["runs"]
    return found


def simulation_play(*, simulation_id: int) -> str:
    """Play a queued simulation (idempotent: a simulation already taken is left alone) and store its result:
    ``{"saved": [cell, ...], "what_if": [cell, ...] or None}``, a cell being a report of the grid's
    (party, rank, completed). Each run of the what-if column has the seed of the same run of the saved one,
    so the columns differ by the change, not by luck. Returns the status it ended with."""
    taken = Simulation.objects.filter(pk=simulation_id, status=SimulationStatus.QUEUED).update(
        status=SimulationStatus.RUNNING)
    simulation = Simulation.objects.get(pk=simulation_id)
    if not taken:
        return simulation.status
    inputs = simulation.inputs
    progress = _Progress(simulation_id, simulation.total)
    try:
        saved = balance_data_load()
        gear = starting_gear(saved, inputs["gear"])
        change = FieldChange.parse(simulation.change_field, simulation.change_value) \
            if simulation.change_field else None
        changed = balance_data_load(change) if change is not None else None
        result = {"saved": _column(saved, inputs, gear, progress),
                  "what_if": _column(changed, inputs, gear, progress) if changed is not None else None}
    except (ValidationError, KeyError, ValueError) as exc:  # the data changed since the form checked it
        message = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        Simulation.objects.filter(pk=simulation_id).update(status=SimulationStatus.FAILED, error=message,
                                                           finished_at=timezone.now())
        return SimulationStatus.FAILED
    Simulation.objects.filter(pk=simulation_id).update(status=SimulationStatus.DONE, done=simulation.total,
                                                       result=result, finished_at=timezone.now())
    return SimulationStatus.DONE
