"""The designers' admin pictures in Chromium: a superuser signs in to the Django admin, steps a cell capture
board through its match's log with the step links (each step's pieces are the API's board after that
many moves), and sees the roguelike's board with its monsters and the paper map's legend.

Set ADMIN_SCREENSHOTS=docs/img to refresh docs/img/admin-*.png (docs/matches.md, docs/roguelike.md,
docs/paper-labyrinth-maps.md).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

from django.contrib.auth import get_user_model

from paper_labyrinth.engine.examples import SMALL_CLASSIC_TEXT
from paper_labyrinth.models import PaperMapDesign
from tests.factories import PlayerFactory
from tests.matches.helpers import act, awaited, read, started
from tests.play.browser import NEEDS_CHROMIUM, browser, serial_live_server  # noqa: F401 - fixtures
from tests.roguelike.test_mode import open_game, server_game

pytestmark = NEEDS_CHROMIUM

SHOTS = os.environ.get("ADMIN_SCREENSHOTS")
PASSWORD = "a long enough passphrase 42"


def shot(page, name: str, field: str) -> None:
    """The admin field's row (its picture and legend) as docs/img/admin-<name>.png, when asked for."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator(f".field-{field}").screenshot(path=str(Path(SHOTS) / f"admin-{name}.png"))


def signed_in_admin(browser, base: str):  # noqa: F811 - the fixture
    get_user_model().objects.create_superuser("designer", "designer@example.com", PASSWORD)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "designer")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#site-name")
    return page


def pieces(page) -> set[tuple[int, int, int, int]]:
    raw = page.eval_on_selector_all(".match-board g.piece", """gs => gs.map(g => [
        g.dataset.seat, g.dataset.level, g.querySelector('title').textContent])""")
    found = set()
    for seat, level, title in raw:
        x, y = title.rsplit("(", 1)[1].rstrip(")").split(",")
        found.add((int(x), int(y), int(seat), int(level)))
    return found


def test_a_designer_steps_the_board_and_reads_the_legends(serial_live_server, browser):  # noqa: F811
    # given a 6x6 cell capture match played 6 moves, the boards the API showed after each
    people, match = started("cell_capture", settings={"width": 6, "height": 6})
    chooser = random.Random(9)
    boards = [set()]
    for _ in range(6):
        mover = awaited(people, match.pk)
        action = chooser.choice(read(mover, match.pk)["allowed_actions"])
        assert act(mover, match.pk, action).status_code == 200
        board = read(people[0], match.pk)["view"]["board"]
        boards.append({(p["x"], p["y"], p["seat"], p["level"]) for p in board})
    page = signed_in_admin(browser, serial_live_server)
    # when the designer opens the match and walks back to the start, then forward, with the links
    page.goto(f"{serial_live_server}/admin/matches/match/{match.pk}/change/")
    assert page.get_attribute(".step-at", "data-step") == "6" and pieces(page) == boards[6]
    shot(page, "cell-capture-board", "board")
    page.click("a.step-first")
    assert page.get_attribute(".step-at", "data-step") == "0" and pieces(page) == boards[0]
    for step in range(1, 7):
        page.click("a.step-next")
        page.wait_for_selector(f".step-at[data-step='{step}']")
        assert pieces(page) == boards[step], step
    assert page.locator("a.step-next").count() == 0  # now: no step after it
    assert page.locator(".picture-legend tr").count() >= 10
    # and a roguelike world shows its monsters with their health, and a paper map its legend
    game_id = open_game(PlayerFactory(), {"seed": 21, "width": 6, "height": 6, "floors": 2, "dragon_count": 2,
                                          "archer_count": 2, "portal_count": 3})
    page.goto(f"{serial_live_server}/admin/matches/match/{game_id}/change/")
    marks = page.eval_on_selector_all(".match-board tspan.mark", "ts => ts.map(t => t.lastChild.textContent)")
    assert sorted(m for m in marks if m[0] in "da") == sorted(
        f"{monster.kind.value[0]}{monster.health}" for monster in server_game(game_id).monsters)
    shot(page, "roguelike-board", "board")
    # its own map: a live server's test flushes the tables, the migrations' example maps with them
    design = PaperMapDesign.objects.create(name="legend", text=SMALL_CLASSIC_TEXT)
    page.goto(f"{serial_live_server}/admin/paper_labyrinth/papermapdesign/{design.pk}/change/")
    assert "Land" in page.inner_text(".picture-legend")
    shot(page, "paper-map-legend", "drawing")
