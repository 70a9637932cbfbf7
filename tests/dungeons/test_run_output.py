"""The run view's hand-built answer says what the output serializer says (issue 13)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from dungeons.selectors import (
    LootItemKindView,
    RunBattleRef,
    RunFloorView,
    RunLootView,
    RunMemberView,
    RunNpcView,
    RunRoomView,
    RunView,
)
from dungeons.serializers import RunOutput, run_output

AT = datetime(2026, 11, 23, 2, 30, 5, 123456, tzinfo=timezone.utc)
DARKNESS: dict[str, Any] = {
    "rows": 3, "cols": 4, "sections": 2, "entrance": {"row": 0, "col": 1}, "explored": 1,
    "rooms": [{"row": 0, "col": 1, "section": 0, "kind": "entrance",
               "walls": {"UP": True, "LEFT": False, "DOWN": False, "RIGHT": True}}],
    "position": {"row": 0, "col": 1, "section": 0, "kind": "entrance"},
    "torch": {"left": 5, "length": 9, "bearer": None}, "path": [{"row": 0, "col": 1}],
}


def _member(player: int, status: str, **changes: Any) -> RunMemberView:
    values: dict[str, Any] = {
        "player": player, "username": f"p{player}", "position": player - 1, "status": status, "hp": 30,
        "max_hp": 40, "weapon_choice": "taken", "stat_boosts": {"strength": 2}, "kills": {},
        "pending_effects": [{"name": "poison", "turns": 2}], "money_lost": 0, "items_lost": 1,
    }
    return RunMemberView(**{**values, **changes})


def _view(case: str) -> RunView:
    lobby = case == "lobby"
    room = None if lobby else RunRoomView(
        floor=0, room=1, kind="treasure" if case == "loot" else "enemy", cleared=case == "loot",
        seal="gems" if case == "loot" else None,
        battle=None if case == "loot" else RunBattleRef(17, "ongoing"),
        loot=[RunLootView(3, LootItemKindView(8, "Sword", "weapon", 4), None),
              RunLootView(4, LootItemKindView(9, "Potion", "potion", 1), 7)] if case == "loot" else [],
    )
    return RunView(
        id=5, kind="darkness" if case == "darkness" else "ordinary", status="lobby" if lobby else "active",
        host=7, step=0 if lobby else 2, created_at=AT, started_at=None if lobby else AT,
        ended_at=AT if case == "over" else None, seed=99 if case == "over" else None,
        dungeon=None if lobby else 11,
        floors=[] if lobby else [RunFloorView(0, 3, ["trap", "enemy"]), RunFloorView(1, 2, [])],
        current_room=room, npc=RunNpcView("warlock", 10, 12) if case == "loot" else None,
        members=[_member(7, "joined" if lobby else "in_dungeon", kills={"rat": 2}),
                 _member(8, "dead", pending_effects=[], stat_boosts={})],
        log=[] if lobby else [{"kind": "started", "party": [7, 8], "floor": 0, "room": 0},
                              {"kind": "trap", "hits": {"7": {"damage": 3, "effect": None}}}],
        is_member=case != "stranger", darkness=DARKNESS if case == "darkness" else None,
    )


@pytest.mark.parametrize("case", ["lobby", "battle", "loot", "over", "stranger", "darkness"])
def test_a_run_is_shown_as_the_output_serializer_shows_it(case: str) -> None:
    view = _view(case)
    built, declared = run_output(view), RunOutput(view).data
    assert built == declared
    assert json.dumps(built) == json.dumps(declared)  # the same keys in the same order, the same types
