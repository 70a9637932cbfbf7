"""Writes of the combat app: create a battle, resolve and save one step of it, record actions.

Combat knows battles, not runs: the run side (``dungeons/runs/battles.py``) owns the battle flow.
It locks the run and the battle (one statement), asks these functions to resolve and save a step
(STYLE.md, Saleor's fetch-compute-write: load the engine state, call the pure engine, persist the
new state and its events), and applies the step's consequences to the run itself. Nothing here
imports dungeons (tests/test_combat_knows_no_runs.py).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from backend.errors import InvalidInput, RuleViolation
from backend.sql import Prepared, rows_insert
from combat import engine
from combat.models import Battle, BattleAction, BattleEvent, CombatSettings

#: The columns a step changes; the setup, the seed and the enemy kinds never change after the start.
STEP_COLUMNS = ["state", "step", "event_count", "outcome", "ended_at", "awaiting", "turn_started_at"]

#: A step's writes in one statement on PostgreSQL (issue 13): its events appended to the log, the
#: battle's changed columns (STEP_COLUMNS), the action row. The action row's unique (battle, step)
#: fails the whole statement, so a second effect for one turn stays impossible.
_STEP_SAVE = """WITH step_events AS (
    INSERT INTO "combat_battleevent" ("battle_id", "seq", "data")
    SELECT %s, %s + e.n - 1, e.data FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e (data, n)
), step_battle AS (
    UPDATE "combat_battle" SET "state" = %s::jsonb, "step" = %s, "event_count" = %s, "outcome" = %s,
        "ended_at" = %s, "awaiting_id" = %s, "turn_started_at" = %s
    WHERE "id" = %s
)
INSERT INTO "combat_battleaction" ("battle_id", "step", "player_id", "action", "idempotency_key", "response",
                                   "created_at")
VALUES (%s, %s, %s, %s::jsonb, %s, %s::jsonb, %s)"""
#: Planned once per database session (backend.sql.Prepared): its planning cost more than its execution.
_STEP_SAVE_PREPARED = Prepared("battle_step_save", _STEP_SAVE)


def battle_deadline_seconds() -> int:
    return CombatSettings.cached().turn_deadline_seconds


def _sync(battle: Battle, state: engine.BattleState, *, now: datetime) -> None:
    """Copy the engine state's turn facts onto the row (``now``: when the awaited turn starts)."""
    battle.state = state.to_dict()
    battle.step = state.step
    battle.outcome = state.outcome.value
    if state.over and battle.ended_at is None:
        battle.ended_at = timezone.now()
    awaiting = state.awaiting
    battle.awaiting_id = engine.combatant_player_id(awaiting) if awaiting else None
    battle.turn_started_at = now if awaiting else None


def _events_insert(battle: Battle, events: list[dict[str, Any]], *, first: int) -> None:
    """Append events to the battle log, numbered from ``first`` (one insert)."""
    BattleEvent.objects.bulk_create(
        BattleEvent(battle=battle, seq=first + offset, data=data) for offset, data in enumerate(events)
    )


def _resolved(battle: Battle, result: engine.Success, *, now: datetime) -> list[dict[str, Any]]:
    """The row moved to the step's new state, in memory; returns the step's events as JSON."""
    events = [event.to_dict() for event in result.events]
    battle.event_count += len(events)
    _sync(battle, result.state, now=now)
    return events


def battle_step_record(battle: Battle, *, events: list[dict[str, Any]], player_id: int | None, turn: int,
                       action: dict[str, Any], key: str, response: dict[str, Any]) -> None:
    """Write a step resolved in memory (``battle_step``, a timeout) and its action row.

    ``events``: the step's events as JSON, the last ``len(events)`` of the row's ``event_count``.
    The action row is unique per (battle, step): the backstop against a second effect for one
    turn. One statement on PostgreSQL; on other databases the ORM's three.
    """
    first = battle.event_count - len(events) + 1
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            _STEP_SAVE_PREPARED.execute(cursor, [
                battle.pk, first, json.dumps(events),
                json.dumps(battle.state), battle.step, battle.event_count, battle.outcome, battle.ended_at,
                battle.awaiting_id, battle.turn_started_at, battle.pk,
                battle.pk, turn, player_id, json.dumps(action), key, json.dumps(response), timezone.now(),
            ])
        return
    _events_insert(battle, events, first=first)
    battle.save(update_fields=STEP_COLUMNS)
    BattleAction.objects.create(battle=battle, step=turn, player_id=player_id, action=action, idempotency_key=key,
                                response=response)


def battle_create(
    *, run_id: int, floor: int, room: int, setup: engine.BattleSetup, seed: int, enemy_kinds: Mapping[str, str],
) -> tuple[Battle, engine.Success]:
    """Start the battle of a room and store it: the row with its first state, then its first events.

    Enemy turns before the first player's turn are already resolved; the caller (the run side)
    applies their consequences, as for any other step.
    """
    result = engine.start_battle(setup, seed)
    battle = Battle(run_id=run_id, floor=floor, room=room, seed=seed, engine_version=engine.ENGINE_VERSION,
                    setup=engine.setup_to_dict(setup), enemy_kinds=dict(enemy_kinds))
    battle.event_count = len(result.events)
    _sync(battle, result.state, now=timezone.now())
    # battle.save(force_insert=True) and the first events, without building the ORM's statements
    rows_insert([battle])
    rows_insert([BattleEvent(battle=battle, seq=seq, data=event.to_dict())
                 for seq, event in enumerate(result.events, start=1)])
    return battle, result


def battle_action_parse(*, player_id: int, data: Mapping[str, Any]) -> engine.Action:
    """The player's action from its JSON; a malformed one is 400 ``invalid_action``."""
    try:
        return engine.player_action(engine.player_combatant_id(player_id), data)
    except engine.ActionShapeError as exc:
        raise InvalidInput("invalid_action", exc.message, exc.details) from exc


def battle_step(battle: Battle, action: engine.Action, *, now: datetime) -> tuple[engine.Success, list[dict[str, Any]]]:
    """Resolve the action on the (locked) battle; a refusal is a 409 that changes nothing.

    The row holds the new state in memory; ``battle_step_record`` writes it with the action row.
    Returns the engine's result and the step's events as JSON.
    """
    state = engine.BattleState.from_dict(battle.state)
    result = engine.act(state, action)
    if isinstance(result, engine.Impossible):
        raise RuleViolation(result.reason, result.message or result.reason.replace("_", " "), {"turn": battle.step})
    return result, _resolved(battle, result, now=now)


def battle_time_out(battle: Battle, *, deadline: datetime) -> engine.Success:
    """The awaited player's deadline passed: skip the turn, record it, save the step (battle locked).

    The next awaited player's turn starts at ``deadline``.
    """
    state = engine.BattleState.from_dict(battle.state)
    awaiting = state.awaiting
    assert awaiting is not None
    action = engine.Timeout(awaiting)
    result = engine.act(state, action)
    assert isinstance(result, engine.Success)  # a timeout for the awaiting player always applies
    player_id = battle.awaiting_id
    events = _resolved(battle, result, now=deadline)
    battle_step_record(battle, events=events, player_id=player_id, turn=state.step, action=action.to_dict(), key="",
                       response={"timeout": True})
    return result


def battle_replayed_response(battle: Battle, *, player_id: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the player's earlier action with this idempotency key, if any."""
    return (BattleAction.objects.filter(battle=battle, player_id=player_id, idempotency_key=key)
            .values_list("response", flat=True).order_by().first())
