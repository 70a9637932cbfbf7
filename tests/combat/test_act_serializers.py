"""The battle action's hand-checked body and hand-built answer say what the serializers say (issue 13)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest
from rest_framework.exceptions import ValidationError

from backend.api.views import valid
from combat.selectors import BattleView, CombatantView, PotionView
from combat.serializers import (
    ACT_FIELDS,
    ACTION_FIELDS,
    ActionBody,
    ActOutput,
    BattleActInput,
    BattleOutput,
    act_input,
    act_output,
    battle_output,
)

BODIES: list[Any] = [
    {"turn": 3, "action": {"kind": "attack", "target": "e1"}, "idempotency_key": "k-1"},
    {"turn": 0, "action": {"kind": "skip"}},
    {"turn": 7, "action": {"slot": 1, "kind": "switch_weapon"}, "idempotency_key": ""},
    {"turn": 2, "action": {"kind": "drink", "potion": "12"}, "idempotency_key": "a" * 64},
    {"turn": 2, "action": {"kind": "flee"}},
    # refused or changed by the serializer: the hand check must leave them to it
    {"turn": 2, "action": {"kind": "drink", "potion": "12"}, "idempotency_key": "a" * 65},
    {"turn": -1, "action": {"kind": "skip"}},
    {"turn": True, "action": {"kind": "skip"}},
    {"turn": "3", "action": {"kind": "skip"}},
    {"turn": 3.0, "action": {"kind": "skip"}},
    {"turn": 3, "action": {"kind": "dance"}},
    {"turn": 3, "action": {"kind": ["attack"]}},
    {"turn": 3, "action": {"kind": "attack", "target": " e1 "}},
    {"turn": 3, "action": {"kind": "attack", "target": ""}},
    {"turn": 3, "action": {"kind": "attack", "target": "e" * 33}},
    {"turn": 3, "action": {"kind": "attack", "target": "e\x00"}},
    {"turn": 3, "action": {"kind": "attack", "target": "é"}},
    {"turn": 3, "action": {"kind": "switch_weapon", "slot": 8}},
    {"turn": 3, "action": {"kind": "switch_weapon", "slot": False}},
    {"turn": 3, "action": {"kind": "skip", "extra": 1}},
    {"turn": 3, "action": {"kind": "skip"}, "extra": 1},
    {"turn": 3, "action": {"kind": "skip"}, "idempotency_key": None},
    {"turn": 3, "action": {"kind": "skip"}, "idempotency_key": " k "},
    {"turn": 3, "action": "skip"},
    {"turn": 3},
    {"action": {"kind": "skip"}},
    [],
    "turn",
]


def test_the_field_lists_follow_the_serializers() -> None:
    assert ACTION_FIELDS == tuple(ActionBody().fields)
    assert ACT_FIELDS == tuple(BattleActInput().fields)


@pytest.mark.parametrize("body", BODIES)
def test_a_body_checked_by_hand_is_what_the_serializer_makes_of_it(body: Any) -> None:
    checked = act_input(body)
    if checked is None:
        return  # the serializer judges it, as before
    assert checked == valid(BattleActInput, body)
    assert list(checked["action"]) == [name for name in ACTION_FIELDS if name in body["action"]]


def test_the_usual_bodies_take_the_hand_check() -> None:
    assert all(act_input(body) is not None for body in BODIES[:5])


@pytest.mark.parametrize("body", BODIES[5:])
def test_a_refused_body_is_left_to_the_serializer(body: Any) -> None:
    try:
        valid(BattleActInput, body)
    except ValidationError:
        assert act_input(body) is None


@pytest.mark.parametrize("replayed", [False, True])
def test_the_answer_is_the_output_serializers(replayed: bool) -> None:
    events = [{"kind": "attack", "actor": "p1", "target": "e1", "damage": 4, "crit": False}, {"kind": "turn", "round": 2}]
    stored = {"events": events, "outcome": "ongoing", "turn": 3, "first_event": 10, "next_turn": 5}  # jsonb's key order
    built = act_output(stored, replayed=replayed)
    declared = ActOutput({**stored, "replayed": replayed}).data
    assert built == declared
    assert list(built) == list(declared)


def _view(*, deadline: datetime | None, awaiting: int | None) -> BattleView:
    hero = CombatantView(id="p7", kind="player", name="Ann", hp=30, max_hp=40, is_boss=False, fled=False,
                         weapons=["Sword", "Bow"], active_weapon=1, potions=[PotionView("12", "healing")],
                         effects=[{"name": "poison", "turns": 2, "magnitude": 3, "permanent": False},
                                  {"name": "vigor", "turns": None, "magnitude": 0.25, "permanent": True}])
    rat = CombatantView(id="e1", kind="enemy", name="Rat", hp=0, max_hp=9, is_boss=True, fled=False,
                        weapons=["Teeth"], active_weapon=0, potions=[], effects=[])
    return BattleView(id=5, run=9, floor=0, room=2, outcome="ongoing", round=3, turn=11, order=["p7", "e1"],
                      awaiting=awaiting, deadline=deadline, combatants=[hero, rat],
                      allowed_actions=[{"kind": "attack", "target": "e1"}, {"kind": "switch_weapon", "slot": 0},
                                       {"kind": "drink", "potion": "12"}, {"kind": "skip"}],
                      events=[{"seq": 4, "kind": "attack", "damage": 2}], last_event=4)


@pytest.mark.parametrize("deadline", [None, datetime(2026, 11, 23, 2, 30, 5, 123456, tzinfo=timezone.utc)])
def test_a_battle_is_shown_as_the_output_serializer_shows_it(deadline: datetime | None) -> None:
    view = _view(deadline=deadline, awaiting=7 if deadline else None)
    built, declared = battle_output(view), BattleOutput(view).data
    assert built == declared
    assert json.dumps(built) == json.dumps(declared)  # the same keys in the same order, the same types
