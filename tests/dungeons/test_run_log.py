"""The run log's typed entries: each writes the documented JSON and is read back as itself (issue 13);
and the order entries are written in (issue 24)."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import darkness.log_entries
from dungeons import run_log
from dungeons.models import RunStatus
from dungeons.run_log import ENTRY_TYPES, LogEntry, describe_json, entry_from_json
from dungeons.runs.lobby import run_start
from tests.dungeons.run_helpers import (
    bestiary,
    combat_settings,
    fix_seed,
    lobby,
    log_kinds,
    rooms_are,
    seed_where,
    small_dungeons,
)
from tests.factories import PlayerFactory

SAMPLES: list[LogEntry] = [
    run_log.Started(party=[1, 2], rank=1.5, completed=3.0),
    run_log.Entered(room_kind="trap"),
    run_log.BattleBegun(battle=7, enemies=["Giant Rat 1", "Giant Rat 2"]),
    run_log.BattleOver(battle=7, outcome="victory"),
    run_log.Trap(hits={"1": {"damage": 4, "effect": "bleeding", "hp": 16}}),
    run_log.Treasure(items=[3, 4], coins_each=12),
    run_log.StoryItems(story_item="gems", items=[5]),
    run_log.Sealed(seal="gems"),
    run_log.SealOpened(seal="gems", opened_by=1, items=[6, 7], coins_each=40),
    run_log.NpcJoined(npc="inquisitor"),
    run_log.NpcDied(npc="inquisitor"),
    run_log.Rested(hp={"1": 30}),
    run_log.Formation(players=[2, 1]),
    run_log.PotionHealed(player=1, potion="healing", item_kind=9, hp=25, max_hp=30, healed=5),
    run_log.StatPotionDrunk(player=1, potion="stat", item_kind=10, hp=30, max_hp=35, stat="stamina",
                            amount=1),
    run_log.Died(player=2, charon_fee=10, items_lost=3),
    run_log.MemberEscaped(player=1, loss_percent=80, items_lost=2),
    run_log.RunEscaped(),
    run_log.RunFailed(),
    run_log.Completed(party=[1], rescued="inquisitor"),
    darkness.log_entries.DarknessStarted(party=[1], rank=2.0, maze=3),
    darkness.log_entries.TorchTaken(player=1),
    darkness.log_entries.TorchRelit(torch=12),
    darkness.log_entries.EnteredAgain(),
    darkness.log_entries.TorchOut(),
    darkness.log_entries.Moved(direction="UP", outcome="moved", burn=1, torch=11),
    darkness.log_entries.TurnedAway(players=[2]),
]


def test_every_registered_entry_type_has_a_sample() -> None:
    assert {type(e) for e in SAMPLES} == {cls for types in ENTRY_TYPES.values() for cls in types}


@pytest.mark.parametrize("entry", SAMPLES, ids=lambda e: type(e).__name__)
def test_an_entry_is_stored_as_kind_place_and_fields_and_read_back_as_itself(entry: LogEntry) -> None:
    stored = entry.to_json(floor=1, room=2)
    assert list(stored)[:3] == ["kind", "floor", "room"]
    assert stored["kind"] == entry.kind
    assert list(stored)[3:] == [f.name for f in dataclasses.fields(entry)]
    assert entry_from_json(stored) == entry
    sentence = describe_json(stored, {"1": "Ann", "2": "Bo"})
    assert sentence == entry.describe({"1": "Ann", "2": "Bo"})
    assert not sentence.startswith(f"{entry.kind}:")  # a sentence, not the fallback


def test_the_documented_log_kinds_are_typed() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "runs.md").read_text()
    section = docs[docs.index("The run log (`GET runs/{id}/`, `log`)"):]
    field_names = {f.name for types in ENTRY_TYPES.values() for cls in types for f in dataclasses.fields(cls)}
    named = set(re.findall(r"`([a-z_]+)`", section.split("\n\n")[0]))
    documented = named - field_names - {"log", "kind", "floor", "room", "seq"}
    assert {"started", "trap", "died", "battle_over"} <= documented
    assert documented <= set(ENTRY_TYPES), documented - set(ENTRY_TYPES)


def test_an_unknown_kind_or_shape_falls_back_to_its_fields() -> None:
    assert entry_from_json({"kind": "portal", "colour": "blue"}) is None
    assert entry_from_json({"kind": "died", "player": 1}) is None  # a known kind missing fields
    assert describe_json({"kind": "died", "player": 1}, {}) == "died: player=1"


def _nth_layout(rooms: list[str], n: int):
    """A predicate for ``seed_where``: the (n+1)-th dungeon whose one floor is exactly ``rooms``."""
    matches = 0

    def predicate(dungeon) -> bool:
        nonlocal matches
        if not rooms_are(*rooms)(dungeon):
            return False
        matches += 1
        return matches > n

    return predicate


@pytest.mark.django_db
def test_a_member_killed_before_anyone_acts_dies_after_the_battle_entry(monkeypatch) -> None:
    # given: a rat that never misses and kills in one bite, in the first room of a solo run
    rooms = ["enemy", "trap", "treasure", "rest", "boss"]
    small_dungeons(rooms=len(rooms))
    bestiary(enemy_hp=200, enemy_damage=1000)
    combat_settings(base_miss_chance=0.0, min_miss_chance=0.0)
    # when: runs start until one whose rat acts before the player (the turn order is the seed's)
    for attempt in range(40):
        player = PlayerFactory()
        fix_seed(monkeypatch, seed_where(_nth_layout(rooms, attempt), players=[player]))
        run = lobby([player])
        run_start(player=player, run_id=run.pk)
        run.refresh_from_db()
        if run.status == RunStatus.FAILED:
            break
    else:
        raise AssertionError("no seed lets the rat act first")
    # then: the log tells the battle, then the death it brought, then the battle's end
    assert log_kinds(run) == ["started", "entered", "battle", "died", "battle_over", "failed"]
    battle = run.log[2]["battle"]
    assert run.log[4]["battle"] == battle and run.log[3]["player"] == player.pk
