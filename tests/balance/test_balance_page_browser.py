"""The admin page "Balance" in a real Chromium with a real Celery worker: a designer logs in, runs a small
balance with a what-if, watches the progress bar reach the end, and reads both columns of results.

Needs PostgreSQL (the worker, another process, reads the live server's committed rows) and Redis (the
broker). Set BALANCE_SCREENSHOTS=docs/img to refresh docs/img/balance.png.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from balance.models import Simulation, SimulationStatus
from combat.models import EnemyKind
from tests.play.browser import NEEDS_CHROMIUM, browser  # noqa: F401 - fixtures

# migrated_data (conftest.py): the migrated bestiary and catalog, even after a transactional flush
pytestmark = [NEEDS_CHROMIUM, pytest.mark.redis, pytest.mark.postgres,
              pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migrated_data")]

SHOTS = os.environ.get("BALANCE_SCREENSHOTS")
PASSWORD = "a long enough passphrase 42"
WAIT_MS = 120_000


def test_a_designer_runs_a_balance_with_a_what_if_and_reads_both_columns(
        live_server: Any, browser: Any, balance_worker: Any, django_user_model: Any) -> None:  # noqa: F811
    # given: a designer (staff) and a what-if making the Goblin Warlord much weaker
    django_user_model.objects.create_superuser("designer", "designer@example.com", PASSWORD)
    warlord = EnemyKind.objects.get(slug="goblin-warlord")
    page = browser.new_page(viewport={"width": 1500, "height": 1000})

    # when: they log in, open the page from the admin index and run a small balance
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "designer")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.click('a[href="/admin/balance/simulation/"]')
    page.fill("#id_party_sizes", "1, 2, 3")
    page.fill("#id_ranks", "0, 2")
    page.fill("#id_runs", "20")
    page.select_option("#id_change_field", f"combat.enemykind:{warlord.pk}:hp")
    page.fill("#id_change_value", "4")
    page.click("input[name=run]")

    # then: the simulation's page shows a progress bar that the worker's progress fills to the end
    page.wait_for_selector("#balance-progress progress")
    simulation = Simulation.objects.get()
    assert simulation.total == 3 * 2 * 20 * 2
    page.wait_for_selector("#balance-column-2", timeout=WAIT_MS)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.DONE, simulation.error + "\n" + balance_worker.log()
    bar = page.locator("#balance-progress progress")
    assert bar.get_attribute("value") == bar.get_attribute("max") == str(simulation.total)
    # and both columns: three charts and a table of the six parties each
    for column, title in ((1, "Saved data"), (2, "What-if")):
        section = page.locator(f"#balance-column-{column}")
        assert section.locator("h2").inner_text() == title
        assert section.locator("svg[role=img]").count() == 3
        assert section.locator("table.balance-table tbody tr").count() == 6
    assert "(saved) becomes 4" in page.inner_text("#balance-change")
    saved = simulation.result["saved"]
    first_row = page.locator("#balance-column-1 table.balance-table tbody tr").first.inner_text()
    assert f"{saved[0]['completion_rate']:.3f}" in first_row
    # and the what-if was not saved
    assert EnemyKind.objects.get(pk=warlord.pk).hp == warlord.hp
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "balance.png"), full_page=True)
