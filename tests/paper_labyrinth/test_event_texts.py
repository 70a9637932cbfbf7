"""The paper labyrinth's game master speaks English and Russian (SPEC 14): events are stored as code and data
and rendered at read time in the request's language; the Russian is the seed's own phrase, word for word
what the engine says."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from matches.models import MatchEvent
from paper_labyrinth import texts
from paper_labyrinth.engine import rules
from paper_labyrinth.engine.bot import random_request
from paper_labyrinth.engine.generator import generate_paper_map
from paper_labyrinth.engine.requests import Message, Options
from paper_labyrinth.mode import _event_data
from tests.matches.helpers import url
from tests.paper_labyrinth.mode_helpers import Table

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def engine_codes() -> set[str]:
    """Every code the engine's game master can answer with."""
    source = Path(rules.__file__).read_text(encoding="utf-8")
    said = set(re.findall(r'\bsay\("(\w+)"', source)) | set(re.findall(r'_msg\([^,]+, "(\w+)"', source))
    return said | {"status", "downstream", "no_wall"}  # the status answer, say(how, ...), a chosen code


def played_messages(seed: int, variant: str, **options: Any) -> list[tuple[Message, dict[str, Any]]]:
    """Every message of a bot's game (the engine's text beside the event data the match stores), plus each
    player's status answer after every turn."""
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    m = generate_paper_map(rng, rng.randint(3, 5), rng.randint(3, 5), players, variant)
    state = rules.new_game(m, Options.for_variant(variant, **options),  # type: ignore[arg-type]
                           players, [rng.choice(sorted(m.cells)) for _ in range(players)], rng)
    order = list(range(players))
    said = list(rules.opening(state))
    for _ in range(400):
        seat = rules.whose_turn(state)
        if seat is None:
            break
        played = rules.apply(state, seat, random_request(state, seat, rng), rng)
        assert not isinstance(played, rules.Impossible)
        state = played.state
        said += [*played.events, rules._status_message(state, seat)]
    return [(msg, _event_data(order, msg)) for msg in said]


def test_every_code_of_the_game_master_and_every_event_kind_has_a_sentence() -> None:
    assert engine_codes() <= set(texts.GM)
    assert set(texts.EVENTS) == {"start_chosen", "game_started", "request", "timer_started", "pause_taken",
                                 "pause_over"}


@pytest.mark.parametrize("variant", ["classic", "quantum"])
@pytest.mark.parametrize("seed", range(12))
def test_the_russian_text_is_the_seeds_phrase_and_the_english_is_english(variant: str, seed: int) -> None:
    options = {"grenade_reports": seed % 2 == 0, "river_mode": "shallow" if seed % 3 == 0 else "deep"}
    if variant == "quantum":
        options = {}
    for msg, event in played_messages(seed, variant, **options):
        assert "text" not in event  # stored as code and data only
        with translation.override("ru"):
            assert texts.event_text(event) == msg.text, (msg.code, event)
        with translation.override("en"):
            english = texts.event_text(event)
        assert english and not CYRILLIC.search(english), (msg.code, english)


#: codes the bot's games above do not reach: a sample of each, as the engine gives it
RARE: dict[str, dict[str, Any]] = {
    "draw_treasure_out": {}, "draw_survivor_time": {}, "draw_treasure_source": {}, "draw_all_dead": {},
    "reordered": {}, "draw_all_skip": {}, "draw_nstop": {"nstop": 7}, "last_survivor": {}, "eliminated": {},
    "crumbled": {}, "tick": {}, "cremated": {}, "blast": {}, "won": {}, "timeout": {},
    "repeat": {"of": 1, "numbers": {"of": 2}},
}


def test_the_games_played_cover_every_code_but_the_rare_ones() -> None:
    codes = {msg.code for variant in ("classic", "quantum") for seed in range(12)
             for msg, _ in played_messages(seed, variant, grenade_reports=seed % 2 == 0,
                                           river_mode="shallow" if seed % 3 == 0 else "deep")}
    assert engine_codes() - set(RARE) <= codes, engine_codes() - set(RARE) - codes


@pytest.mark.parametrize("code", sorted(RARE))
def test_the_rare_codes_speak_both_languages(code: str) -> None:
    event = {"kind": "gm", "seat": 1, "number": 2, "code": code, "data": RARE[code]}
    with translation.override("en"):
        english = texts.event_text(event)
    with translation.override("ru"):
        russian = texts.event_text(event)
    assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), (english, russian)
    assert "%(" not in english + russian


@pytest.mark.django_db
def test_a_played_game_reads_in_english_and_in_russian_and_old_russian_events_still_read() -> None:
    table = Table.open(players=2)
    table.choose_starts()
    table.act({"type": "turn", "steps": [{"do": "skip"}]})
    for _ in range(3):
        if table.match().awaiting_id is not None:
            table.act(table.read(table.awaited())["allowed_actions"][0])
    player = table.people[0]
    english = table.read(player)
    russian = table.clients[player.pk].get(url(table.match_id), HTTP_ACCEPT_LANGUAGE="ru").json()
    kinds = [e["kind"] for e in english["events"]]
    assert kinds == [e["kind"] for e in russian["events"]] and {"gm", "start_chosen", "request"} <= set(kinds)
    for en, ru in zip(english["events"], russian["events"], strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"]), en
        assert CYRILLIC.search(ru["text"]), ru
    assert "Skipped the turn" in {e["text"] for e in english["events"]}
    for answer in russian["view"]["opening"]:
        assert answer["text"].startswith(f"Игрок {answer['number']}: ")
    assert all(a["text"] for answers in english["view"]["last_answers"].values() for a in answers)
    assert all("text" not in row.data for row in MatchEvent.objects.filter(match=table.match()))
    # a log stored before the events spoke: the Russian text stored in the data, an old reason
    last = english["last_event"]
    old = [{"kind": "gm", "seat": 0, "number": 1, "code": "skipped", "text": "Пропустил ход", "data": {}},
           {"kind": "gm", "seat": 0, "number": 1, "code": "nothing_doing",
            "text": "Ничего не выйдет: мины нет", "data": {"reason": "мины нет"}},
           {"kind": "gm", "seat": None, "number": None, "code": "draw_nstop",
            "text": "7 кругов без изменений: ничья", "data": {}},
           {"kind": "start_chosen", "seat": 1, "number": 2, "text": "Игрок 2 выбрал начальную клетку."}]
    for offset, data in enumerate(old, start=1):
        MatchEvent.objects.create(match=table.match(), seq=last + offset, turn=1, data=data, seats=None)
    read = [e["text"] for e in table.read(player)["events"] if e["seq"] > last]
    assert read == ["Skipped the turn", "Nothing doing: no mine", "7 кругов без изменений: ничья",
                    "Player 2 has chosen a start cell."]
