"""Cell capture's events speak English and Russian (SPEC 14): stored as kind and data, rendered at read time
in the request's language in the seed's log format (seed 7.3)."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from cell_capture import texts
from cell_capture.engine import new_game
from cell_capture.engine.events import EVENT_TYPES, TEXT_LINES, Exploded
from cell_capture.mode import PALETTE
from matches.models import MatchEvent
from tests.factories import api_client
from tests.matches.helpers import act, awaited, read, started, url

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def played_events(seed: int) -> list[Any]:
    """Every engine event of a random game on a small board (a skipped turn now and then)."""
    rng = random.Random(seed)
    game = new_game(width=5, height=5, colors=PALETTE[:rng.randint(2, 4)], rng=rng)
    said: list[Any] = []
    for _ in range(300):
        if game.winner is not None:
            break
        if rng.random() < 0.05:
            game, skipped = game.skip()
            said += skipped
            continue
        moved = game.move(rng.choice(sorted(game.legal_moves())))
        game = moved.state  # type: ignore[union-attr]
        said += moved.events  # type: ignore[union-attr]
    return said


def test_every_kind_of_the_engine_has_a_sentence_and_the_games_reach_them_all() -> None:
    assert set(texts.TEXTS) == set(EVENT_TYPES)
    reached = {event.kind for seed in range(10) for event in played_events(seed)}
    assert reached == set(EVENT_TYPES)


@pytest.mark.parametrize("seed", range(10))
def test_every_event_speaks_english_and_russian(seed: int) -> None:
    for event in played_events(seed):
        data = texts.stored(event.to_dict())
        assert "text" not in data
        with translation.override("en"):
            english = texts.event_text(data)
        with translation.override("ru"):
            russian = texts.event_text(data)
        assert english and not CYRILLIC.search(english) and "\n" not in english, english
        assert CYRILLIC.search(russian) and "%(" not in english + russian, russian
        if event.kind in ("placed", "upgraded", "skipped"):
            assert english == event.text() + "."  # the engine's own log line
        if event.kind in ("exploded", "drops", "captured"):
            assert english.count(";") == len(event.lines()) - 1
            assert russian.startswith(f"[Цепная реакция, волна {event.wave}] ")


def test_the_russian_follows_the_seeds_log() -> None:
    with translation.override("ru"):
        upgraded = {"kind": "upgraded", "round": 3, "player": "A", "cell": [5, 3], "level": 3}
        assert texts.event_text(upgraded) == \
            "[Раунд 3, ход игрока A] Выбранная фишка A_2_(5,3) → апгрейд до уровня 3."
        assert texts.event_text({"kind": "captured", "round": 3, "player": "A", "wave": 1,
                                 "landings": [[[5, 2], 1, "B", 2, 3]]}) == \
            "[Цепная реакция, волна 1] фишка B_2_(5,2) получила 1 каплю → стала A_3_(5,2) (цвет сменён)."
        assert "получила 2 капли" in texts.event_text(
            {"kind": "drops", "round": 3, "player": "A", "wave": 1, "landings": [[[0, 0], 2, 3]]})


def test_a_wave_of_many_pieces_names_the_first_and_counts_the_rest() -> None:
    wave = Exploded(9, "A", 3, 50, 50, tuple(((x, 7), 4) for x in range(TEXT_LINES + 5))).to_dict()
    with translation.override("en"):
        assert texts.event_text(wave).endswith("; and 5 more.")
    with translation.override("ru"):
        assert texts.event_text(wave).endswith("; и ещё 5.")


@pytest.mark.django_db
def test_a_match_reads_in_english_and_in_russian() -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    first = awaited(people, match.pk)
    answer = act(first, match.pk, {"cell": [0, 0]})
    assert answer.status_code == 200
    said = [e["text"] for e in answer.json()["events"] if e["kind"] == "placed"]
    assert len(said) == 1 and re.fullmatch(r"\[Round 1, player (\w+)\] places \1_1_\(0,0\)\.", said[0]), said
    english = read(first, match.pk)["events"]
    russian = api_client(first).get(url(match.pk), HTTP_ACCEPT_LANGUAGE="ru").json()["events"]
    kinds = [e["kind"] for e in english]
    assert kinds == [e["kind"] for e in russian] and "placed" in kinds
    for en, ru in zip(english, russian, strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"]) and CYRILLIC.search(ru["text"]), (en, ru)
    placed = next(e for e in russian if e["kind"] == "placed")
    assert placed["text"].endswith("Поставлена фишка " + placed["text"].split()[-1])
    assert all("text" not in row.data for row in MatchEvent.objects.filter(match_id=match.pk))
