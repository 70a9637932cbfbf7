"""The run store's fast paths say what its portable twins say (dungeons/runs/store.py).

Every precompiled read is run next to its ORM twin on the same rows, on both databases; the step's
write on PostgreSQL (one data-modifying statement) is run next to the portable write on the same step,
each in a transaction rolled back afterwards, and both must leave the same rows. On either database a
saved step reads back as the step left it.
"""
from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from combat import store as battles_store
from combat.models import Battle, BattleAction
from dungeons.models import DungeonRoom, MemberStatus, Run, RunMember, RunStatus
from dungeons.run_log import Formation, Trap
from dungeons.runs import store
from dungeons.runs.store import RoomRow, RunStep
from players.models import InventoryItem, ItemCategory, Notice, NoticeKind, Player
from players.notice_store import Told
from tests.dungeons.run_helpers import (
    bestiary,
    current_battle,
    guild_party,
    item_kind,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

BOTH = [pytest.param(True, id="fast"), pytest.param(False, id="portable")]


def _first_room_is_enemy(dungeon: Any) -> bool:
    return str(dungeon.floors[0].rooms[0].kind) == "enemy"


@pytest.fixture
def battle_run(monkeypatch: Any) -> tuple[list[Player], Run]:
    """A started run of three, one of them carrying items, in its first room's battle."""
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=10_000, boss_hp=10_000)
    players, _ = guild_party(3)
    potion = item_kind("Test potion", ItemCategory.POTION, "healing", heal=5)
    InventoryItem.objects.create(player=players[1], item_kind=potion)
    return players, started(players, monkeypatch, predicate=_first_room_is_enemy)


def test_the_precompiled_reads_give_what_the_orm_gives(battle_run: tuple[list[Player], Run]) -> None:
    # given a started run in battle, with an answer stored for an idempotency key
    players, run = battle_run
    battle = current_battle(run)
    BattleAction.objects.create(battle=battle, step=10**6, player=players[0], action={}, idempotency_key="k",
                                response={"turn": 1})
    stranger = PlayerFactory()
    ids = [p.pk for p in players]
    # when each fast read and its portable twin read the same rows, then they agree
    assert store.run_lock(run.pk, fast=True) == store.run_lock(run.pk, fast=False)
    assert store.members_load(run.pk, fast=True) == store.members_load(run.pk, fast=False)
    guild_id = players[0].memberships.get().guild_id
    assert [m.current_guild_id for m in store.members_load(run.pk)] == [guild_id] * 3
    categories = [ItemCategory.WEAPON, ItemCategory.POTION]
    assert [k.pk for k in store.item_kinds(categories, fast=True)] == \
        [k.pk for k in store.item_kinds(categories, fast=False)]
    assert _carried(store.carried(ids, fast=True)) == _carried(store.carried(ids, fast=False))
    assert store.battle_lock(battle_id=battle.pk, fast=True) == \
        store.battle_lock(battle_id=battle.pk, fast=False)
    for user, key in [(players[0].user_id, "k"), (players[0].user_id, ""), (players[1].user_id, "k"),
                      (stranger.user_id, "k")]:
        assert store.battle_act_lock(battle_id=battle.pk, user_id=user, key=key, fast=True) == \
            store.battle_act_lock(battle_id=battle.pk, user_id=user, key=key, fast=False), (user, key)
    found = store.battle_act_lock(battle_id=battle.pk, user_id=players[0].user_id, key="k")
    assert found is not None and found.previous == {"turn": 1}
    for user in (players[2].user_id, stranger.user_id):
        fast, portable = (store.battle_poll(battle_id=battle.pk, user_id=user, since=0, fast=flag)
                          for flag in (True, False))
        assert (fast and (fast.battle, fast.player_id)) == \
            (portable and (portable.battle, portable.player_id))
        if fast is not None and fast.events is not None:  # read with the battle on PostgreSQL
            assert fast.events == battles_store.events_since(battle_id=battle.pk, since=0)
    assert store.battle_lock(battle_id=2**64, fast=True) is None and store.run_lock(2**64) is None


@pytest.mark.parametrize("fast", BOTH)
def test_paying_coins_the_fast_way_and_the_portable_way_pays_the_same(fast: bool) -> None:
    # given two players
    players = [PlayerFactory(money=5), PlayerFactory(money=0)]
    # when both find coins
    store.pay([p.pk for p in players], 7, fast=fast)
    # then each has them
    assert [p.money for p in Player.objects.filter(pk__in=[p.pk for p in players]).order_by("pk")] == [12, 7]


def _carried(items: dict[int, list[InventoryItem]]) -> dict[int, list[tuple[int, int, str]]]:
    return {p: [(i.pk, i.item_kind.pk, i.item_kind.name) for i in found] for p, found in items.items()}


def _a_step(run_id: int, *, with_log: bool) -> RunStep:
    """A step that changes a bit of everything: run columns (to null too), members (different columns
    each), log entries, a room of the run's dungeon."""
    if with_log:
        step = store.run_step_lock(run_id)
    else:
        found = store.run_lock(run_id)
        assert found is not None
        step = RunStep(found[0])
    assert step is not None
    members = step.members()
    step.change(room_cleared=True, npc_kind="warlock", npc_hp=3, npc_max_hp=9, guild_id=None,
                ended_at=timezone.now() + timedelta(days=1), step=step.run.step + 2)
    step.change_member(members[0].player_id, hp=1, kills={"rat": 2}, stat_boosts={"luck": 1})
    step.change_member(members[1].player_id, status=MemberStatus.DEAD, active=False, hp=0, money_lost=4)
    step.change_member(members[2].player_id, pending_effects=[{"name": "bleeding", "turns": 3}], position=7)
    step.log(Trap(hits={str(members[0].player_id): {"damage": 3, "effect": None, "hp": 1}}))
    step.log(Formation(players=[m.player_id for m in members]))
    step.add_room(RoomRow(floor=3, index=9, kind="rest"))
    step.tell([Told(members[2].player_id, NoticeKind.YOUR_TURN, {"run": run_id, "battle": 7, "turn": 1}),
               Told(members[0].player_id, NoticeKind.YOUR_TURN, {"run": run_id, "battle": 7, "turn": 2}),
               Told(members[2].player_id, NoticeKind.YOUR_TURN, {"run": run_id, "battle": 7, "turn": 3})])
    return step


def _stored(run_id: int) -> dict[str, Any]:
    run = Run.objects.filter(pk=run_id).values().get()
    users = RunMember.objects.filter(run_id=run_id).values("player__user_id")
    return {"run": run, "members": list(RunMember.objects.filter(run_id=run_id).order_by("pk").values()),
            "notices": list(Notice.objects.filter(user_id__in=users).order_by("user_id", "seq")
                            .values_list("user_id", "seq", "kind", "data")),
            "rooms": list(DungeonRoom.objects.filter(dungeon_id=run["dungeon_id"]).order_by("floor", "index")
                          .values("floor", "index", "kind", "npc_kind", "story_item", "seal"))}


def _saved(run_id: int, *, fast: bool | None, with_log: bool) -> dict[str, Any]:
    with transaction.atomic():
        step = _a_step(run_id, with_log=with_log)
        store.run_save(step, fast=fast)
        stored = _stored(run_id)
        transaction.set_rollback(True)
    return stored


@pytest.mark.parametrize("with_log", [True, False], ids=["log read", "log not read"])
def test_a_saved_step_reads_back_as_the_step_left_it(battle_run: tuple[list[Player], Run],
                                                      with_log: bool) -> None:
    # given a started run and a step changing it
    _, run = battle_run
    before = _stored(run.pk)
    with transaction.atomic():
        step = _a_step(run.pk, with_log=with_log)
        expected_run, expected_members, entries = step.run, step.members(), list(step.entries)
        expected_told = list(step.told)
        # when the step is saved (this database's own path)
        store.run_save(step)
        stored = _stored(run.pk)
        transaction.set_rollback(True)
    # then the rows are the step's, and the log has its entries appended
    assert {f.name: stored["run"][f.name] for f in dataclasses.fields(expected_run)} == \
        dataclasses.asdict(expected_run)
    assert stored["run"]["log"] == [*before["run"]["log"], *entries]
    assert [(m["player_id"], m["hp"], m["status"], m["kills"], m["pending_effects"], m["position"])
            for m in sorted(stored["members"], key=lambda m: (m["position"], m["id"]))] == \
        [(m.player_id, m.hp, m.status, m.kills, m.pending_effects, m.position) for m in expected_members]
    added = {"floor": 3, "index": 9, "kind": "rest", "npc_kind": "", "story_item": "", "seal": ""}
    assert added in stored["rooms"]
    # and the step's notices follow the ones each user had, in the order the step told them
    user_of = {m.player_id: m.player.user_id for m in expected_members}
    last = {user_of[p]: 0 for p in user_of}
    for user_id, seq, _, _ in before["notices"]:
        last[user_id] = max(last[user_id], seq)
    expected_notices = []
    for told in expected_told:
        last[user_of[told.player]] += 1
        expected_notices.append((user_of[told.player], last[user_of[told.player]], told.kind, told.data))
    assert [n for n in stored["notices"] if n not in before["notices"]] == sorted(expected_notices,
                                                                                  key=lambda n: n[:2])
    assert _stored(run.pk) == before  # rolled back


@pytest.mark.postgres
@pytest.mark.parametrize("with_log", [True, False], ids=["log read", "log not read"])
def test_the_one_statement_save_writes_what_the_portable_save_writes(battle_run: tuple[list[Player], Run],
                                                                     with_log: bool) -> None:
    # given a started run and the same step saved each way, from the same rows
    _, run = battle_run
    fast = _saved(run.pk, fast=True, with_log=with_log)
    portable = _saved(run.pk, fast=False, with_log=with_log)
    # then the rows are the same, but for the end time each step took
    for stored in (fast, portable):
        stored["run"].pop("ended_at")
    assert fast == portable


def test_a_step_that_changed_nothing_writes_nothing(battle_run: tuple[list[Player], Run],
                                                    django_assert_num_queries: Any) -> None:
    _, run = battle_run
    step = store.run_step_lock(run.pk)
    assert step is not None
    step.members()
    step.change(status=RunStatus.ACTIVE)  # as it is
    with django_assert_num_queries(0):
        store.run_save(step)


def test_a_battles_row_and_its_run_come_back_as_stored(battle_run: tuple[list[Player], Run]) -> None:
    _, run = battle_run
    battle = current_battle(run)
    locked = store.battle_lock(battle_id=battle.pk)
    assert locked is not None
    row, run_row = locked
    assert (row.id, row.step, row.state, row.enemy_kinds) == (battle.pk, battle.step, battle.state,
                                                                battle.enemy_kinds)
    # the run's moves stay unread too (a battle step records none)
    stored = store.run_row(Run.objects.filter(pk=run.pk).values().get())
    assert run_row == dataclasses.replace(stored, actions=None)
    assert Battle.objects.filter(pk=battle.pk).values_list("setup", flat=True).get()  # the setup stays unread


@pytest.mark.postgres
def test_the_steps_one_read_gives_what_the_reads_on_first_use_give(
        battle_run: tuple[list[Player], Run]) -> None:
    # given a started run (its rooms, members and dungeon stored)
    _, run = battle_run
    # when its step is loaded by PostgreSQL's one read after the lock, and by the reads on first use
    fast = store.run_step_lock(run.pk, rooms=True, fast=True)
    portable = store.run_step_lock(run.pk, fast=False)
    assert fast is not None and portable is not None
    # then the step holds the same rows
    assert (fast.run, fast.full_log, fast.members(), fast.rooms(), fast.dungeon()) == \
        (portable.run, portable.full_log, portable.members(), portable.rooms(), portable.dungeon())


@pytest.mark.parametrize("fast", BOTH)
def test_a_rooms_contents_are_read_the_same_either_way(battle_run: tuple[list[Player], Run],
                                                       fast: bool) -> None:
    # given the room of a run's battle, two items lying in it (one taken)
    players, run = battle_run
    battle = current_battle(run)
    potion = item_kind("Shown potion", ItemCategory.POTION, "healing", heal=5, weight=3)
    loot = store.loot_add(run_id=run.pk, floor=0, room=0, kinds=[potion, potion])
    store.loot_take(loot_id=loot[1].id, player_id=players[2].pk)
    if fast and transaction.get_connection().vendor != "postgresql":
        pytest.skip("the one-statement read is PostgreSQL's")
    # when its contents are read, then they are the battle and the loot, with what the view shows of each item
    found_battle, found_loot = store.room_contents(run_id=run.pk, floor=0, room=0, fast=fast)
    assert found_battle == store.RoomBattle(battle.pk, battle.outcome, battle.awaiting_id,
                                            battle.turn_started_at, battle.run_seq)
    assert found_battle.awaiting_id is not None and found_battle.turn_started_at is not None
    shown = [(item.id, item.taken_by_id, item.item_kind.pk, item.item_kind.name, item.item_kind.category,
              item.item_kind.sub_kind, item.item_kind.weight) for item in found_loot]
    assert shown == [(loot[0].id, None, potion.pk, "Shown potion", "potion", "healing", 3),
                     (loot[1].id, players[2].pk, potion.pk, "Shown potion", "potion", "healing", 3)]
    assert store.room_contents(run_id=run.pk, floor=0, room=4, fast=fast) == (None, [])


@pytest.mark.parametrize("fast", [pytest.param(True, marks=pytest.mark.postgres, id="one statement"),
                                  pytest.param(False, id="portable")])
@pytest.mark.parametrize("moves_loaded", [True, False], ids=["moves loaded", "moves not loaded"])
def test_what_a_step_read_is_recorded_with_the_moves_in_the_steps_own_save(
        battle_run: tuple[list[Player], Run], fast: bool, moves_loaded: bool) -> None:
    # given a started run (its start recorded a move) and a step that read something for the replay, with
    # the run's moves loaded (a run service's lock) or not (a battle's lock)
    _, run = battle_run
    moves = list(Run.objects.values_list("actions", flat=True).get(pk=run.pk))
    assert moves
    with transaction.atomic():
        locked = store.run_lock(run.pk)
        assert locked is not None
        row = locked[0] if moves_loaded else dataclasses.replace(locked[0], actions=None)
        step = RunStep(row, log=locked[1])
        step.record("carried", player=7, purpose="escape", items=[3, 1])
        step.log(Trap(hits={}))
        # when the step is saved
        with CaptureQueriesContext(connection) as queries:
            store.run_save(step, fast=fast)
        stored = list(Run.objects.values_list("actions", flat=True).get(pk=run.pk))
        transaction.set_rollback(True)
    # then the record follows the moves, where the party stands, and on PostgreSQL it took no statement of
    # its own (the portable path reads the moves to append, when they were not loaded)
    place = {"floor": locked[0].floor, "room": locked[0].room}
    assert stored == [*moves, {"read": "carried", **place, "player": 7, "purpose": "escape", "items": [3, 1]}]
    assert len(queries.captured_queries) == (1 if fast else 1 + (not moves_loaded))
