"""What a player reads of the hosted games speaks their language (SPEC 14 "Events speak", issue 26 item 4):
the console labyrinth's help in its view, and the refusals of every game (an ``Impossible`` or a
``RuleViolation`` whose message the error handler reads through gettext, backend/api/errors.py).
"""
from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest

from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, started, url

ROOT = Path(__file__).resolve().parents[2]
#: the apps of the hosted games, their engines included
GAME_APPS = ("matches", "gamekit", "cell_capture", "labyrinth", "roguelike", "paper_labyrinth")
#: the refusals, and the position of their message among the arguments
REFUSALS = {"Impossible": 1, "RuleViolation": 1, "InvalidInput": 1, "_bad": 1, "_refused": 1,
            "ActionFormatError": 0}


def constant_messages() -> dict[str, str]:
    """Every refusal message written as a constant in the games' code, with where it is."""
    found: dict[str, str] = {}
    for app in GAME_APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                at = REFUSALS.get(str(name))
                if at is not None and len(node.args) > at:
                    message = node.args[at]
                    if isinstance(message, ast.Constant) and isinstance(message.value, str) and message.value:
                        found[message.value] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_every_constant_refusal_message_of_the_games_has_its_russian() -> None:
    catalogued = {entry.msgid for po in ROOT.glob("*/locale/ru/LC_MESSAGES/django.po")
                  for entry in polib.pofile(str(po)) if not entry.msgctxt and entry.translated()}
    messages = constant_messages()
    assert len(messages) > 50  # the walk finds them
    assert {message: where for message, where in messages.items() if message not in catalogued} == {}


@pytest.mark.django_db
def test_the_console_views_help_speaks_russian_on_request() -> None:
    people, row = started("labyrinth_console", players=2,
                          settings={"rows": 3, "cols": 3, "start_positions": "chosen"})
    choosing = api_client(people[0]).get(url(row.pk), HTTP_ACCEPT_LANGUAGE="ru").json()["view"]
    assert choosing["help"].startswith("Выберите свою тайную стартовую клетку")
    for person in people * 2:  # each chooses a start, in the drawn order
        body = api_client(person).get(url(row.pk)).json()
        if body["view"]["choosing_starts"] and body["allowed_actions"]:
            assert act(person, row.pk, body["allowed_actions"][0], turn=body["turn"]).status_code == 200
    for person in people:
        english = api_client(person).get(url(row.pk)).json()["view"]["help"]
        russian = api_client(person).get(url(row.pk), HTTP_ACCEPT_LANGUAGE="ru").json()["view"]["help"]
        assert english.startswith("W / A / S / D - step up") and "шаг вверх" in russian


@pytest.mark.django_db
def test_a_games_refusal_speaks_russian_on_request() -> None:
    people, row = started("cell_capture", players=2, settings={"width": 5, "height": 5})
    mover = next(p for p in people if p.pk == row.awaiting_id)
    reply = api_client(mover).post(url(row.pk, "actions/"), {"turn": row.turn, "action": {"cell": "x"}},
                                   format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "bad_cell"
    assert reply.json()["error"]["message"] == 'Ход — это {"cell": [x, y]} с двумя целыми числами.'


@pytest.mark.django_db
def test_a_refusal_with_its_numbers_speaks_russian_on_request() -> None:
    lobby = {"mode": "cell_capture", "settings": {"width": 99}}
    reply = api_client(PlayerFactory()).post(MATCHES, lobby, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_size"
    assert reply.json()["error"]["message"] == "width — целое число от 5 до 50."
