"""The cell capture board in the match admin: readable (numbered margins, the level written in each
piece), with a legend, and stepped through the match's stored steps (``?step=N``)."""
from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from cell_capture.mode import PALETTE
from tests.matches.helpers import act, awaited, read, started

pytestmark = pytest.mark.django_db
PIECE = re.compile(r'<g class="piece" data-seat="(\d+)" data-level="(\d+)">'
                   r'<title>[^<]*\((\d+),(\d+)\)</title>')


def _board(page: str) -> set[tuple[int, int, int, int]]:
    """The pieces drawn on an admin page: (x, y, seat, level)."""
    return {(int(x), int(y), int(seat), int(level)) for seat, level, x, y in PIECE.findall(page)}


def _played(steps: int) -> tuple[int, list[set[tuple[int, int, int, int]]]]:
    """A 5x5 match played ``steps`` steps by the allowed actions, and its board (from the API) after each."""
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    chooser = random.Random(5)
    boards = [set()]
    for _ in range(steps):
        mover = awaited(people, match.pk)
        action = chooser.choice(read(mover, match.pk)["allowed_actions"])
        assert act(mover, match.pk, action).status_code == 200
        view = read(people[0], match.pk)["view"]
        boards.append({(p["x"], p["y"], p["seat"], p["level"]) for p in view["board"]})
    return match.pk, boards


def test_the_board_steps_through_the_log_as_the_api_saw_it(admin_client: Client) -> None:
    match_id, boards = _played(7)
    page = f"/admin/matches/match/{match_id}/change/"
    for step, board in enumerate(boards):
        html = admin_client.get(page, {"step": step}).content.decode()
        assert _board(html) == board, step
        assert f'data-step="{step}">Step {step} of 7' in html
        if step > 0:
            assert f'class="step-previous" href="?step={step - 1}"' in html
        if step < 7:
            assert f'class="step-next" href="?step={step + 1}"' in html
    now = admin_client.get(page).content.decode()
    assert _board(now) == boards[-1] and 'data-step="7">Step 7 of 7 (now)' in now
    assert 'class="step-next"' in now and 'class="step-next" href' not in now  # no step after now


@pytest.mark.parametrize("asked", ["x", "-1", "8", "99999999999999999999", "1.5"])
def test_a_step_out_of_range_shows_the_board_as_it_is_now(admin_client: Client, asked: str) -> None:
    match_id, boards = _played(7)
    reply = admin_client.get(f"/admin/matches/match/{match_id}/change/", {"step": asked})
    assert reply.status_code == 200 and _board(reply.content.decode()) == boards[-1]
    assert 'data-step="7"' in reply.content.decode()


def test_the_board_is_readable_and_has_its_legend_in_both_languages(admin_client: Client) -> None:
    match_id, boards = _played(2)
    html = admin_client.get(f"/admin/matches/match/{match_id}/change/").content.decode()
    svg = re.search(r'<svg[^>]*aria-label="cell capture board".*?</svg>', html, re.DOTALL).group(0)
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert width >= 5 * 40  # today 44 px a cell (it was 24) and a margin of numbers
    numbers = [int(n) for n in re.findall(r'<text class="axis"[^>]*>(\d+)</text>', svg)]
    assert numbers == [*range(5), *range(5)]  # the columns, then the rows
    for x, y, _seat, level in boards[-1]:
        assert f"({x},{y})</title>" in svg and f">{level}</text></g>" in svg
    legend = re.search(r'<table class="picture-legend">.*?</table>', html, re.DOTALL).group(0)
    assert all(f"background:{colour}" in legend for colour in PALETTE) and "seat 0 (red)" in legend
    russian = admin_client.get(f"/admin/matches/match/{match_id}/change/", {"step": 1},
                               HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ход 1 из 2" in russian and "место 0 (red)" in russian and "Условные обозначения" in russian
