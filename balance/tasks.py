"""Celery tasks of the balancing lab: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task

from balance.services import simulation_play


@shared_task(name="balance.tasks.simulation_run")
def simulation_run(simulation_id: int) -> str:
    """Play the simulation's runs, reporting progress on its row, and store its result; returns its status."""
    return simulation_play(simulation_id=simulation_id)
