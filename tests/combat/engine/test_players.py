"""The players' side of the engine: combatant ids and a player's action from its JSON."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.engine import (
    NPC_ID,
    PLAYER_ACTION_TYPES,
    ActionShapeError,
    AttackAction,
    DrinkPotion,
    Flee,
    Skip,
    SwitchWeapon,
    combatant_player_id,
    player_action,
    player_combatant_id,
)
from combat.engine.actions import ACTION_TYPES


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_a_players_combatant_id_maps_back_to_the_player(player_id: int) -> None:
    assert combatant_player_id(player_combatant_id(player_id)) == player_id


@pytest.mark.parametrize("combatant_id", ["e1", NPC_ID, "p", "px", "", "player7"])
def test_enemies_and_the_npc_are_no_players(combatant_id: str) -> None:
    assert combatant_player_id(combatant_id) is None


def test_the_player_actions_are_the_engines_kinds_but_the_timeout() -> None:
    assert list(PLAYER_ACTION_TYPES) == ["attack", "drink", "switch_weapon", "skip", "flee"]
    assert set(ACTION_TYPES) - set(PLAYER_ACTION_TYPES) == {"timeout"}


@pytest.mark.parametrize(("data", "expected"), [
    ({"kind": "attack", "target": "e2"}, AttackAction("p1", "e2")),
    ({"kind": "attack"}, AttackAction("p1", "")),  # the engine refuses it: unknown_target
    ({"kind": "drink", "potion": "41"}, DrinkPotion("p1", "41")),
    ({"kind": "switch_weapon", "slot": 1}, SwitchWeapon("p1", 1)),
    ({"kind": "skip"}, Skip("p1")),
    ({"kind": "flee", "target": "ignored"}, Flee("p1")),
])
def test_a_players_action_is_read_from_its_json(data: dict, expected: object) -> None:
    assert player_action("p1", data) == expected


@pytest.mark.parametrize(("data", "message", "details"), [
    ({"kind": "timeout"}, "Unknown action kind.", {"kind": "timeout"}),
    ({"kind": "dance"}, "Unknown action kind.", {"kind": "dance"}),
    ({}, "Unknown action kind.", {"kind": None}),
    ({"kind": "switch_weapon", "slot": True}, "switch_weapon needs an integer slot.", {"slot": True}),
    ({"kind": "switch_weapon", "slot": "1"}, "switch_weapon needs an integer slot.", {"slot": "1"}),
    ({"kind": "switch_weapon"}, "switch_weapon needs an integer slot.", {"slot": None}),
])
def test_a_malformed_action_is_refused_with_what_is_wrong(data: dict, message: str, details: dict) -> None:
    with pytest.raises(ActionShapeError) as refused:
        player_action("p1", data)
    assert (refused.value.message, refused.value.details) == (message, details)
