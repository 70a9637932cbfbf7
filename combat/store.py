"""The battle aggregate's storage: a battle with its events and its actions, behind one module.

STYLE.md's store (Saleor's fetch): a battle is loaded as a frozen ``BattleRow``; the combat services
compute a step with the pure engine as a value (``BattleStep``: the row as the step leaves it and its
events); this module saves it with the action row that took it. Nothing else in combat writes SQL.

A step is written by one of two paths that write the same rows (tests/combat/test_store.py runs both,
on both databases where they can run, and compares): the portable path (the ORM, three statements)
and, on PostgreSQL, one prepared data-modifying CTE (issue 13), which also writes the step's notices
(``players.notice_store.NOTICES_CTE``: the ``your_turn`` of the player whose turn it starts). The reads a
poll makes in one round trip with the run (``EVENTS_SINCE_COLUMN``) are declared here and composed by the
run's store (dungeons/runs/store.py): combat imports nothing of dungeons (tests/test_combat_knows_no_runs.py).
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.utils import timezone

from backend.sql import Columns, Prepared, rows_insert
from combat.engine import Outcome
from combat.models import TURN_AWAITED, Battle, BattleAction, BattleEvent, EnemyKind, EnemyKindEffect
from players.notice_store import Told, notices_insert, notices_saved, with_notices

#: The columns a battle is loaded with: never its setup (written once, read only by replays and the admin).
BATTLE = Columns(Battle, exclude=["setup"])
#: A poll's battle: neither the setup nor the enemy kinds (only a step's kills read them).
POLLED_BATTLE = Columns(Battle, exclude=["setup", "enemy_kinds"])
#: The columns a step changes; the setup, the seed and the enemy kinds never change after the start.
STEP_COLUMNS = ("state", "step", "event_count", "outcome", "ended_at", "awaiting_id", "turn_started_at",
                "run_seq")
#: A poll's page of events.
EVENTS_PAGE = 500


@dataclass(frozen=True)
class BattleRow:
    """A battle as loaded: the engine's state as stored JSON and the turn facts (never the setup).

    ``enemy_kinds`` is None when it was not loaded (a poll's read). ``run_seq``: the last number of its
    run's one sequence (SPEC 13: a run's log entries and its battles' events) its events took; the caller
    that owns the run sets where a step's events go on from (combat knows no run)."""

    id: int
    run_id: int
    floor: int
    room: int
    seed: int
    engine_version: int
    state: dict[str, Any]
    outcome: str
    step: int
    event_count: int
    awaiting_id: int | None
    turn_started_at: datetime | None
    created_at: datetime
    ended_at: datetime | None
    enemy_kinds: Mapping[str, str] | None = None
    run_seq: int = 0

    @property
    def pk(self) -> int:
        return self.id

    @property
    def is_over(self) -> bool:
        return self.outcome != "ongoing"


def battle_row(row: Sequence[Any], connection: BaseDatabaseWrapper, *, start: int = 0,
               columns: Columns[Battle] = BATTLE) -> BattleRow:
    """The ``BattleRow`` of the ``columns`` (``BATTLE`` or ``POLLED_BATTLE``) at ``row[start:]``."""
    return BattleRow(**columns.mapping(row, connection, start=start))


def battle_model(row: BattleRow) -> Battle:
    """The battle as a model instance holding the loaded columns (its setup deferred), for a caller that
    wants the ORM's relations (``battle.events``); nothing here saves it."""
    names = [name for name in BATTLE.attnames if name != "enemy_kinds" or row.enemy_kinds is not None]
    return Battle.from_db(transaction.get_connection().alias, names, [getattr(row, name) for name in names])


@dataclass(frozen=True)
class BattleStep:
    """What one step did to a battle: the row as it leaves it, and its events as JSON (the last
    ``len(events)`` of its ``event_count``)."""

    battle: BattleRow
    events: list[dict[str, Any]]

    @property
    def first_event(self) -> int:
        return self.battle.event_count - len(self.events) + 1

    @property
    def first_run_seq(self) -> int:
        """The first event's number in the run's one sequence."""
        return self.battle.run_seq - len(self.events) + 1


@dataclass(frozen=True)
class ActionRecord:
    """The action row a step is saved with (stamped when it is written): unique per (battle, step), the
    backstop against a second effect for one turn; its ``response`` answers a retry with the same key."""

    step: int
    player_id: int | None
    action: dict[str, Any]
    idempotency_key: str
    response: dict[str, Any]


# --- writes ----------------------------------------------------------------------------------------------


#: A new battle and its first events in one statement on PostgreSQL (the events take the battle's new id).
_BATTLE_INSERT = (
    'WITH new_battle AS (INSERT INTO "combat_battle" ("run_id", "floor", "room", "seed", "engine_version", '
    '"setup", "state", "outcome", "step", "event_count", "awaiting_id", "turn_started_at", "enemy_kinds", '
    '"created_at", "ended_at", "run_seq") '
    'VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s) '
    'RETURNING "id"), '
    'new_events AS (INSERT INTO "combat_battleevent" ("battle_id", "seq", "run_seq", "data") '
    'SELECT new_battle."id", e.n, %s + e.n, e.data '
    'FROM new_battle, jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e (data, n)) '
    'SELECT "id" FROM new_battle'
)


def battle_insert(
    *, run_id: int, floor: int, room: int, seed: int, engine_version: int, setup: dict[str, Any],
    enemy_kinds: Mapping[str, str], first: BattleRow, events: list[dict[str, Any]], fast: bool | None = None,
) -> BattleRow:
    """Store a new battle (``first``: its turn facts after the enemy turns before any player's, its id
    and creation time ignored; its ``run_seq`` the last number its first events took) and its first
    events; returns its row. One statement on PostgreSQL (``fast``), two elsewhere."""
    before = first.run_seq - len(events)
    connection = transaction.get_connection()
    if connection.vendor == "postgresql" if fast is None else fast:
        created_at = timezone.now()
        with connection.cursor() as cursor:
            cursor.execute(_BATTLE_INSERT, [
                run_id, floor, room, seed, engine_version, json.dumps(setup), json.dumps(first.state),
                first.outcome, first.step, first.event_count, first.awaiting_id, first.turn_started_at,
                json.dumps(dict(enemy_kinds)), created_at, first.ended_at, first.run_seq, before,
                json.dumps(events),
            ])
            (battle_id,) = cursor.fetchone()
    else:
        battle = Battle(run_id=run_id, floor=floor, room=room, seed=seed, engine_version=engine_version,
                        setup=setup, enemy_kinds=dict(enemy_kinds),
                        **{name: getattr(first, name) for name in STEP_COLUMNS})
        rows_insert([battle])
        rows_insert([BattleEvent(battle_id=battle.pk, seq=seq, run_seq=before + seq, data=data)
                     for seq, data in enumerate(events, start=1)])
        battle_id, created_at = battle.pk, battle.created_at
    return dataclasses.replace(first, id=battle_id, run_id=run_id, floor=floor, room=room, seed=seed,
                               engine_version=engine_version, created_at=created_at,
                               enemy_kinds=dict(enemy_kinds))


#: A step's writes in one statement on PostgreSQL (issue 13): its events appended to the log, the
#: battle's changed columns (STEP_COLUMNS), the action row. The action row's unique (battle, step)
#: fails the whole statement, so a second effect for one turn stays impossible.
_STEP_SAVE = """WITH step_events AS (
    INSERT INTO "combat_battleevent" ("battle_id", "seq", "run_seq", "data")
    SELECT %s, %s + e.n - 1, %s + e.n - 1, e.data
    FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e (data, n)
), step_battle AS (
    UPDATE "combat_battle" SET "state" = %s::jsonb, "step" = %s, "event_count" = %s, "outcome" = %s,
        "ended_at" = %s, "awaiting_id" = %s, "turn_started_at" = %s, "run_seq" = %s
    WHERE "id" = %s
)
INSERT INTO "combat_battleaction" ("battle_id", "step", "player_id", "action", "idempotency_key", "response",
                                   "created_at")
VALUES (%s, %s, %s, %s::jsonb, %s, %s::jsonb, %s)"""
#: Planned once per database session (backend.sql.Prepared): its planning cost more than its execution.
_STEP_SAVE_PREPARED = Prepared("battle_step_save", _STEP_SAVE)
#: The same with the step's notices (players.notice_store's ``WITH`` items, their parameters first): a step
#: that starts another player's turn tells them in the step's own statement, which returns the users told.
_STEP_SAVE_TOLD_PREPARED = Prepared("battle_step_save_told", with_notices(_STEP_SAVE))


def step_save(step: BattleStep, action: ActionRecord, *, told: Sequence[Told] = (),
              fast: bool | None = None) -> list[int]:
    """Write a step, its action row and its notices (``told``); returns the users told (each once, in user
    order), whose streams the caller wakes. One statement on PostgreSQL, notices included; elsewhere the
    ORM's three and the notices' own (``fast`` chooses a path; None: the database's own)."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql" if fast is None else fast:
        return _step_save_fast(step, action, told, connection)
    _step_save_portable(step, action)
    return notices_insert(told, now=timezone.now(), fast=False)


def _step_save_fast(step: BattleStep, action: ActionRecord, told: Sequence[Told],
                    connection: BaseDatabaseWrapper) -> list[int]:
    battle = step.battle
    now = timezone.now()
    params = [
        battle.id, step.first_event, step.first_run_seq, json.dumps(step.events),
        json.dumps(battle.state), battle.step, battle.event_count, battle.outcome, battle.ended_at,
        battle.awaiting_id, battle.turn_started_at, battle.run_seq, battle.id,
        battle.id, action.step, action.player_id, json.dumps(action.action), action.idempotency_key,
        json.dumps(action.response), now,
    ]
    with connection.cursor() as cursor:
        if not told:
            _STEP_SAVE_PREPARED.execute(cursor, params, connection)
            return []
        return notices_saved(_STEP_SAVE_TOLD_PREPARED, cursor, params, told, now=now, connection=connection)


def _step_save_portable(step: BattleStep, action: ActionRecord) -> None:
    battle = step.battle
    BattleEvent.objects.bulk_create(
        BattleEvent(battle_id=battle.id, seq=seq, run_seq=step.first_run_seq + n, data=data)
        for n, (seq, data) in enumerate(enumerate(step.events, start=step.first_event)))
    Battle.objects.filter(pk=battle.id).update(**{name: getattr(battle, name) for name in STEP_COLUMNS})
    BattleAction.objects.create(battle_id=battle.id, step=action.step, player_id=action.player_id,
                                action=action.action, idempotency_key=action.idempotency_key,
                                response=action.response)


# --- reads -----------------------------------------------------------------------------------------------


#: The events of a battle after a number (the JSON column comes as its text: JSONField's json.loads).
_EVENTS_SINCE = ('SELECT "seq", "data" FROM "combat_battleevent" WHERE "battle_id" = %s AND "seq" > %s '
                 'ORDER BY "seq" LIMIT %s')
#: PostgreSQL: the same as one column of a statement on "combat_battle" (parameters: since, limit), so a
#: poll reads the battle and its new events in one round trip; ``events_of_column`` reads it.
EVENTS_SINCE_COLUMN = ('(SELECT json_agg(json_build_array(e."seq", e."data") ORDER BY e."seq")::text FROM '
                       '(SELECT "seq", "data" FROM "combat_battleevent" '
                       'WHERE "battle_id" = "combat_battle"."id" AND "seq" > %s ORDER BY "seq" LIMIT %s) e)')


def events_of_column(value: str | None) -> list[dict[str, Any]]:
    """The events of an ``EVENTS_SINCE_COLUMN`` value, as ``events_since`` returns them."""
    return [] if value is None else [{"seq": seq, **data} for seq, data in json.loads(value)]


def events_since(*, battle_id: int, since: int, limit: int = EVENTS_PAGE) -> list[dict[str, Any]]:
    """Events numbered after ``since``, oldest first, each with its ``seq`` (precompiled: a poll's
    hottest read, issue 13)."""
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(_EVENTS_SINCE, [battle_id, since, limit])
        return [{"seq": seq, **json.loads(data)} for seq, data in cursor.fetchall()]


def turn_awaited_first() -> datetime | None:
    """When the earliest awaited turn of any battle began (the deadline clock's read: the partial index
    ``battle_turn_awaited``, which holds the running battles only)."""
    return (Battle.objects.filter(TURN_AWAITED).order_by("turn_started_at")
            .values_list("turn_started_at", flat=True).first())


def turns_awaited_since(before: datetime, *, limit: int) -> list[int]:
    """The battles whose awaited turn began at ``before`` or earlier, earliest first (at most ``limit``)."""
    started = Battle.objects.filter(TURN_AWAITED, turn_started_at__lte=before).order_by("turn_started_at")
    return list(started.values_list("id", flat=True)[:limit])


def replayed_response(*, battle_id: int, player_id: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the player's earlier action with this idempotency key, if any."""
    return (BattleAction.objects.filter(battle_id=battle_id, player_id=player_id, idempotency_key=key)
            .values_list("response", flat=True).order_by().first())


_ENEMY_KIND, _ENEMY_EFFECT = Columns(EnemyKind), Columns(EnemyKindEffect)
#: The bestiary of a floor with every kind's effects (a row per effect; none: one row, the effect's columns
#: null), in one precompiled read: what a new battle's encounter is drawn from.
_ENEMY_KINDS = (
    f'SELECT {_ENEMY_KIND.select()}, {_ENEMY_EFFECT.select()} FROM "combat_enemykind" '
    'LEFT OUTER JOIN "combat_enemykindeffect" '
    'ON "combat_enemykindeffect"."enemy_kind_id" = "combat_enemykind"."id" '
    'WHERE "combat_enemykind"."min_floor" <= %s AND ("combat_enemykind"."max_floor" IS NULL '
    'OR "combat_enemykind"."max_floor" >= %s) AND "combat_enemykind"."weight" > 0 '
    'ORDER BY "combat_enemykind"."slug" ASC, "combat_enemykindeffect"."id" ASC'
)


def enemy_kinds(*, floor: int, fast: bool = True) -> list[EnemyKind]:
    """The drawable kinds (weight > 0) whose floor range holds ``floor``, in slug order, each with its
    effects held as ``prefetch_related("effects")`` holds them: one precompiled read (``fast``), else the
    ORM's two."""
    if not fast:
        on_floor = Q(min_floor__lte=floor) & (Q(max_floor__isnull=True) | Q(max_floor__gte=floor))
        drawable = EnemyKind.objects.filter(on_floor, weight__gt=0)
        return list(drawable.prefetch_related("effects").order_by("slug"))
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_ENEMY_KINDS, [floor, floor])
        rows = cursor.fetchall()
    kinds: dict[int, tuple[EnemyKind, list[EnemyKindEffect]]] = {}
    for row in rows:
        kind_id = row[0]
        if kind_id not in kinds:
            kinds[kind_id] = (_ENEMY_KIND.instance(row, connection), [])
        effect = _ENEMY_EFFECT.instance(row, connection, start=_ENEMY_KIND.width)
        if effect.pk is not None:
            kinds[kind_id][1].append(effect)
    found = []
    for kind, effects in kinds.values():
        held = kind.effects.all()  # held as a prefetch holds them: kind.effects.all() reads no row
        # Django's own prefetch caches: private attributes the stubs do not declare.
        held._result_cache, held._prefetch_done = effects, True  # type: ignore[attr-defined]
        kind._prefetched_objects_cache = {"effects": held}  # type: ignore[attr-defined]
        found.append(kind)
    return found


def ongoing_battle(*, run_id: int) -> int | None:
    """The id of the run's battle that is on, if any."""
    ongoing = Battle.objects.filter(run_id=run_id, outcome=Outcome.ONGOING.value)
    return ongoing.values_list("pk", flat=True).first()


def battle_in_room(*, run_id: int, floor: int, room: int) -> tuple[int, str] | None:
    """The id and outcome of the battle of a run's room, if it has one."""
    return Battle.objects.filter(run_id=run_id, floor=floor, room=room).values_list("id", "outcome").first()
