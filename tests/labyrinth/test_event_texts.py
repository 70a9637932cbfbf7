"""The console labyrinth's game master speaks English and Russian (SPEC 14): its answers are stored as kind
and data and rendered at read time in the request's language; the English is the engine's own sentence."""
from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from labyrinth import texts
from labyrinth.engine import console
from labyrinth.mode import _event
from matches.models import MatchEvent
from tests.factories import api_client
from tests.matches.helpers import act, awaited, read, started, url

CYRILLIC = re.compile("[а-яА-ЯёЁ]")
SAMPLES: dict[str, Any] = {"turns": 2, "remaining": 1, "ammo": 3, "hit": True, "in_dream": False,
                           "has_key": True, "text": console.HELP_TEXT, "winner": 1}
MODE_EVENTS = [{"kind": "start_chosen", "row": 1, "col": 2}, {"kind": "game_started"},
               {"kind": "turn_limit", "max_turns": 40}]


def engine_events() -> list[console.Event]:
    """One answer of every kind the game master gives, and the other side of each yes/no."""
    made = [cls(**{f.name: SAMPLES.get(f.name, 0) for f in dataclasses.fields(cls)})
            for cls in console.Event.__subclasses__()]
    return made + [console.ShotFired(0, hit=False, ammo=0), console.Killed(0, in_dream=True),
                   console.InventoryShown(0, ammo=1, has_key=False), console.Stunned(0, turns=1)]


def stored(event: console.Event) -> dict[str, Any]:
    return _event(SimpleNamespace(order=(1, 0)), event).data  # type: ignore[arg-type]


def test_every_kind_has_a_sentence() -> None:
    kinds = {cls.kind for cls in console.Event.__subclasses__()} | {e["kind"] for e in MODE_EVENTS}
    assert set(texts.TEXTS) == kinds


@pytest.mark.parametrize("event", engine_events(), ids=lambda e: f"{e.kind}-{e!r}")
def test_every_answer_speaks_english_and_russian(event: console.Event) -> None:
    data = stored(event)
    assert "text" not in data  # stored as kind and data only
    with translation.override("en"):
        english = texts.event_text(data)
    with translation.override("ru"):
        russian = texts.event_text(data)
    assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), (english, russian)
    assert "%(" not in english + russian
    if event.kind == "won":
        # the winner's seat (the match's), not the engine's index in the turn order
        assert english == "The player at seat 0 found the way out and wins! The game is over."
        assert russian == "Игрок на месте 0 нашёл выход и победил! Игра окончена."
    elif event.kind == "stunned":
        assert english == console.describe(event).replace("turn(s)", "turns" if event.turns > 1 else "turn")
    else:
        assert english == console.describe(event)


@pytest.mark.parametrize("data", MODE_EVENTS, ids=lambda d: d["kind"])
def test_the_modes_own_events_speak_both_languages(data: dict[str, Any]) -> None:
    with translation.override("en"):
        english = texts.event_text(data)
    with translation.override("ru"):
        russian = texts.event_text(data)
    assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), (english, russian)


def test_the_russian_is_in_the_seeds_words() -> None:
    with translation.override("ru"):
        assert texts.event_text(stored(console.Stunned(0, turns=2))) == \
            "Вы оглушены: пропускаете 2 следующих хода."
        assert texts.event_text(stored(console.InventoryShown(0, ammo=0, has_key=False))) == \
            "Инвентарь: патронов 0, ключа нет."
        helped = texts.event_text(stored(console.HelpShown(0, console.HELP_TEXT)))
        assert helped.startswith("W / A / S / D - шаг")


@pytest.mark.django_db
def test_a_match_reads_in_english_and_in_russian() -> None:
    people, match = started("labyrinth_console", players=2, settings={"rows": 4, "cols": 4})
    first = awaited(people, match.pk)
    looked = act(first, match.pk, {"command": "e"}).json()["events"]
    helped = act(first, match.pk, {"command": "?"}).json()["events"]
    assert [e["kind"] for e in looked] == ["inventory"]
    assert looked[0]["text"] == "Inventory: 0 bullets, no key."
    assert helped[0]["text"] == console.HELP_TEXT
    english = read(first, match.pk)["events"]
    russian = api_client(first).get(url(match.pk), HTTP_ACCEPT_LANGUAGE="ru").json()["events"]
    assert [e["kind"] for e in english] == [e["kind"] for e in russian]
    for en, ru in zip(english, russian, strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"]) and CYRILLIC.search(ru["text"]), (en, ru)
    assert [e["text"] for e in russian if e["kind"] == "inventory"] == ["Инвентарь: патронов 0, ключа нет."]
    assert all("text" not in row.data for row in MatchEvent.objects.filter(match_id=match.pk))
