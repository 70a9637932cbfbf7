"""The run services, split by concern: store (the run's storage), core (rules, the run loaded for a step,
checks, loot and coins), lobby, rooms, battles, endings, over the pure rules of ``engine/``; and, below,
what a run kind built on dungeons may use (the Labyrinth of Darkness, darkness/).

Import order (no circle): store <- core <- endings <- battles <- rooms <- lobby. Every run write loads
the run as a step with its row locked first (select_for_update), then player rows (through
players.services, which lock the player); the step's member rows are written with the run's when the
step is saved, under that lock. A battle step locks the run and its battle in one statement
(dungeons/runs/battles.py), so a battle step and a run move never interleave.

The public functions of the runs, for a run kind (darkness/ imports only these, from this package:
tests/darkness/test_darkness_uses_public_runs.py): load and check a run (``run_locked``, ``member_of``,
``require_status``, ``check_step``), the rules (``run_rules_get``), enter a room (``enter_room``), a
member's death and the run's end (``die``, ``end_if_party_gone``), the step and its rows (``RunStep``,
whose ``dungeon()`` reads the dungeon's facts; ``MemberRow``, ``RoomRow``, ``RunRow``), a dungeon of the
kind's own (``dungeon_insert``), what lies in a room (``room_contents``: a ``RoomBattle``, ``LootRow``s), a
player's reference (``player_ref``) and saving the step (``run_save``); and the run's pure rules a kind
shares (``engine/``): where the party stands (``Place``, whose streams its draws use), a member as the
rules read them (``inside``), resting (``rest``), walking on (``regenerate``), an NPC joining
(``npc_joins``), and recording what a rule returned on the step (``apply_rules``); and the sentences of
its own run-log entries (``register_text``, naming players with ``players_text``: texts.py). They are
looked up on first use (so importing this package imports none of the services).
"""
from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the module that defines it.
_PUBLIC = {
    "RunStep": "store", "RunRow": "store", "MemberRow": "store", "RoomRow": "store", "run_save": "store",
    "dungeon_insert": "store", "player_ref": "store", "room_contents": "store",
    "RoomBattle": "store", "LootRow": "store",
    "run_locked": "core", "member_of": "core", "require_status": "core", "check_step": "core",
    "run_rules_get": "core", "inside": "core", "apply_rules": "core",
    "Place": "engine.values", "rest": "engine.rooms", "regenerate": "engine.rooms",
    "npc_joins": "engine.rooms",
    "die": "endings", "end_if_party_gone": "endings",
    "enter_room": "rooms", "RoomEntry": "rooms",
    "register_text": "texts", "players_text": "texts",
}

__all__ = sorted(_PUBLIC)  # noqa: PLE0605 - sorted() returns a list; ruff sees only the call


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
