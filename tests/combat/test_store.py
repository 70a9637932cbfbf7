"""The battle store's two ways of saving a step write the same rows (combat/store.py).

Twin battles (the same setup and seed, in two runs) take the same steps; one is saved by PostgreSQL's
prepared data-modifying statement, the other by the portable ORM path, and every row of both (the
battle's turn facts, its events, its action rows) must be the same.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from combat import engine, store
from combat.models import Battle, BattleAction, BattleEvent, EnemyKind, EnemyKindEffect
from combat.services import battle_create, battle_moved, battle_step, battle_timeout_step
from combat.store import ActionRecord, BattleRow, BattleStep
from players.models import Notice, Player
from players.notice_store import Told, notice_counter, notices_insert
from tests.combat.engine.factories import SURE_HIT, enemy, player
from tests.factories import PlayerFactory, make_run

pytestmark = pytest.mark.django_db


def _twins() -> tuple[BattleRow, BattleRow]:
    heroes = [PlayerFactory(), PlayerFactory()]
    setup = engine.BattleSetup(
        players=tuple(player(engine.player_combatant_id(p.pk), hp=40) for p in heroes),
        enemies=(enemy("e1", hp=30, damage=3), enemy("e2", hp=20, damage=2)), rules=SURE_HIT)
    twins = [battle_create(run_id=make_run(host=hero).pk, floor=0, room=0, setup=setup, seed=11,
                           enemy_kinds={"e1": "rat", "e2": "bat"})[0] for hero in heroes]
    return twins[0], twins[1]


def _events(battle_id: int) -> list[tuple[int, Any]]:
    return list(BattleEvent.objects.filter(battle_id=battle_id).order_by("seq").values_list("seq", "data"))


def _stored(battle_id: int) -> dict[str, Any]:
    """Everything a step writes, as the ORM reads it back (without the ids that differ between twins)."""
    return {
        "battle": Battle.objects.filter(pk=battle_id).values(*store.STEP_COLUMNS).get(),
        "events": _events(battle_id),
        "actions": list(BattleAction.objects.filter(battle_id=battle_id).order_by("step").values_list(
            "step", "player_id", "action", "idempotency_key", "response")),
    }


def _twin_step(step: BattleStep, twin: BattleRow) -> BattleStep:
    return BattleStep(dataclasses.replace(step.battle, id=twin.id, run_id=twin.run_id), step.events)


@pytest.mark.postgres
def test_the_prepared_step_write_stores_what_the_portable_one_stores() -> None:
    # given twin battles
    fast, portable = _twins()
    now, taken = timezone.now(), 0
    # when both take the same steps to the end, one saved by each path (a timeout among them)
    while not fast.is_over:
        if fast.step == 3:  # the awaited player's deadline passes
            _, step, record = battle_timeout_step(fast, deadline=now)
        else:
            state = engine.BattleState.from_dict(fast.state)
            action = next(a for a in engine.allowed_actions(state) if a.to_dict()["kind"] == "attack")
            _, step = battle_step(fast, action, now=now)
            record = ActionRecord(step=fast.step, player_id=fast.awaiting_id, action=action.to_dict(),
                                  idempotency_key=f"key-{fast.step}",
                                  response={"turn": fast.step, "events": step.events})
        store.step_save(step, record, fast=True)
        store.step_save(_twin_step(step, portable), record, fast=False)
        fast, portable, taken = step.battle, _twin_step(step, portable).battle, taken + 1
    # then every row of the two battles is the same
    assert fast.ended_at is not None
    assert _stored(fast.id) == _stored(portable.id)
    assert len(_stored(fast.id)["actions"]) == taken > 3


@pytest.mark.parametrize("fast", [
    pytest.param(True, marks=pytest.mark.postgres, id="prepared"), pytest.param(False, id="portable")])
def test_a_second_action_for_one_step_is_refused_by_either_write(fast: bool) -> None:
    # given a battle whose step was saved with its action row
    battle, _ = _twins()
    state = engine.BattleState.from_dict(battle.state)
    action = engine.allowed_actions(state)[0]
    _, step = battle_step(battle, action, now=timezone.now())
    record = ActionRecord(step=battle.step, player_id=battle.awaiting_id, action=action.to_dict(),
                          idempotency_key="", response={})
    store.step_save(step, record, fast=fast)
    before = _stored(battle.id)
    # when the same step is saved again
    with pytest.raises(IntegrityError), transaction.atomic():
        store.step_save(step, record, fast=fast)
    # then nothing of it was written
    assert _stored(battle.id) == before


def _created(battle_id: int) -> dict[str, Any]:
    """What a battle's creation stored, without what differs between two creations (ids, times)."""
    return {
        "battle": Battle.objects.filter(pk=battle_id).values(
            "floor", "room", "seed", "engine_version", "setup", "state", "outcome", "step", "event_count",
            "awaiting_id", "enemy_kinds", "ended_at").get(),
        "events": _events(battle_id),
    }


@pytest.mark.postgres
def test_the_one_statement_battle_insert_stores_what_the_portable_one_stores() -> None:
    # given a battle's first state and events, as combat.services computes them
    heroes = [PlayerFactory(), PlayerFactory()]
    setup = engine.BattleSetup(players=tuple(player(engine.player_combatant_id(p.pk), hp=40) for p in heroes),
                               enemies=(enemy("e1", hp=30, damage=3),), rules=SURE_HIT)
    result = engine.start_battle(setup, 5)
    blank = store.BattleRow(id=0, run_id=0, floor=0, room=0, seed=5, engine_version=engine.ENGINE_VERSION,
                            state={}, outcome="ongoing", step=0, event_count=0, awaiting_id=None,
                            turn_started_at=None, created_at=timezone.now(), ended_at=None)
    first = battle_moved(blank, result, now=timezone.now())
    # when it is stored by each path, in two runs
    rows = [store.battle_insert(run_id=make_run(host=hero).pk, floor=1, room=2, seed=5,
                                engine_version=engine.ENGINE_VERSION, setup=engine.setup_to_dict(setup),
                                enemy_kinds={"e1": "rat"}, first=first.battle, events=first.events, fast=fast)
            for hero, fast in zip(heroes, (True, False))]
    # then both rows are the same, and each row answered is the one stored
    assert _created(rows[0].id) == _created(rows[1].id)
    for row in rows:
        assert Battle.objects.get(pk=row.id).created_at == row.created_at
        expected = (first.battle.step, len(first.events), {"e1": "rat"})
        assert (row.step, row.event_count, row.enemy_kinds) == expected


def test_the_bestiary_is_read_in_one_statement_as_the_orm_reads_it(django_assert_num_queries: Any) -> None:
    # given kinds of several floors, with effects and without, one out of the draw
    rat = EnemyKind.objects.create(name="Store rat", slug="store-rat", hp=5, weapon_name="Teeth",
                                   weapon_damage=2, min_floor=0, max_floor=2)
    EnemyKindEffect.objects.create(enemy_kind=rat, trigger="on_hit", name="stun", turns=2, magnitude=1.5,
                                   chance=0.25)
    EnemyKindEffect.objects.create(enemy_kind=rat, trigger="innate", name="vigor")
    EnemyKind.objects.create(name="Store bat", slug="store-bat", hp=3, weapon_name="Fangs", weapon_damage=1,
                             min_floor=1)
    EnemyKind.objects.create(name="Store ghost", slug="store-ghost", hp=3, weapon_name="Chill",
                             weapon_damage=1, weight=0)
    for floor in (0, 1, 3):
        # when the floor's kinds are read each way
        with django_assert_num_queries(1):
            fast = store.enemy_kinds(floor=floor, fast=True)
            shown = [(k.pk, k.slug, k.hp, k.weapon(), k.innate_effects(), k.stats()) for k in fast]
        portable = store.enemy_kinds(floor=floor, fast=False)
        # then they are the same kinds, with the same effects, in the same order
        assert shown == [(k.pk, k.slug, k.hp, k.weapon(), k.innate_effects(), k.stats()) for k in portable]
    assert any(k.slug == "store-rat" and k.weapon().on_hit for k in store.enemy_kinds(floor=0))


@pytest.mark.parametrize("fast", [
    pytest.param(True, marks=pytest.mark.postgres, id="prepared"), pytest.param(False, id="portable")])
def test_a_step_saved_with_its_notices_numbers_them_on_and_a_refused_one_writes_none(fast: bool) -> None:
    # given a battle of two players, the first of whom was told something before
    battle, _ = _twins()
    state = engine.BattleState.from_dict(battle.state)
    a, b = sorted(engine.combatant_player_id(c.id) for c in state.players)
    users = dict(Player.objects.filter(pk__in=[a, b]).values_list("pk", "user_id"))
    was = {p: notice_counter(user_id=users[p]) for p in (a, b)}  # the battle's start told one its turn
    notices_insert([Told(a, "invitation", {"n": 0})], now=timezone.now())
    action = engine.allowed_actions(state)[0]
    _, step = battle_step(battle, action, now=timezone.now())
    record = ActionRecord(step=battle.step, player_id=battle.awaiting_id, action=action.to_dict(),
                          idempotency_key="", response={})
    told = [Told(b, "your_turn", {"n": 1}), Told(a, "your_turn", {"n": 2}), Told(b, "your_turn", {"n": 3})]
    # when the step is saved with its notices (PostgreSQL: in its own statement), then saved again (refused)
    assert store.step_save(step, record, told=told, fast=fast) == sorted(users.values())
    with pytest.raises(IntegrityError), transaction.atomic():
        store.step_save(step, record, told=told, fast=fast)
    notices_insert([Told(a, "invitation", {"n": 4})], now=timezone.now())
    # then each user's notices are numbered on in order, the refused step's gave back its numbers
    rows = list(Notice.objects.filter(data__has_key="n").order_by("user_id", "seq")
                .values_list("user_id", "seq", "data"))
    assert rows == sorted([
        (users[a], was[a] + 1, {"n": 0}), (users[a], was[a] + 2, {"n": 2}), (users[a], was[a] + 3, {"n": 4}),
        (users[b], was[b] + 1, {"n": 1}), (users[b], was[b] + 2, {"n": 3}),
    ])
    assert [notice_counter(user_id=users[p]) for p in (a, b)] == [was[a] + 3, was[b] + 2]
