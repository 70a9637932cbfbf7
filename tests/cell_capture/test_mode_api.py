"""Cell capture as match mode ``cell_capture``: settings, the view, refusals as 400/409, the admin SVG."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from cell_capture.mode import PALETTE, CellCaptureMode
from gamekit.results import Success
from matches.models import Match, MatchModeSettings
from matches.modes import get_mode
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, awaited, read, started

pytestmark = pytest.mark.django_db


def _other(people, player):
    return next(p for p in people if p != player)


def test_the_mode_is_registered_with_its_migrated_defaults() -> None:
    assert isinstance(get_mode("cell_capture"), CellCaptureMode)
    row = MatchModeSettings.objects.get(mode="cell_capture")
    assert row.defaults == {"width": 8, "height": 8} and row.turn_deadline_seconds == 60


@pytest.mark.parametrize(
    ("board", "code"),
    [
        ({"width": 4}, "bad_size"),
        ({"height": 51}, "bad_size"),
        ({"width": "9"}, "bad_size"),
        ({"width": True}, "bad_size"),
        ({"colours": 3}, "unknown_setting"),
    ],
)
def test_bad_board_settings_are_400(board, code) -> None:
    reply = api_client(PlayerFactory()).post(
        MATCHES, {"mode": "cell_capture", "settings": board}, format="json"
    )
    assert reply.status_code == 400 and reply.json()["error"]["code"] == code
    assert not Match.objects.exists()


def test_the_view_shows_the_board_colours_and_the_placement_cells() -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 6})
    mover = awaited(people, match.pk)
    body = read(mover, match.pk)
    assert body["view"]["width"] == 5 and body["view"]["height"] == 6 and body["view"]["round"] == 1
    assert body["view"]["board"] == [] and set(body["view"]["colours"].values()) == set(PALETTE[:2])
    assert len(body["allowed_actions"]) == 30 and {"cell": [4, 5]} in body["allowed_actions"]
    assert read(_other(people, mover), match.pk)["allowed_actions"] == []


def test_placing_then_refusals_name_why() -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    first = awaited(people, match.pk)
    placed = act(first, match.pk, {"cell": [2, 2]}).json()
    assert placed["events"][0]["kind"] == "placed" and "text" in placed["events"][0]
    second = _other(people, first)
    occupied = act(second, match.pk, {"cell": [2, 2]})
    assert occupied.status_code == 409 and occupied.json()["error"]["code"] == "occupied"
    off = act(second, match.pk, {"cell": [5, 0]})
    assert off.status_code == 400 and off.json()["error"]["code"] == "off_board"
    out_of_turn_off = act(first, match.pk, {"cell": [-1, 0]})
    assert out_of_turn_off.status_code == 400 and out_of_turn_off.json()["error"]["code"] == "off_board"
    for bad in (
        {"cell": [1]},
        {"cell": "a1"},
        {"cell": [1.0, 2]},
        {"cell": [True, 1]},
        {"x": 1, "y": 2},
        {"cell": [1, 2], "extra": 1},
    ):
        reply = act(second, match.pk, bad)
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_cell", bad
    assert act(second, match.pk, {"cell": [0, 0]}).status_code == 200
    # round 2: upgrades only
    not_mine = act(first, match.pk, {"cell": [0, 0]})
    assert not_mine.status_code == 409 and not_mine.json()["error"]["code"] == "not_your_piece"
    empty = act(first, match.pk, {"cell": [4, 4]})
    assert empty.status_code == 409 and empty.json()["error"]["code"] == "empty_cell"
    assert read(first, match.pk)["allowed_actions"] == [{"cell": [2, 2]}]
    match.refresh_from_db()
    assert match.turn == 3


def test_a_whole_game_ends_with_a_winner_announced_to_everyone() -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    chooser = random.Random(3)
    for _ in range(2000):
        match.refresh_from_db()
        if match.is_over:
            break
        mover = awaited(people, match.pk)
        action = chooser.choice(read(mover, match.pk)["allowed_actions"])
        assert act(mover, match.pk, action).status_code == 200
    body = read(people[0], match.pk)
    assert body["status"] == "finished" and len(body["result"]["winners"]) == 1
    winner_seat = body["result"]["winner_seats"][0]
    assert body["view"]["winner"] == winner_seat
    colour = body["view"]["colours"][str(winner_seat)]
    assert body["result"] == {"winners": body["result"]["winners"], "winner_seats": [winner_seat],
                              "reason": "won", "details": {"winner_colour": colour}}
    kinds = [e["kind"] for e in body["events"]]
    assert kinds[-2:] == ["won", "match_over"] and "exploded" in kinds
    assert {cell["seat"] for cell in body["view"]["board"]} == {winner_seat}


def test_the_admin_draws_the_board_as_svg(admin_client: Client) -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    act(awaited(people, match.pk), match.pk, {"cell": [1, 3]})
    page = admin_client.get(f"/admin/matches/match/{match.pk}/change/").content.decode()
    assert "<svg" in page and "level 1 (1,3)" in page
    assert "[Round 1" in page  # the event log reads like seed 7.3


def test_the_svg_puts_0_0_bottom_left_with_its_level_written() -> None:
    mode = CellCaptureMode()
    state = mode.create(settings={"width": 5, "height": 5}, seats=2, rng=random.Random(1))
    moved = mode.apply(state, mode.awaiting(state), {"cell": [0, 0]}, random.Random(0))
    assert isinstance(moved, Success)
    svg = mode.picture(moved.state)
    # cell (0, 0): left column (after the 24 px margin of row numbers), bottom row of a 220 px board
    assert 'cx="46.0" cy="198.0"' in svg
    assert svg.count('data-level="1"') == 1 and svg.count('fill="white" font-weight="bold">1</text>') == 1
