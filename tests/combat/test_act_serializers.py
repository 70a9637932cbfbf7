"""The battle action's hand-checked body and hand-built answer say what the serializers say (issue 13)."""
from __future__ import annotations

from typing import Any

import pytest
from rest_framework.exceptions import ValidationError

from backend.api.views import valid
from combat.serializers import (
    ACT_FIELDS,
    ACTION_FIELDS,
    ActionBody,
    ActOutput,
    BattleActInput,
    act_input,
    act_output,
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
