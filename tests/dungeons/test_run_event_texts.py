"""A run's events speak English and Russian (SPEC 14): the run log stores kind and fields; GET runs/{id}/
adds each event's text in the request's language, players named by their usernames."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.utils import translation

import darkness.log_entries  # noqa: F401 (registers the darkness entries)
from dungeons.models import RoomKind
from dungeons.runs import texts
from dungeons.runs.engine.log import ENTRY_TYPES, entry_from_json
from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    guild_party,
    run_settings,
    small_dungeons,
    started,
)

CYRILLIC = re.compile("[а-яА-ЯёЁ]")
NAMES = {"1": "alice", "2": "bob"}
#: a value for each field name of every entry type (darkness's included)
SAMPLE: dict[str, Any] = {
    "party": [1, 2], "rank": 1.5, "completed": 2.0, "maze": 3, "room_kind": "treasure", "battle": 7,
    "enemies": ["Rat", "Bat"], "outcome": "victory", "hits": {"1": {"damage": 4, "hp": 6, "effect": "stun"}},
    "items": [1, 2, 3], "coins_each": 5, "story_item": "map", "seal": "keys", "opened_by": 1, "npc": "healer",
    "hp": 8, "players": [2, 1], "player": 1, "potion": "9", "item_kind": 4, "max_hp": 10, "healed": 3,
    "stat": "luck", "amount": 1, "charon_fee": 12, "items_lost": 2, "loss_percent": 30, "rescued": "healer",
    "set_aside": 5, "torch": 9, "direction": "LEFT", "burn": 1,
}


def samples() -> list[dict[str, Any]]:
    found = []
    for kind, types in ENTRY_TYPES.items():
        for cls in types:
            values = {f.name: SAMPLE[f.name] for f in dataclasses.fields(cls)}
            if cls.__name__ == "Rested":
                values["hp"] = {"1": 10, "2": 7}
            found.append({"kind": kind, "floor": 0, "room": 1, **values})
    return found


def test_every_entry_type_has_a_sentence() -> None:
    assert {cls for types in ENTRY_TYPES.values() for cls in types} == set(texts.TEXTS)


@pytest.mark.parametrize("entry", samples(), ids=lambda e: e["kind"])
def test_every_entry_speaks_english_and_russian(entry: dict[str, Any]) -> None:
    assert type(entry_from_json(entry)) in texts.TEXTS  # the sample is of its type
    with translation.override("en"):
        english = texts.entry_text(entry, NAMES)
    with translation.override("ru"):
        russian = texts.entry_text(entry, NAMES)
    assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), (english, russian)
    assert "%(" not in english + russian and "=" not in english.replace("R = ", "").replace("C = ", "")
    if "player" in entry:
        assert "alice" in english and "alice" in russian


def test_the_other_shapes_and_an_unknown_member_speak_too() -> None:
    rescued = {"kind": "completed", "floor": 0, "room": 1, "party": [1, 3], "rescued": None}
    with translation.override("ru"):
        assert texts.entry_text(rescued, NAMES) == "Поход пройден до конца: alice, игрок 3."
        assert texts.entry_text({"kind": "moved", "floor": 0, "room": 1, "direction": "UP", "outcome": "wall",
                                 "burn": 0, "torch": 4}, NAMES) == \
            "Группа идёт вверх: стена (факел −0, осталось 4)."
    with translation.override("en"):
        assert texts.entry_text({"kind": "torch_taken", "floor": 0, "room": 1, "player": None}, NAMES) == \
            "Nobody can carry the torch: it burns unborne."
        # an entry no type describes reads as the admin shows it
        assert texts.entry_text({"kind": "nonsense", "x": 1}, NAMES) == "nonsense: x=1"


@pytest.mark.django_db
def test_a_run_reads_in_english_and_in_russian(monkeypatch: Any) -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=20, enemy_damage=1, boss_hp=20)
    run_settings(trap_damage_base=2, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party(players)
    step = party.run(run.pk)["step"]
    assert party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    english = party.run(run.pk)["events"]
    read = party.client(players[0]).get(f"{API}/runs/{run.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    russian = read.json()["events"]
    assert [e["kind"] for e in english] == [e["kind"] for e in russian] and len(english) > 3
    for en, ru in zip(english, russian, strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"]) and CYRILLIC.search(ru["text"]), (en, ru)
    assert english[0]["kind"] == "started" and players[0].user.username in english[0]["text"]
    assert "Группа входит в комнату с ловушкой." in {e["text"] for e in russian}


@pytest.mark.parametrize("room_kind", [value for value, _ in RoomKind.choices])
def test_every_room_kind_is_named_in_both_languages(room_kind: str) -> None:
    # the darkness's empty rooms read "The party enters empty." before they had a word of their own
    entry = {"kind": "entered", "floor": 0, "room": 1, "room_kind": room_kind}
    with translation.override("en"):
        english = texts.entry_text(entry, NAMES)
    with translation.override("ru"):
        russian = texts.entry_text(entry, NAMES)
    assert not english.endswith(f"enters {room_kind}."), english  # a word, not the slug
    assert not russian.endswith(f" {room_kind}."), russian
    assert CYRILLIC.search(russian), russian
