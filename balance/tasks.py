"""Celery tasks of the balancing lab: thin wrappers over services."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import translation

from balance.services import simulation_play


@shared_task(name="balance.tasks.simulation_run")
def simulation_run(simulation_id: int) -> str:
    """Play the simulation's runs, reporting progress on its row, and store its result; returns its status.
    A worker serves no one request: what it stores (a refusal's words) is in the site's language, whichever
    language the process's thread was last left in."""
    with translation.override(settings.LANGUAGE_CODE):
        return simulation_play(simulation_id=simulation_id)
