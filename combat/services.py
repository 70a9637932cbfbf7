"""Writes of the combat app: create a battle, resolve one step of it, record it with its action.

Combat knows battles, not runs: the run side (``dungeons/runs/battles.py``) owns the battle flow.
It loads the battle (with the run, in one statement), asks these functions to resolve a step (STYLE.md,
Saleor's fetch-compute-write: the engine state from the frozen row, the pure engine's step, the new row
and its events as a value, ``combat.store.BattleStep``), has ``combat.store`` save it with the action
row, and applies the step's consequences to the run itself. Nothing here imports dungeons
(tests/test_combat_knows_no_runs.py), and nothing here writes SQL (combat/store.py does).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from backend.deadlines import deadline_clock_running, deadline_set
from backend.errors import InvalidInput, refused
from combat import engine, store
from combat.models import CombatSettings
from combat.store import ActionRecord, BattleRow, BattleStep
from players.notices import NoticeKind, Told, notices_wake


def battle_deadline_seconds() -> int:
    return CombatSettings.cached().turn_deadline_seconds


def _deadline_told(battle: BattleRow) -> None:
    """Tell the deadline clock (backend/deadlines.py) when the stored step's awaited turn times out (the
    combat settings are read only for a running clock)."""
    started = battle.turn_started_at
    if started is None or battle.awaiting_id is None or battle.is_over or not deadline_clock_running():
        return
    deadline_set(started + timedelta(seconds=battle_deadline_seconds()))


def battle_moved(battle: BattleRow, result: engine.Success, *, now: datetime) -> BattleStep:
    """The row moved to the step's new state (``now``: when the awaited turn starts), with the step's
    events as JSON."""
    events = [event.to_dict() for event in result.events]
    state = result.state
    awaiting = state.awaiting
    row = dataclasses.replace(
        battle, state=state.to_dict(), step=state.step, outcome=state.outcome.value,
        event_count=battle.event_count + len(events), run_seq=battle.run_seq + len(events),
        ended_at=timezone.now() if state.over and battle.ended_at is None else battle.ended_at,
        awaiting_id=engine.combatant_player_id(awaiting) if awaiting else None,
        turn_started_at=now if awaiting else None,
    )
    return BattleStep(row, events)


def battle_step_record(step: BattleStep, *, player_id: int | None, turn: int, action: dict[str, Any],
                       key: str, response: dict[str, Any]) -> None:
    """Write a step resolved in memory (``battle_step``, a timeout) with its action row (combat.store)."""
    record = ActionRecord(step=turn, player_id=player_id, action=action, idempotency_key=key,
                          response=response)
    notices_wake(store.step_save(step, record, told=battle_turn_told(step.battle, actor=player_id)))
    _deadline_told(step.battle)


def battle_turn_told(battle: BattleRow, *, actor: int | None) -> list[Told]:
    """``your_turn`` to the awaited player when a turn starts for them (a battle begins, the turn passes from
    another player, a deadline passed); nobody when the actor goes on or nobody is awaited."""
    if battle.awaiting_id is None or battle.awaiting_id == actor:
        return []
    return [Told(battle.awaiting_id, NoticeKind.YOUR_TURN,
                 {"run": battle.run_id, "battle": battle.id, "turn": battle.step})]


def battle_create(
    *,
    run_id: int,
    floor: int,
    room: int,
    setup: engine.BattleSetup,
    seed: int,
    enemy_kinds: Mapping[str, str],
    run_seq: int = 0,
) -> tuple[BattleRow, engine.Success]:
    """Start the battle of a room and store it: the row with its first state, then its first events
    (numbered in the run's one sequence after ``run_seq``).

    Enemy turns before the first player's turn are already resolved; the caller (the run side)
    applies their consequences, as for any other step, and writes the awaited player's notice
    (``battle_turn_told``) with its own save.
    """
    result = engine.start_battle(setup, seed)
    now = timezone.now()
    blank = BattleRow(id=0, run_id=run_id, floor=floor, room=room, seed=seed,
                      engine_version=engine.ENGINE_VERSION, state={}, outcome=engine.Outcome.ONGOING.value,
                      step=0, event_count=0, awaiting_id=None, turn_started_at=None, created_at=now,
                      ended_at=None, run_seq=run_seq)
    first = battle_moved(blank, result, now=now)
    row = store.battle_insert(run_id=run_id, floor=floor, room=room, seed=seed,
                              engine_version=engine.ENGINE_VERSION, setup=engine.setup_to_dict(setup),
                              enemy_kinds=enemy_kinds, first=first.battle, events=first.events)
    _deadline_told(row)
    return row, result


def battle_action_parse(*, player_id: int, data: Mapping[str, Any]) -> engine.Action:
    """The player's action from its JSON; a malformed one is 400 ``invalid_action``."""
    try:
        return engine.player_action(engine.player_combatant_id(player_id), data)
    except engine.ActionShapeError as exc:
        raise InvalidInput("invalid_action", exc.message, exc.details) from exc


def battle_step(battle: BattleRow, action: engine.Action, *,
                now: datetime) -> tuple[engine.Success, BattleStep]:
    """Resolve the action on the (locked) battle; a refusal is a 409 that changes nothing.

    Returns the engine's result and the step (the new row and its events), which
    ``battle_step_record`` writes with the action row.
    """
    state = engine.BattleState.from_dict(battle.state)
    result = engine.act(state, action)
    if isinstance(result, engine.Impossible):
        raise refused(dataclasses.replace(result, details={**result.details, "turn": battle.step}))
    return result, battle_moved(battle, result, now=now)


def battle_timeout_step(battle: BattleRow, *,
                        deadline: datetime) -> tuple[engine.Success, BattleStep, ActionRecord]:
    """The awaited player's deadline passed: the step that skips their turn and the action row recording
    it (nothing is written). The next awaited player's turn starts at ``deadline``."""
    state = engine.BattleState.from_dict(battle.state)
    awaiting = state.awaiting
    assert awaiting is not None
    action = engine.Timeout(awaiting)
    result = engine.act(state, action)
    assert isinstance(result, engine.Success)  # a timeout for the awaiting player always applies
    record = ActionRecord(step=state.step, player_id=battle.awaiting_id, action=action.to_dict(),
                          idempotency_key="", response={"timeout": True})
    return result, battle_moved(battle, result, now=deadline), record


def battle_time_out(battle: BattleRow, *, deadline: datetime) -> tuple[engine.Success, BattleStep]:
    """Skip the awaited player's turn whose deadline passed, and save it (battle locked)."""
    result, step, record = battle_timeout_step(battle, deadline=deadline)
    notices_wake(store.step_save(step, record, told=battle_turn_told(step.battle, actor=None)))
    _deadline_told(step.battle)
    return result, step


def battle_replayed_response(battle: BattleRow, *, player_id: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the player's earlier action with this idempotency key, if any."""
    return store.replayed_response(battle_id=battle.id, player_id=player_id, key=key)
