"""A battle's events speak English and Russian (SPEC 14): stored as kind and fields, rendered with their
combatants' names when a battle or an action's answer is read, in the request's language."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.utils import translation

from combat import texts
from combat.engine.events import EVENT_TYPES
from combat.models import BattleEvent
from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    combat_settings,
    current_battle,
    guild_party,
    layout,
    small_dungeons,
    started,
)

CYRILLIC = re.compile("[а-яА-ЯёЁ]")
NAMES = {"p1": "Alice", "e1": "Rat"}
#: a value for every field of every event, and the other values some fields take
SAMPLE: dict[str, Any] = {"order": ["p1", "e1"], "round": 2, "actor": "p1", "target": "e1", "weapon": "sword",
                          "reason": "skip", "amount": 5, "hp": 7, "source": "attack", "potion": "17",
                          "potion_kind": "healing", "stat": "luck", "value": 3, "slot": 1, "effect": "haste",
                          "turns": 2, "magnitude": 0.5, "permanent": False, "opposite": "vigor",
                          "replaced": "stun", "by": "blessing", "outcome": "victory"}
OTHERS: dict[str, list[Any]] = {
    "reason": ["stunned", "timeout"], "source": ["bleeding", "potion", "regeneration"],
    "potion_kind": ["effect", "stat"], "turns": [1, None], "permanent": [True],
    "outcome": ["defeat", "escaped", "draw"],
}


def samples() -> list[dict[str, Any]]:
    found = []
    for kind, cls in EVENT_TYPES.items():
        fields = [f.name for f in dataclasses.fields(cls)]
        found.append({"kind": kind, **{name: SAMPLE[name] for name in fields}})
        found += [{**found[-1], name: other} for name in fields for other in OTHERS.get(name, [])]
    return found


def test_every_kind_has_a_sentence() -> None:
    assert set(texts.TEXTS) == set(EVENT_TYPES)


@pytest.mark.parametrize("event", samples(), ids=lambda e: "-".join(str(v) for v in e.values())[:60])
def test_every_event_speaks_english_and_russian_with_the_combatants_names(event: dict[str, Any]) -> None:
    with translation.override("en"):
        english = texts.event_text(event, NAMES)
    with translation.override("ru"):
        russian = texts.event_text(event, NAMES)
    assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), (english, russian)
    assert "%(" not in english + russian and "p1" not in english + russian and "e1" not in english + russian
    for combatant in ("actor", "target"):
        if combatant in event:
            assert NAMES[event[combatant]] in english and NAMES[event[combatant]] in russian


def test_the_russian_uses_the_seeds_words() -> None:
    with translation.override("ru"):
        haste = {"kind": "extra_turn", "actor": "p1"}
        assert texts.event_text(haste, NAMES) == "Проворность: Alice ходит ещё раз."
        applied = {"kind": "effect_applied", "target": "e1", "effect": "bleeding", "turns": 3,
                   "magnitude": 1.0, "permanent": False}
        assert texts.event_text(applied, NAMES) == "Rat: эффект «кровотечение» на 3 хода."
    with translation.override("en"):
        assert texts.event_text(applied, NAMES) == "Rat is under bleeding for 3 turns."
        unnamed = {"kind": "attack", "actor": "x9", "target": "e1", "weapon": "axe"}
        assert texts.event_text(unnamed, NAMES) == "x9 attacks Rat with axe."  # an id no state names


@pytest.mark.django_db
def test_a_battle_and_an_action_read_in_english_and_in_russian(monkeypatch: Any) -> None:
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=10_000, enemy_damage=1, boss_hp=10_000)
    combat_settings(base_hp=10_000)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, predicate=lambda dungeon: layout(dungeon)[0][0] == "enemy")
    party, battle_id = Party(players), current_battle(run).pk
    english = party.battle(battle_id)
    russian = party.client(players[0]).get(f"{API}/battles/{battle_id}/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert [e["kind"] for e in english["events"]] == [e["kind"] for e in russian["events"]]
    assert english["events"][0]["kind"] == "battle_started"
    assert english["events"][0]["text"].startswith("The battle begins; the turn order: ")
    assert russian["events"][0]["text"].startswith("Бой начинается; порядок ходов: ")
    for en, ru in zip(english["events"], russian["events"], strict=True):
        assert en["text"] and not CYRILLIC.search(en["text"]) and CYRILLIC.search(ru["text"]), (en, ru)
    target = next(a["target"] for a in english["allowed_actions"] if a["kind"] == "attack")
    answer = party.client(players[0]).post(
        f"{API}/battles/{battle_id}/actions/",
        {"turn": english["turn"], "action": {"kind": "attack", "target": target}, "idempotency_key": "k"},
        format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 200, answer.json()
    said = answer.json()["events"]
    assert said[0]["kind"] == "attack" and said[0]["text"].startswith(f"{players[0].display_name} атакует ")
    again = party.act(players[0], battle_id, english["turn"], {"kind": "attack", "target": target}, key="k")
    assert again.json()["replayed"] and again.json()["events"][0]["text"].startswith(
        f"{players[0].display_name} attacks ")  # the stored answer speaks the retry's language
    assert all("text" not in data for data in BattleEvent.objects.values_list("data", flat=True))
