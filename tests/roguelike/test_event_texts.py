"""The roguelike's events speak (SPEC 14): every kind has a sentence in English and in Russian, rendered
when the log is read in the request's language; the engine stores kinds and data, never a text."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from matches.models import MatchEvent
from roguelike import texts
from roguelike.engine import rules
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, read, url
from tests.roguelike.test_mode import CALM, open_game, server_game, way

CYRILLIC = re.compile("[а-яА-ЯёЁ]")
#: one event of every kind, with the data the engine gives it
SAMPLES: dict[str, dict[str, Any]] = {
    "moved": {"direction": "UP"},
    "cell": {"building": "arsenal", "UP": "space", "LEFT": "wall", "DOWN": "exit", "RIGHT": "wall"},
    "teleported": {},
    "lift_moved": {"floor": 1},
    "exit_needs_gold": {},
    "monster_hit": {"damage": 2},
    "monster_killed": {},
    "arrow_hit_wall": {"direction": "LEFT"},
    "wall_destroyed": {"direction": "DOWN"},
    "bomb_no_effect": {"direction": "RIGHT"},
    "wall_built": {"direction": "UP"},
    "item_taken": {"item": "mine_detector"},
    "rearmed": {"arrows": 5, "bombs": 2},
    "arsenal_stock": {"items": ["armor", "cement"]},
    "healed": {"health": 5},
    "mine_exploded": {},
    "mine_detected": {"source": "mines"},
    "lift_buttons": {"floor": 0, "floors": 3},
    "picked_up": {"loot": "gold"},
    "dragon_discovered": {},
    "archer_discovered": {"facing": "LEFT"},
    "armor_absorbed": {"source": "archer"},
    "damage": {"source": "dragon", "damage": 1, "health": 4},
    "items_lost": {"items": ["doublegun"]},
    "died": {"deaths": 1},
    "respawned": {"health": 4},
    "defeat": {"deaths": 3, "death_limit": 3},
    "victory": {},
    "waited": {},
}


def engine_kinds() -> set[str]:
    """Every kind the engine can say (each ``self.say("kind", ...)`` of its rules)."""
    return set(re.findall(r'\bsay\("(\w+)"', Path(rules.__file__).read_text(encoding="utf-8")))


def test_every_kind_the_engine_says_has_a_sentence_in_english_and_russian() -> None:
    assert engine_kinds() == set(SAMPLES) == set(texts.kinds())
    for kind, data in SAMPLES.items():
        event = {"kind": kind, **data}
        with translation.override("en"):
            english = texts.event_text(event)
        with translation.override("ru"):
            russian = texts.event_text(event)
        assert english and not CYRILLIC.search(english), (kind, english)
        assert CYRILLIC.search(russian) and russian != english, (kind, russian)
        assert "%(" not in english + russian, kind


def test_the_seeds_words_are_the_russian_text() -> None:
    with translation.override("ru"):
        assert texts.event_text({"kind": "victory"}).startswith("Победа!")
        assert texts.event_text({"kind": "picked_up", "loot": "gold"}) == "Вы подобрали: Золото."


@pytest.mark.django_db
def test_a_played_game_reads_in_english_and_in_russian() -> None:
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    game = server_game(match_id)
    first = way(game, game.player.cell, game.world.exit_cell)[0]
    answer = act(player, match_id, {"type": "go", "direction": first}, turn=1).json()
    assert answer["events"] and all(e["text"] for e in answer["events"])
    english = read(player, match_id)["events"]
    reply = api_client(player).get(url(match_id), {"since": 0}, HTTP_ACCEPT_LANGUAGE="ru")
    russian = reply.json()["events"]
    assert [e["kind"] for e in english] == [e["kind"] for e in russian]
    assert english[0]["kind"] == "match_started" and english[0]["text"] == "The match has started."
    moved = next(e for e in english if e["kind"] == "moved")
    with translation.override("en"):
        assert moved["direction"] == first and moved["text"] == texts.TEXTS["moved"](moved)
    for en, ru in zip(english, russian, strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"])
        assert CYRILLIC.search(ru["text"]) and {**en, "text": ""} == {**ru, "text": ""}
    # the events are stored without a text: each read renders them in its own language
    assert all("text" not in row.data for row in MatchEvent.objects.filter(match_id=match_id))


@pytest.mark.django_db
def test_an_action_answer_speaks_the_language_of_its_request_also_when_replayed() -> None:
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    game = server_game(match_id)
    first = way(game, game.player.cell, game.world.exit_cell)[0]
    body = {"turn": 1, "action": {"type": "go", "direction": first}, "idempotency_key": "k1"}
    client = api_client(player)
    english = client.post(url(match_id, "actions/"), body, format="json").json()
    russian = client.post(url(match_id, "actions/"), body, format="json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert russian["replayed"] is True
    assert [e["seq"] for e in english["events"]] == [e["seq"] for e in russian["events"]]
    assert all(CYRILLIC.search(e["text"]) for e in russian["events"])
    assert not any(CYRILLIC.search(e["text"]) for e in english["events"])


@pytest.mark.django_db
def test_events_stored_before_texts_still_read() -> None:
    """A log written before events spoke (kind and data only; an unknown kind) reads on, with a text."""
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    last = read(player, match_id)["last_event"]
    for seq, kind in ((last + 1, "waited"), (last + 2, "retired_kind")):
        MatchEvent.objects.create(match_id=match_id, seq=seq, turn=1, data={"kind": kind}, seats=[0])
    events = read(player, match_id, since=last)["events"]
    assert events == [{"seq": last + 1, "kind": "waited", "text": "You wait."},
                      {"seq": last + 2, "kind": "retired_kind", "text": ""}]
